#!/usr/bin/env python3
"""GPU peer benchmarks: the workloads of exec/cuda's BenchmarkGPU* at the
same sizes (float32), run with CuPy, cupy.fuse, Numba CUDA hand-written
kernels and JAX jit, then printed as one table beside fuseflow's figures
(parsed from the Go benchmark output given with --fuseflow FILE).

Every timing synchronizes the device, as fuseflow's Eval does: per call
for the launch workload, after each repetition otherwise. Times are the
median of the repetitions. Workloads:

  copy       device-to-device copy of 2^28 float32 (the bandwidth anchor)
  elementwise  out = x*2 + y over 2^28
  sum        sum of 2^28
  chain5     ((((x*1.5)+2)*x)-1)/3 over 2^26
  softmax    row softmax of 8192x8192
  sgemm      4096^3 matrix product
  launch     x + 1 over 1024 elements, warm (host time per call)
  cold       a new expression over 2^20 (exp(x*c), c new each time):
             time to first result, compile included

Usage: python3 bench/gpu_peers.py [--fuseflow go-bench.txt] [--reps N]
"""
import argparse
import math
import os
import re
import sys
import time
import traceback

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

BIG = 1 << 28
CHAIN = 1 << 26
SOFTMAX = 8192
GEMM = 4096
LAUNCH = 1024
COLD = 1 << 20

# bytes moved per call, as the Go benchmarks count them (b.SetBytes)
BYTES = {
    "copy": 2 * 4 * BIG,
    "elementwise": 3 * 4 * BIG,
    "sum": 4 * BIG,
    "chain5": 2 * 4 * CHAIN,
    "softmax": 2 * 4 * SOFTMAX * SOFTMAX,
}
FLOPS = {"sgemm": 2 * GEMM ** 3}
WORKLOADS = ["copy", "elementwise", "sum", "chain5", "softmax", "sgemm", "launch", "cold"]
PEERS = ["CuPy", "cupy.fuse", "Numba", "JAX"]

GO_NAMES = {
    "BenchmarkGPUCopy": "copy",
    "BenchmarkGPUElementwise": "elementwise",
    "BenchmarkGPUSum": "sum",
    "BenchmarkGPUChain5": "chain5",
    "BenchmarkGPUSoftmax": "softmax",
    "BenchmarkGPUSGEMM": "sgemm",
    "BenchmarkGPUWarmLaunch": "launch",
    "BenchmarkGPURawLaunch": "rawlaunch",
    "BenchmarkGPUColdFirstResult": "cold",
}


