#!/usr/bin/python3
"""CPU peer benchmarks: the workloads of exec/cpu's Go benchmarks, at the
same sizes, with NumPy and NumExpr (float32, fixed seed). Prints one line
per workload and library: `peer <workload> <library> <ns/op>`, the median
of several runs, for bench/cpujoin.

Needs Debian's python3-numpy and python3-numexpr (and
libopenblas0-pthread for NumPy's matmul); run with /usr/bin/python3.
"""
import sys
import time

import numpy as np
import numexpr as ne

N = 1 << 24
rng = np.random.default_rng(0)


def uniform(shape, lo, hi):
    return (lo + (hi - lo) * rng.random(shape)).astype(np.float32)


def timeit(f, reps):
    f()
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        f()
        ts.append(time.perf_counter() - t)
    ts.sort()
    return ts[len(ts) // 2] * 1e9


def main():
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    a, b, c, d = (uniform(N, 0, 1) for _ in range(4))
    x = uniform((4096, 4096), -4, 4)
    two, three = np.float32(2), np.float32(3)

    def softmax_np():
        e = np.exp(x - x.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    def softmax_ne():
        m = x.max(axis=1, keepdims=True)
        e = ne.evaluate("exp(x - m)", local_dict=dict(x=x, m=m))
        s = e.sum(axis=1, keepdims=True)
        return ne.evaluate("e / s", local_dict=dict(e=e, s=s))

    mats = {n: (uniform((n, n), -1, 1), uniform((n, n), -1, 1)) for n in (1024, 512)}
    work = [
        ("chain", "numpy", lambda: two * a + three * b * c - d),
        ("chain", "numexpr", lambda: ne.evaluate("2*a + 3*b*c - d", local_dict=dict(a=a, b=b, c=c, d=d))),
        ("expr", "numpy", lambda: np.exp(-a * a) * b + np.sqrt(c)),
        ("expr", "numexpr", lambda: ne.evaluate("exp(-a*a)*b + sqrt(c)", local_dict=dict(a=a, b=b, c=c))),
        ("sum", "numpy", lambda: a.sum()),
        ("sum", "numexpr", lambda: ne.evaluate("sum(a)", local_dict=dict(a=a))),
        ("softmax", "numpy", softmax_np),
        ("softmax", "numexpr", softmax_ne),
        ("matmul1024", "numpy", lambda: mats[1024][0] @ mats[1024][1]),
        ("matmul512", "numpy", lambda: mats[512][0] @ mats[512][1]),
    ]
    # exec/cpu's BenchmarkMatMul/<dtype>/<n> and /<dtype>/<count>x<n>.
    for dn, dt in (("f32", np.float32), ("f64", np.float64)):
        for count, n in ((1, 64), (1, 128), (1, 256), (1, 512), (1, 1024), (1, 2048), (64, 64), (1024, 16)):
            shape = (count, n, n) if count > 1 else (n, n)
            p, q = uniform(shape, -1, 1).astype(dt), uniform(shape, -1, 1).astype(dt)
            size = f"{count}x{n}" if count > 1 else f"{n}"
            work.append((f"matmul/{dn}/{size}", "numpy", lambda p=p, q=q: p @ q))
    for name, lib, f in work:
        print(f"peer {name} {lib} {timeit(f, reps):.0f}", flush=True)


if __name__ == "__main__":
    main()
