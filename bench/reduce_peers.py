#!/usr/bin/python3
"""NumPy peers of exec/cpu's BenchmarkReduceShapes, BenchmarkReduceVar and
BenchmarkSoftmax: the same reductions at the same shapes and dtypes. Prints
`peer <benchmark> numpy <ns/op>`, the median of several runs.

Needs Debian's python3-numpy; run with /usr/bin/python3.
"""
import sys
import time

import numpy as np

rng = np.random.default_rng(0)


def data(dt, shape):
    if dt == "i32":
        return rng.integers(0, 1 << 20, size=shape, dtype=np.int32)
    t = np.float32 if dt == "f32" else np.float64
    return (2 * rng.random(shape) - 1).astype(t)


def timeit(f, reps):
    f()
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        f()
        ts.append(time.perf_counter() - t)
    ts.sort()
    return ts[len(ts) // 2] * 1e9


M32, M64, C32, C64 = (4096, 4096), (4096, 2048), (256, 256, 256), (128, 256, 256)
CASES = [
    ("SumAxis0/f32", "f32", M32, lambda x: x.sum(axis=0)),
    ("SumAxis1/f32", "f32", M32, lambda x: x.sum(axis=1)),
    ("SumAll/f32", "f32", M32, lambda x: x.sum()),
    ("SumMiddle/f32", "f32", C32, lambda x: x.sum(axis=1)),
    ("SumAxis0/f64", "f64", M64, lambda x: x.sum(axis=0)),
    ("SumAxis1/f64", "f64", M64, lambda x: x.sum(axis=1)),
    ("SumMiddle/f64", "f64", C64, lambda x: x.sum(axis=1)),
    ("MaxAxis0/f32", "f32", M32, lambda x: x.max(axis=0)),
    ("MaxAxis1/f32", "f32", M32, lambda x: x.max(axis=1)),
    ("MinMiddle/f64", "f64", C64, lambda x: x.min(axis=1)),
    ("ProdAxis0/f32", "f32", M32, lambda x: x.prod(axis=0)),
    ("SumSqAxis0/f32", "f32", M32, lambda x: (x * x).sum(axis=0)),
    ("ArgMaxAxis1/f32", "f32", M32, lambda x: x.argmax(axis=1)),
    ("ArgMinAxis1/f32", "f32", M32, lambda x: x.argmin(axis=1)),
    ("ArgMaxAxis0/f32", "f32", M32, lambda x: x.argmax(axis=0)),
    ("ArgMaxAxis1/f64", "f64", M64, lambda x: x.argmax(axis=1)),
    ("ArgMaxAxis1/i32", "i32", M32, lambda x: x.argmax(axis=1)),
    ("AnyAxis1/f32", "f32", M32, lambda x: (x > 2).any(axis=1)),
    ("AllAxis1/f32", "f32", M32, lambda x: (x < 0.9).all(axis=1)),
    ("AnyDecided/f32", "f32", M32, lambda x: (x > 0).any()),
    ("AllDecidedAxis1/f32", "f32", M32, lambda x: (x < 0).all(axis=1)),
    ("Var/Axis0/f32", "f32", M32, lambda x: x.var(axis=0)),
    ("Var/Axis1/f32", "f32", M32, lambda x: x.var(axis=1)),
    ("Var/Axis1/f64", "f64", M64, lambda x: x.var(axis=1)),
]


def softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def main():
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    only = sys.argv[2] if len(sys.argv) > 2 else ""
    for name, dt, shape, f in CASES:
        if only and only not in name:
            continue
        x = data(dt, shape)
        print(f"peer {name} numpy {timeit(lambda: f(x), reps):.0f}", flush=True)
    if not only or "Softmax" in only:
        x = (8 * rng.random((4096, 4096)) - 4).astype(np.float32)
        print(f"peer Softmax numpy {timeit(lambda: softmax(x), reps):.0f}", flush=True)


if __name__ == "__main__":
    main()