def median_time(f, sync, reps, warmup=2):
    for _ in range(warmup):
        f()
    sync()
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        f()
        sync()
        ts.append(time.perf_counter() - t)
    ts.sort()
    return ts[len(ts) // 2]


def cold_time(make, sync, reps):
    """Median time of building and first running a new function."""
    ts = []
    for i in range(reps):
        t = time.perf_counter()
        make(1.0 + (i + 1) * 1e-6)
        sync()
        ts.append(time.perf_counter() - t)
    ts.sort()
    return ts[len(ts) // 2]


def guarded(results, peer, work, f):
    try:
        results[(peer, work)] = f()
    except Exception as e:  # one failing peer must not hide the others
        results[(peer, work)] = None
        print(f"# {peer} {work}: {type(e).__name__}: {e}", file=sys.stderr)
        traceback.print_exc(limit=2, file=sys.stderr)


def run_cupy(results, reps):
    import cupy as cp

    sync = cp.cuda.Device().synchronize
    x = cp.linspace(0.5, 1.5, BIG, dtype=cp.float32)
    y = cp.linspace(1.5, 0.5, BIG, dtype=cp.float32)
    dst = cp.empty_like(x)
    xc = x[:CHAIN].copy()
    s = cp.linspace(-4, 4, SOFTMAX * SOFTMAX, dtype=cp.float32).reshape(SOFTMAX, SOFTMAX)
    a = cp.linspace(-1, 1, GEMM * GEMM, dtype=cp.float32).reshape(GEMM, GEMM)
    b = a.T.copy()
    small = cp.ones(LAUNCH, dtype=cp.float32)
    xcold = x[:COLD].copy()

    def softmax(v):
        e = cp.exp(v - v.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    g = lambda f: guarded(results, "CuPy", f[0], f[1])
    g(("copy", lambda: median_time(lambda: cp.copyto(dst, x), sync, reps)))
    g(("elementwise", lambda: median_time(lambda: x * 2 + y, sync, reps)))
    g(("sum", lambda: median_time(lambda: x.sum(), sync, reps)))
    g(("chain5", lambda: median_time(lambda: ((((xc * 1.5) + 2) * xc) - 1) / 3, sync, reps)))
    g(("softmax", lambda: median_time(lambda: softmax(s), sync, reps)))
    g(("sgemm", lambda: median_time(lambda: a @ b, sync, reps)))
    g(("launch", lambda: median_time(lambda: small + 1, sync, max(reps, 1000))))

    def cold_cupy(c):
        k = cp.ElementwiseKernel("float32 x", "float32 y", f"y = expf(x * {c!r}f)", f"cold_{abs(hash(c))}")
        k(xcold)

    g(("cold", lambda: cold_time(cold_cupy, sync, 10)))

    # cupy.fuse
    g2 = lambda f: guarded(results, "cupy.fuse", f[0], f[1])
    ew = cp.fuse(lambda p, q: p * 2 + q)
    ch = cp.fuse(lambda p: ((((p * 1.5) + 2) * p) - 1) / 3)
    sm = cp.fuse(lambda p: cp.sum(p))
    add1 = cp.fuse(lambda p: p + 1)
    g2(("elementwise", lambda: median_time(lambda: ew(x, y), sync, reps)))
    g2(("sum", lambda: median_time(lambda: sm(x), sync, reps)))
    g2(("chain5", lambda: median_time(lambda: ch(xc), sync, reps)))
    g2(("launch", lambda: median_time(lambda: add1(small), sync, max(reps, 1000))))

    def cold_fuse(c):
        f = cp.fuse(lambda p: cp.exp(p * c))
        f(xcold)

    g2(("cold", lambda: cold_time(cold_fuse, sync, 10)))
    del x, y, dst, xc, s, a, b
    cp.get_default_memory_pool().free_all_blocks()


def run_numba(results, reps):
    import cupy as cp
    from numba import cuda, float32

    sync = cuda.synchronize
    x = cp.linspace(0.5, 1.5, BIG, dtype=cp.float32)
    y = cp.linspace(1.5, 0.5, BIG, dtype=cp.float32)
    out = cp.empty_like(x)
    xc = x[:CHAIN].copy()
    oc = cp.empty_like(xc)
    s = cp.linspace(-4, 4, SOFTMAX * SOFTMAX, dtype=cp.float32).reshape(SOFTMAX, SOFTMAX)
    so = cp.empty_like(s)
    a = cp.linspace(-1, 1, GEMM * GEMM, dtype=cp.float32).reshape(GEMM, GEMM)
    b = a.T.copy()
    c = cp.empty_like(a)
    small = cp.ones(LAUNCH, dtype=cp.float32)
    so_small = cp.empty_like(small)
    total = cp.zeros(1, dtype=cp.float32)
    sms = cuda.get_current_device().MULTIPROCESSOR_COUNT
    grid = sms * 16

    @cuda.jit
    def ew(p, q, o):
        i = cuda.grid(1)
        for j in range(i, p.shape[0], cuda.gridsize(1)):
            o[j] = p[j] * 2 + q[j]

    @cuda.jit
    def chain(p, o):
        i = cuda.grid(1)
        for j in range(i, p.shape[0], cuda.gridsize(1)):
            v = p[j]
            o[j] = ((((v * 1.5) + 2) * v) - 1) / 3

    @cuda.jit
    def add1(p, o):
        i = cuda.grid(1)
        if i < p.shape[0]:
            o[i] = p[i] + 1

    @cuda.jit
    def block_sum(p, o):
        sh = cuda.shared.array(256, float32)
        t = cuda.threadIdx.x
        acc = float32(0)
        for j in range(cuda.grid(1), p.shape[0], cuda.gridsize(1)):
            acc += p[j]
        sh[t] = acc
        cuda.syncthreads()
        w = 128
        while w > 0:
            if t < w:
                sh[t] += sh[t + w]
            cuda.syncthreads()
            w //= 2
        if t == 0:
            cuda.atomic.add(o, 0, sh[0])

    @cuda.jit
    def softmax(p, o):
        row = cuda.blockIdx.x
        t = cuda.threadIdx.x
        sh = cuda.shared.array(256, float32)
        n = p.shape[1]
        m = float32(-math.inf)
        for j in range(t, n, 256):
            m = max(m, p[row, j])
        sh[t] = m
        cuda.syncthreads()
        w = 128
        while w > 0:
            if t < w:
                sh[t] = max(sh[t], sh[t + w])
            cuda.syncthreads()
            w //= 2
        m = sh[0]
        cuda.syncthreads()
        acc = float32(0)
        for j in range(t, n, 256):
            acc += math.exp(p[row, j] - m)
        sh[t] = acc
        cuda.syncthreads()
        w = 128
        while w > 0:
            if t < w:
                sh[t] += sh[t + w]
            cuda.syncthreads()
            w //= 2
        inv = 1 / sh[0]
        for j in range(t, n, 256):
            o[row, j] = math.exp(p[row, j] - m) * inv

    TILE = 16

    @cuda.jit
    def sgemm(A, B, C):
        sa = cuda.shared.array((TILE, TILE), float32)
        sb = cuda.shared.array((TILE, TILE), float32)
        tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
        col = cuda.blockIdx.x * TILE + tx
        row = cuda.blockIdx.y * TILE + ty
        acc = float32(0)
        for k0 in range(0, A.shape[1], TILE):
            sa[ty, tx] = A[row, k0 + tx]
            sb[ty, tx] = B[k0 + ty, col]
            cuda.syncthreads()
            for k in range(TILE):
                acc += sa[ty, k] * sb[k, tx]
            cuda.syncthreads()
        C[row, col] = acc

    def total_sum():
        total[0] = 0
        block_sum[grid, 256](x, total)

    g = lambda f: guarded(results, "Numba", f[0], f[1])
    g(("elementwise", lambda: median_time(lambda: ew[grid, 256](x, y, out), sync, reps)))
    g(("sum", lambda: median_time(total_sum, sync, reps)))
    g(("chain5", lambda: median_time(lambda: chain[grid, 256](xc, oc), sync, reps)))
    g(("softmax", lambda: median_time(lambda: softmax[SOFTMAX, 256](s, so), sync, reps)))
    g(("sgemm", lambda: median_time(lambda: sgemm[(GEMM // TILE, GEMM // TILE), (TILE, TILE)](a, b, c), sync, reps)))
    g(("launch", lambda: median_time(lambda: add1[(LAUNCH + 255) // 256, 256](small, so_small), sync, max(reps, 1000))))

    xcold = x[:COLD].copy()
    ocold = cp.empty_like(xcold)

    def cold_numba(cst):
        @cuda.jit
        def k(p, o):
            i = cuda.grid(1)
            if i < p.shape[0]:
                o[i] = math.exp(p[i] * cst)

        k[(COLD + 255) // 256, 256](xcold, ocold)

    g(("cold", lambda: cold_time(cold_numba, sync, 5)))
    del x, y, out, xc, oc, s, so, a, b, c
    cp.get_default_memory_pool().free_all_blocks()


def run_jax(results, reps):
    import jax
    import jax.numpy as jnp

    dev = jax.devices("gpu")[0]
    x = jax.device_put(jnp.linspace(0.5, 1.5, BIG, dtype=jnp.float32), dev)
    y = jax.device_put(jnp.linspace(1.5, 0.5, BIG, dtype=jnp.float32), dev)
    xc = x[:CHAIN]
    s = jnp.linspace(-4, 4, SOFTMAX * SOFTMAX, dtype=jnp.float32).reshape(SOFTMAX, SOFTMAX)
    a = jnp.linspace(-1, 1, GEMM * GEMM, dtype=jnp.float32).reshape(GEMM, GEMM)
    b = a.T + 0
    small = jnp.ones(LAUNCH, dtype=jnp.float32)
    xcold = x[:COLD] + 0
    last = [None]

    def timed(f, *args):
        def call():
            last[0] = f(*args)

        return call

    def sync():
        if last[0] is not None:
            jax.block_until_ready(last[0])

    ew = jax.jit(lambda p, q: p * 2 + q)
    sm = jax.jit(lambda p: jnp.sum(p))
    ch = jax.jit(lambda p: ((((p * 1.5) + 2) * p) - 1) / 3)
    sx = jax.jit(lambda p: jax.nn.softmax(p, axis=1))
    mm = jax.jit(lambda p, q: jnp.matmul(p, q, precision=jax.lax.Precision.HIGHEST))
    add1 = jax.jit(lambda p: p + 1)
    g = lambda f: guarded(results, "JAX", f[0], f[1])
    g(("elementwise", lambda: median_time(timed(ew, x, y), sync, reps)))
    g(("sum", lambda: median_time(timed(sm, x), sync, reps)))
    g(("chain5", lambda: median_time(timed(ch, xc), sync, reps)))
    g(("softmax", lambda: median_time(timed(sx, s), sync, reps)))
    g(("sgemm", lambda: median_time(timed(mm, a, b), sync, reps)))
    g(("launch", lambda: median_time(timed(add1, small), sync, max(reps, 1000))))

    def cold_jax(c):
        f = jax.jit(lambda p: jnp.exp(p * c))
        jax.block_until_ready(f(xcold))

    g(("cold", lambda: cold_time(cold_jax, lambda: None, 5)))


def parse_go(path):
    """Returns {workload: seconds per op} and extra metrics from Go output."""
    times, extra = {}, {}
    pat = re.compile(r"^(BenchmarkGPU\w+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op(.*)$")
    with open(path) as f:
        for line in f:
            m = pat.match(line.strip())
            if not m or m.group(1) not in GO_NAMES:
                continue
            w = GO_NAMES[m.group(1)]
            times[w] = float(m.group(2)) * 1e-9
            for val, unit in re.findall(r"([\d.]+) ([\w/-]+)", m.group(3)):
                extra[(w, unit)] = float(val)
    return times, extra


def cell(work, t):
    if t is None:
        return "n/a"
    if work in BYTES:
        return f"{t * 1e3:.3f} ms ({BYTES[work] / t / 1e9:.0f} GB/s)"
    if work in FLOPS:
        return f"{t * 1e3:.2f} ms ({FLOPS[work] / t / 1e12:.1f} TFLOP/s)"
    if work == "launch":
        return f"{t * 1e6:.1f} us"
    return f"{t * 1e3:.1f} ms"


TARGETS = {
    "copy": "anchor",
    "elementwise": ">= 90% of copy GB/s",
    "sum": ">= 90% of copy GB/s",
    "chain5": ">= 3x CuPy, >= cupy.fuse and JAX",
    "softmax": "-",
    "sgemm": ">= 70% of CuPy (cuBLAS)",
    "launch": "<= raw cuLaunchKernel + 2 us",
    "cold": "codegen <= 1 ms (JIT apart)",
}


def verdict(work, go, results):
    """Says whether fuseflow's figure meets the target, from this run."""
    t = go[0].get(work)
    if t is None:
        return ""
    def bw(w, tt):
        return BYTES[w] / tt
    try:
        if work in ("elementwise", "sum") and "copy" in go[0]:
            r = bw(work, t) / bw("copy", go[0]["copy"])
            return f" [{r * 100:.0f}% of copy]"
        if work == "chain5" and results.get(("CuPy", "chain5")):
            return f" [{results[('CuPy', 'chain5')] / t:.1f}x CuPy]"
        if work == "sgemm" and results.get(("CuPy", "sgemm")):
            return f" [{results[('CuPy', 'sgemm')] / t * 100:.0f}% of CuPy]"
        if work == "launch" and "rawlaunch" in go[0]:
            return f" [raw {go[0]['rawlaunch'] * 1e6:.1f} us, +{(t - go[0]['rawlaunch']) * 1e6:.1f} us]"
        if work == "cold":
            gen = go[1].get(("cold", "gen-us/op"))
            jit = go[1].get(("cold", "jit-us/op"))
            if gen is not None and jit is not None:
                return f" [codegen {gen / 1e3:.2f} ms, JIT {jit / 1e3:.1f} ms]"
    except (KeyError, ZeroDivisionError):
        pass
    return ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fuseflow", help="Go benchmark output of exec/cuda's BenchmarkGPU*")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--only", default="", help="comma-separated peers to run (default: all)")
    args = ap.parse_args()
    only = set(filter(None, args.only.split(",")))
    results = {}
    for name, fn in (("cupy", run_cupy), ("numba", run_numba), ("jax", run_jax)):
        if only and name not in only:
            continue
        try:
            fn(results, args.reps)
        except Exception as e:
            print(f"# {name} unavailable: {type(e).__name__}: {e}", file=sys.stderr)
    go = parse_go(args.fuseflow) if args.fuseflow else ({}, {})
    try:
        import cupy as cp
        props = cp.cuda.runtime.getDeviceProperties(0)
        dev = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
        print(f"device: {dev}; driver {cp.cuda.runtime.driverGetVersion()}; {time.strftime('%Y-%m-%d')}")
    except Exception:
        pass
    header = ["workload", "fuseflow"] + PEERS + ["target"]
    rows = []
    for w in WORKLOADS:
        row = [w, cell(w, go[0].get(w)) + verdict(w, go, results)]
        row += [cell(w, results.get((p, w))) if (p, w) in results else "-" for p in PEERS]
        row.append(TARGETS[w])
        rows.append(row)
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" for _ in header) + "|")
    for r in rows:
        print("| " + " | ".join(r) + " |")


if __name__ == "__main__":
    main()
