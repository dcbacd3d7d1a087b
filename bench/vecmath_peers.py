#!/usr/bin/python3
"""NumPy peers of internal/vecmath's BenchmarkFuncs and exec/cpu's
BenchmarkMathFuncs: each math function over N float32 and float64 elements
(argument 2, default 2^20; the executor's benchmarks use 2^22) in the same
ranges, the best of REPEAT timings (argument 1, default 20), printed as
`fn type numpy ns/elem`."""
import sys
import time

import numpy as np

REPEAT = int(sys.argv[1]) if len(sys.argv) > 1 else 20
N = int(sys.argv[2]) if len(sys.argv) > 2 else 1 << 20


def rng_range(fn):
    if fn in ("log", "log2", "sqrt", "rsqrt"):
        return 0.01, 100, 0, 0
    if fn == "log1p":
        return -0.9, 100, 0, 0
    if fn == "pow":
        return 0.1, 10, -5, 5
    if fn in ("sin", "cos", "tan"):
        return -100, 100, 0, 0
    return -10, 10, -10, 10


def erf(x, y, out):
    # NumPy has no erf ufunc; SciPy's is the usual peer when installed.
    import scipy.special
    return scipy.special.erf(x, out=out)


FUNCS = {
    "exp": lambda x, y, o: np.exp(x, out=o),
    "exp2": lambda x, y, o: np.exp2(x, out=o),
    "expm1": lambda x, y, o: np.expm1(x, out=o),
    "log": lambda x, y, o: np.log(x, out=o),
    "log2": lambda x, y, o: np.log2(x, out=o),
    "log1p": lambda x, y, o: np.log1p(x, out=o),
    "sin": lambda x, y, o: np.sin(x, out=o),
    "cos": lambda x, y, o: np.cos(x, out=o),
    "tan": lambda x, y, o: np.tan(x, out=o),
    "tanh": lambda x, y, o: np.tanh(x, out=o),
    # sigmoid as NumPy users write it: three ufunc calls in place.
    "sigmoid": lambda x, y, o: np.reciprocal(np.add(np.exp(np.negative(x, out=o), out=o), 1, out=o), out=o),
    "erf": erf,
    "pow": lambda x, y, o: np.power(x, y, out=o),
    "atan2": lambda x, y, o: np.arctan2(x, y, out=o),
    # rsqrt as NumPy users write it: two ufunc calls in place.
    "rsqrt": lambda x, y, o: np.reciprocal(np.sqrt(x, out=o), out=o),
    "sqrt": lambda x, y, o: np.sqrt(x, out=o),
    "floor": lambda x, y, o: np.floor(x, out=o),
    "ceil": lambda x, y, o: np.ceil(x, out=o),
    "roundeven": lambda x, y, o: np.rint(x, out=o),
    "trunc": lambda x, y, o: np.trunc(x, out=o),
}


def main():
    print("# numpy", np.__version__)
    for fn, f in FUNCS.items():
        for dt, name in ((np.float32, "f32"), (np.float64, "f64")):
            lo, hi, ylo, yhi = rng_range(fn)
            r = np.random.default_rng(1)
            x = (lo + (hi - lo) * r.random(N)).astype(dt)
            y = (ylo + (yhi - ylo) * r.random(N)).astype(dt)
            o = np.empty(N, dt)
            try:
                f(x, y, o)
            except ImportError:
                print(f"{fn} {name} numpy -")
                continue
            best = float("inf")
            for _ in range(REPEAT):
                t = time.perf_counter()
                f(x, y, o)
                best = min(best, time.perf_counter() - t)
            print(f"{fn} {name} numpy {best * 1e9 / N:.4f}")


if __name__ == "__main__":
    main()
