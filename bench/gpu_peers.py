#!/usr/bin/env python3
"""GPU peer benchmarks: the workloads of exec/cuda's BenchmarkGPU* at the
same sizes (float32), run with CuPy, cupy.fuse, Numba CUDA kernels written
by hand, JAX jit and PyTorch, then printed as one table beside fuseflow's
figures (parsed from the Go benchmark output given with --fuseflow).

Each peer runs in a process of its own, with a time limit, so that one
failing or hanging peer cannot hide the others and each starts with the
whole device. Those processes run with CUDA_CACHE_DISABLE=1 and fresh,
empty CUPY_CACHE_DIR, NUMBA_CACHE_DIR and TORCHINDUCTOR_CACHE_DIR, so that
the cold figures include every compilation. Every peer measures the
device-to-device copy bandwidth it gets (the anchor of the bandwidth
targets) in the same process; fuseflow's is BenchmarkGPUCopy's, from the
same Go run as its other figures.

Every timing synchronizes the device after each call, as fuseflow's Eval
does; times are medians. Numba runs on its own device arrays.

Workloads (bytes counted as the Go benchmarks count them, read + written):

  copy           device-to-device copy of 2^28 float32 (the bandwidth anchor)
  elementwise    x*2 + y over 2^28
  sum            sum of 2^28
  rowsum RxC     sums of the rows of (4, 2^24) and (64, 2^20)
  colsum RxC     sums of the columns of (8191, 64) and (65536, 4096)
  chain5         ((((x*1.5)+2)*x)-1)/3 over 2^26
  softmax        row softmax of 8192x8192
  sgemm          4096^3 matrix product in float32
  launch         x + 1 over 1024 elements, warm (host time per call)
  cold KIND      a new expression each call (a new constant): time to its
                 first result, compilation included: map exp(x*c) over
                 2^20, reduce-all sum(x*c), reduce-rows and reduce-cols of
                 x*c over (1024, 1024), matmul max(a@b, c) of 256^3

Usage:
  python3 bench/gpu_peers.py --fuseflow go-bench.txt [--peers cupy,numba,jax,torch]
      [--results peers.json] [--reps N] [--budget SECONDS]
  python3 bench/gpu_peers.py --table --fuseflow go-bench.txt [--results peers.json]

--results names a JSON file of peer results: read first when it exists,
updated with the peers run, so that peers run in separate calls end up in
one table; given several times, all are read (later ones win) and the
last is updated. --table runs nothing and prints the table from the
files, for example on another machine:
  python3 bench/gpu_peers.py --table --fuseflow go-bench.txt --results a/peers.json --results b/peers.json

cupy.fuse may pass a constant as a kernel parameter and reuse the code it
compiled for an earlier one: its cold figures can be the cost of tracing a
new function rather than of compiling one. Eager PyTorch and cuBLAS
compile nothing per expression and have no cold figures.
"""
import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

BIG = 1 << 28
CHAIN = 1 << 26
SOFTMAX = 8192
GEMM = 4096
LAUNCH = 1024
COLD = 1 << 20
COLD_ROWS = 1024
COLD_MM = 256
ROWSUMS = [(4, 1 << 24), (64, 1 << 20)]
COLSUMS = [(8191, 64), (65536, 4096)]
SAXPY = 1 << 26  # explicit kernels (exec/cuda/bench_kernels_gpu_test.go)
TILED = 2048
KLAUNCH = 1024


def rs(r, c):
    return f"rowsum {r}x{c}"


def cs(r, c):
    return f"colsum {r}x{c}"


COLD_KINDS = ["map", "reduce-all", "reduce-rows", "reduce-cols", "matmul"]

# Workloads in table order, with the bytes (read + written) or flops of
# one call, and the target fuseflow is held to.
WORKLOADS = (
    [("copy", 2 * 4 * BIG, None, "anchor")]
    + [("elementwise", 3 * 4 * BIG, None, ">= 90% of copy"),
       ("sum", 4 * BIG, None, ">= 90% of copy")]
    + [(rs(r, c), 4 * (r * c + r), None, ">= 70% of copy") for r, c in ROWSUMS]
    + [(cs(r, c), 4 * (r * c + c), None, ">= 70% of copy") for r, c in COLSUMS]
    + [("chain5", 2 * 4 * CHAIN, None, ">= 3x CuPy, >= 1x cupy.fuse and JAX"),
       ("softmax", 2 * 4 * SOFTMAX * SOFTMAX, None, "-"),
       ("sgemm", None, 2 * GEMM ** 3, ">= 70% of CuPy (cuBLAS)"),
       ("launch", None, None, "<= bare cuLaunchKernel + 2 us")]
    + [("explicit saxpy", 12 * SAXPY, None, ">= 90% of copy, >= Numba"),
       ("lazy saxpy", 12 * SAXPY, None, ">= 90% of copy"),
       ("explicit tiled matmul", None, 2 * TILED ** 3, ">= Numba"),
       ("lazy matmul 2048", None, 2 * TILED ** 3, ">= 70% of CuPy (cuBLAS)"),
       ("explicit launch", None, None, "<= bare cuLaunchKernel + 2 us")]
    + [(f"cold {k}", None, None, "codegen <= 1 ms (JIT apart)") for k in COLD_KINDS]
)
BYTES = {w: b for w, b, _, _ in WORKLOADS if b}
FLOPS = {w: f for w, _, f, _ in WORKLOADS if f}
TARGETS = {w: t for w, _, _, t in WORKLOADS}
PEERS = ["CuPy", "cupy.fuse", "Numba", "JAX", "PyTorch"]
MODULES = {"cupy": ["CuPy", "cupy.fuse"], "numba": ["Numba"], "jax": ["JAX"], "torch": ["PyTorch"]}

# Go benchmark names (without the -GOMAXPROCS suffix) to workloads.
GO_NAMES = {
    "BenchmarkGPUCopy": "copy",
    "BenchmarkGPUElementwise": "elementwise",
    "BenchmarkGPUSum": "sum",
    "BenchmarkGPUChain5": "chain5",
    "BenchmarkGPUSoftmax": "softmax",
    "BenchmarkGPUSGEMM": "sgemm",
    "BenchmarkGPUWarmLaunch": "launch",
    "BenchmarkGPUExplicitSaxpy/explicit": "explicit saxpy",
    "BenchmarkGPUExplicitSaxpy/lazy": "lazy saxpy",
    "BenchmarkGPUExplicitTiledMatMul/explicit": "explicit tiled matmul",
    "BenchmarkGPUExplicitTiledMatMul/lazy": "lazy matmul 2048",
    "BenchmarkGPUExplicitLaunch": "explicit launch",
    "BenchmarkGPURawLaunch/bare": "rawlaunch",
    "BenchmarkGPURawLaunch/binding": "rawlaunch binding",
}
GO_NAMES.update({f"BenchmarkGPURowSum/{r}x{c}": rs(r, c) for r, c in ROWSUMS})
GO_NAMES.update({f"BenchmarkGPUColSum/{r}x{c}": cs(r, c) for r, c in COLSUMS})
GO_NAMES.update({f"BenchmarkGPUCold/{k}": f"cold {k}" for k in COLD_KINDS})


# ---- timing helpers (used inside a peer's process) ----

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
    """Median time of building and first running a new function; make
    gets a constant no earlier call used."""
    ts = []
    for _ in range(reps):
        cold_time.seq += 1
        c = 1.0 + cold_time.seq * 1e-6
        t = time.perf_counter()
        make(c)
        sync()
        ts.append(time.perf_counter() - t)
    ts.sort()
    return ts[len(ts) // 2]


cold_time.seq = 0


def run_sums(rec, peer, x, sync, reps, row_call, col_call):
    """Runs the rowsum and colsum workloads on views of the start of x:
    row_call(v) and col_call(v) return the call to time on the (r, c)
    view v."""
    for shapes, work, call in ((ROWSUMS, rs, row_call), (COLSUMS, cs, col_call)):
        for r, c in shapes:
            v = x[: r * c].reshape(r, c)
            rec.run(peer, work(r, c), lambda v=v, call=call: median_time(call(v), sync, reps))


class Recorder:
    """Collects one peer's results; a failing workload is reported on
    stderr and recorded as missing, and the others go on."""

    def __init__(self):
        self.results = {}
        self.errors = {}

    def run(self, peer, work, f):
        try:
            self.results[f"{peer}|{work}"] = f()
        except Exception as e:  # one failing workload must not hide the others
            self.errors[f"{peer}|{work}"] = f"{type(e).__name__}: {e}"
            print(f"# {peer} {work}: {type(e).__name__}: {e}", file=sys.stderr)
            traceback.print_exc(limit=3, file=sys.stderr)


# ---- peers ----

def run_cupy(rec, reps):
    import cupy as cp

    sync = cp.cuda.Device().synchronize
    x = cp.linspace(0.5, 1.5, BIG, dtype=cp.float32)
    y = cp.linspace(1.5, 0.5, BIG, dtype=cp.float32)
    dst = cp.empty_like(x)
    xc = x[:CHAIN].copy()
    s = x[: SOFTMAX * SOFTMAX].reshape(SOFTMAX, SOFTMAX)
    a = x[: GEMM * GEMM].reshape(GEMM, GEMM)
    b = y[: GEMM * GEMM].reshape(GEMM, GEMM)
    small = cp.ones(LAUNCH, dtype=cp.float32)
    xcold = x[:COLD].copy()
    x2 = xcold.reshape(COLD_ROWS, COLD // COLD_ROWS)
    am, bm = x[: COLD_MM * COLD_MM].reshape(COLD_MM, COLD_MM), y[: COLD_MM * COLD_MM].reshape(COLD_MM, COLD_MM)
    stream = cp.cuda.get_current_stream()

    def copy():
        cp.cuda.runtime.memcpyAsync(dst.data.ptr, x.data.ptr, x.nbytes, cp.cuda.runtime.memcpyDeviceToDevice, stream.ptr)

    def softmax(v):
        e = cp.exp(v - v.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    P = "CuPy"
    rec.run(P, "copy", lambda: median_time(copy, sync, reps))
    rec.run(P, "elementwise", lambda: median_time(lambda: x * 2 + y, sync, reps))
    rec.run(P, "sum", lambda: median_time(lambda: x.sum(), sync, reps))
    run_sums(rec, P, x, sync, reps, lambda v: lambda: v.sum(axis=1), lambda v: lambda: v.sum(axis=0))
    rec.run(P, "chain5", lambda: median_time(lambda: ((((xc * 1.5) + 2) * xc) - 1) / 3, sync, reps))
    rec.run(P, "softmax", lambda: median_time(lambda: softmax(s), sync, reps))
    rec.run(P, "sgemm", lambda: median_time(lambda: a @ b, sync, reps))
    rec.run(P, "launch", lambda: median_time(lambda: small + 1, sync, max(reps, 1000)))

    def cold_map(c):
        k = cp.ElementwiseKernel("float32 x", "float32 y", f"y = expf(x * {c!r}f)", f"cold_map_{cold_time.seq}")
        k(xcold)

    def cold_reduce(axis, v):
        def make(c):
            k = cp.ReductionKernel("float32 x", "float32 y", f"x * {c!r}f", "a + b", "y = a", "0",
                                   f"cold_red_{cold_time.seq}")
            k(v, axis=axis)
        return make

    rec.run(P, "cold map", lambda: cold_time(cold_map, sync, 10))
    rec.run(P, "cold reduce-all", lambda: cold_time(cold_reduce(None, xcold), sync, 10))
    rec.run(P, "cold reduce-rows", lambda: cold_time(cold_reduce(1, x2), sync, 10))
    rec.run(P, "cold reduce-cols", lambda: cold_time(cold_reduce(0, x2), sync, 10))
    # matmul: cuBLAS is compiled ahead of time; there is no cold figure.

    P = "cupy.fuse"
    ew = cp.fuse(lambda p, q: p * 2 + q)
    sm = cp.fuse(lambda p: cp.sum(p))
    rows = cp.fuse(lambda p: cp.sum(p, axis=1))
    cols = cp.fuse(lambda p: cp.sum(p, axis=0))
    ch = cp.fuse(lambda p: ((((p * 1.5) + 2) * p) - 1) / 3)
    add1 = cp.fuse(lambda p: p + 1)
    rec.run(P, "elementwise", lambda: median_time(lambda: ew(x, y), sync, reps))
    rec.run(P, "sum", lambda: median_time(lambda: sm(x), sync, reps))
    run_sums(rec, P, x, sync, reps, lambda v: lambda: rows(v), lambda v: lambda: cols(v))
    rec.run(P, "chain5", lambda: median_time(lambda: ch(xc), sync, reps))
    rec.run(P, "launch", lambda: median_time(lambda: add1(small), sync, max(reps, 1000)))

    def fused(body, v):
        def make(c):
            cp.fuse(lambda p: body(p, c))(v)
        return make

    # A new fused function each call; cupy.fuse may pass the constant as a
    # parameter and reuse the kernel compiled for an earlier one, so this
    # can be the cost of tracing rather than of compiling.
    rec.run(P, "cold map", lambda: cold_time(fused(lambda p, c: cp.exp(p * c), xcold), sync, 10))
    rec.run(P, "cold reduce-all", lambda: cold_time(fused(lambda p, c: cp.sum(p * c), xcold), sync, 10))
    rec.run(P, "cold reduce-rows", lambda: cold_time(fused(lambda p, c: cp.sum(p * c, axis=1), x2), sync, 10))
    rec.run(P, "cold reduce-cols", lambda: cold_time(fused(lambda p, c: cp.sum(p * c, axis=0), x2), sync, 10))
    del am, bm


def run_numba(rec, reps):
    import numpy as np
    from numba import cuda, float32

    sync = cuda.synchronize
    dev = cuda.get_current_device()
    sms = dev.MULTIPROCESSOR_COUNT
    grid = sms * 16

    @cuda.jit
    def fill(o, lo, step):
        for j in range(cuda.grid(1), o.shape[0], cuda.gridsize(1)):
            o[j] = lo + step * float32(j % 1021)

    def device_array(n, lo):
        o = cuda.device_array(n, dtype="float32")
        fill[grid, 256](o, float32(lo), float32(1.0 / 1021))
        return o

    x = device_array(BIG, 0.5)
    y = device_array(BIG, 0.5)
    out = cuda.device_array(BIG, dtype="float32")
    sync()

    @cuda.jit
    def ew(p, q, o):
        for j in range(cuda.grid(1), p.shape[0], cuda.gridsize(1)):
            o[j] = p[j] * 2 + q[j]

    @cuda.jit
    def chain(p, o):
        for j in range(cuda.grid(1), p.shape[0], cuda.gridsize(1)):
            v = p[j]
            o[j] = ((((v * 1.5) + 2) * v) - 1) / 3

    @cuda.jit
    def add1(p, o):
        i = cuda.grid(1)
        if i < p.shape[0]:
            o[i] = p[i] + 1

    @cuda.jit(device=True)
    def tree_sum(sh, t, acc):
        # the sum of acc over the 256 threads of a block, by a tree in
        # the shared sh; every thread gets it. The cold kernels call it
        # too: Numba types it once, NVVM compiles it into each kernel.
        sh[t] = acc
        cuda.syncthreads()
        w = 128
        while w > 0:
            if t < w:
                sh[t] += sh[t + w]
            cuda.syncthreads()
            w //= 2
        return sh[0]

    def make_block_sum(scale):
        # grid-stride partial sums of p*scale, a shared-memory tree per
        # block, one atomic per block (scale 1 is folded away)
        @cuda.jit
        def k(p, o):
            sh = cuda.shared.array(256, float32)
            t = cuda.threadIdx.x
            acc = float32(0)
            for j in range(cuda.grid(1), p.shape[0], cuda.gridsize(1)):
                acc += p[j] * scale
            s = tree_sum(sh, t, acc)
            if t == 0:
                cuda.atomic.add(o, 0, s)

        return k

    block_sum = make_block_sum(float32(1))

    @cuda.jit
    def row_sum(p, o):
        # grid (chunks, rows): each block sums a chunk of one row
        sh = cuda.shared.array(256, float32)
        t = cuda.threadIdx.x
        row = cuda.blockIdx.y
        acc = float32(0)
        for j in range(cuda.blockIdx.x * 256 + t, p.shape[1], cuda.gridDim.x * 256):
            acc += p[row, j]
        s = tree_sum(sh, t, acc)
        if t == 0:
            cuda.atomic.add(o, row, s)

    @cuda.jit
    def col_sum(p, o):
        # grid (column blocks, row chunks): a thread per column sums a
        # chunk of its rows, then one atomic
        col = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
        if col >= p.shape[1]:
            return
        acc = float32(0)
        for i in range(cuda.blockIdx.y, p.shape[0], cuda.gridDim.y):
            acc += p[i, col]
        cuda.atomic.add(o, col, acc)

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
        inv = 1 / tree_sum(sh, t, acc)
        for j in range(t, n, 256):
            o[row, j] = math.exp(p[row, j] - m) * inv

    TILE = 16

    def make_tiled_mm(epilogue):
        # C = epilogue(A @ B), 16x16 tiles through shared memory;
        # epilogue is a device function of one value
        @cuda.jit
        def k(A, B, C):
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
                for kk in range(TILE):
                    acc += sa[ty, kk] * sb[kk, tx]
                cuda.syncthreads()
            C[row, col] = epilogue(acc)

        return k

    @cuda.jit(device=True)
    def same(v):
        return v

    sgemm = make_tiled_mm(same)

    P = "Numba"
    # The sums accumulate with atomics into total, zeroed before each call
    # by a copy of at most 16 KiB from the host (timed with the call).
    zeros = np.zeros(max(max(r for r, _ in ROWSUMS), max(c for _, c in COLSUMS), COLD_ROWS, COLD // COLD_ROWS),
                     dtype=np.float32)
    total = cuda.to_device(zeros)

    def zero(n):
        total[:n].copy_to_device(zeros[:n])

    rec.run(P, "copy", lambda: median_time(lambda: out.copy_to_device(x), sync, reps))
    rec.run(P, "elementwise", lambda: median_time(lambda: ew[grid, 256](x, y, out), sync, reps))

    def whole_sum():
        zero(1)
        block_sum[grid, 256](x, total)

    rec.run(P, "sum", lambda: median_time(whole_sum, sync, reps))

    def rows(v):
        r = v.shape[0]
        chunks = max(1, 4 * sms // r)

        def call():
            zero(r)
            row_sum[(chunks, r), 256](v, total)

        return call

    def cols(v):
        r, c = v.shape
        cblocks = (c + 255) // 256
        chunks = max(1, min(r // 16, 8 * sms // cblocks))

        def call():
            zero(c)
            col_sum[(cblocks, chunks), 256](v, total)

        return call

    run_sums(rec, P, x, sync, reps, rows, cols)
    xc, oc = x[:CHAIN], out[:CHAIN]
    rec.run(P, "chain5", lambda: median_time(lambda: chain[grid, 256](xc, oc), sync, reps))
    s, so = x[: SOFTMAX * SOFTMAX].reshape(SOFTMAX, SOFTMAX), out[: SOFTMAX * SOFTMAX].reshape(SOFTMAX, SOFTMAX)
    rec.run(P, "softmax", lambda: median_time(lambda: softmax[SOFTMAX, 256](s, so), sync, reps))
    a, b = x[: GEMM * GEMM].reshape(GEMM, GEMM), y[: GEMM * GEMM].reshape(GEMM, GEMM)
    c = out[: GEMM * GEMM].reshape(GEMM, GEMM)
    rec.run(P, "sgemm", lambda: median_time(lambda: sgemm[(GEMM // TILE, GEMM // TILE), (TILE, TILE)](a, b, c), sync, reps))
    small, so_small = x[:LAUNCH], out[:LAUNCH]
    rec.run(P, "launch", lambda: median_time(lambda: add1[(LAUNCH + 255) // 256, 256](small, so_small), sync, max(reps, 1000)))


    # The explicit kernels of exec/cuda/internal/kerneltest, as Numba
    # writes them: a grid-stride saxpy, the 16x16 tiled product (sgemm
    # above) at TILED, and one small saxpy launch.
    @cuda.jit
    def saxpy(a, p, q):
        for j in range(cuda.grid(1), q.shape[0], cuda.gridsize(1)):
            q[j] = a * p[j] + q[j]

    xs, ys = x[:SAXPY], y[:SAXPY]
    rec.run(P, "explicit saxpy", lambda: median_time(lambda: saxpy[16 * sms, 256](float32(2), xs, ys), sync, reps))
    ta, tb = x[: TILED * TILED].reshape(TILED, TILED), y[: TILED * TILED].reshape(TILED, TILED)
    tc = out[: TILED * TILED].reshape(TILED, TILED)
    rec.run(P, "explicit tiled matmul",
            lambda: median_time(lambda: sgemm[(TILED // TILE, TILED // TILE), (TILE, TILE)](ta, tb, tc), sync, reps))
    kx, ky = x[:KLAUNCH], out[:KLAUNCH]
    rec.run(P, "explicit launch",
            lambda: median_time(lambda: saxpy[KLAUNCH // 256, 256](float32(2), kx, ky), sync, max(reps, 1000)))

    xcold, ocold = x[:COLD], out[:COLD]
    x2 = xcold.reshape(COLD_ROWS, COLD // COLD_ROWS)

    def cold_map(cst):
        @cuda.jit
        def k(p, o):
            i = cuda.grid(1)
            if i < p.shape[0]:
                o[i] = math.exp(p[i] * cst)

        k[(COLD + 255) // 256, 256](xcold, ocold)

    def cold_all(cst):
        make_block_sum(cst)[grid, 256](xcold, total)

    def cold_rows(cst):
        @cuda.jit
        def k(p, o):
            sh = cuda.shared.array(256, float32)
            t = cuda.threadIdx.x
            row = cuda.blockIdx.x
            acc = float32(0)
            for j in range(t, p.shape[1], 256):
                acc += p[row, j] * cst
            s = tree_sum(sh, t, acc)
            if t == 0:
                o[row] = s

        k[COLD_ROWS, 256](x2, total)

    def cold_cols(cst):
        @cuda.jit
        def k(p, o):
            col = cuda.grid(1)
            if col < p.shape[1]:
                acc = float32(0)
                for i in range(p.shape[0]):
                    acc += p[i, col] * cst
                o[col] = acc

        k[(x2.shape[1] + 255) // 256, 256](x2, total)

    am, bm = x[: COLD_MM * COLD_MM].reshape(COLD_MM, COLD_MM), y[: COLD_MM * COLD_MM].reshape(COLD_MM, COLD_MM)
    cm = out[: COLD_MM * COLD_MM].reshape(COLD_MM, COLD_MM)

    def cold_mm(cst):
        @cuda.jit(device=True)
        def floor(v):
            return max(v, cst)

        make_tiled_mm(floor)[(COLD_MM // TILE, COLD_MM // TILE), (TILE, TILE)](am, bm, cm)

    rec.run(P, "cold map", lambda: cold_time(cold_map, sync, 3))
    rec.run(P, "cold reduce-all", lambda: cold_time(cold_all, sync, 3))
    rec.run(P, "cold reduce-rows", lambda: cold_time(cold_rows, sync, 3))
    rec.run(P, "cold reduce-cols", lambda: cold_time(cold_cols, sync, 3))
    rec.run(P, "cold matmul", lambda: cold_time(cold_mm, sync, 3))


def run_jax(rec, reps):
    import jax
    import jax.numpy as jnp

    dev = jax.devices("gpu")[0]
    x = jax.device_put(jnp.linspace(0.5, 1.5, BIG, dtype=jnp.float32), dev)
    y = jax.device_put(jnp.linspace(1.5, 0.5, BIG, dtype=jnp.float32), dev)
    last = [None]

    def timed(f, *args):
        def call():
            last[0] = f(*args)

        return call

    def sync():
        if last[0] is not None:
            jax.block_until_ready(last[0])

    P = "JAX"
    ew = jax.jit(lambda p, q: p * 2 + q)
    sm = jax.jit(lambda p: jnp.sum(p))
    rows = jax.jit(lambda p: jnp.sum(p, axis=1))
    cols = jax.jit(lambda p: jnp.sum(p, axis=0))
    ch = jax.jit(lambda p: ((((p * 1.5) + 2) * p) - 1) / 3)
    sx = jax.jit(lambda p: jax.nn.softmax(p, axis=1))
    mm = jax.jit(lambda p, q: jnp.matmul(p, q, precision=jax.lax.Precision.HIGHEST))  # FP32, not TF32
    add1 = jax.jit(lambda p: p + 1)
    rec.run(P, "elementwise", lambda: median_time(timed(ew, x, y), sync, reps))
    rec.run(P, "sum", lambda: median_time(timed(sm, x), sync, reps))
    run_sums(rec, P, x, sync, reps, lambda v: timed(rows, v), lambda v: timed(cols, v))
    xc = x[:CHAIN] + 0
    rec.run(P, "chain5", lambda: median_time(timed(ch, xc), sync, reps))
    s = x[: SOFTMAX * SOFTMAX].reshape(SOFTMAX, SOFTMAX)
    rec.run(P, "softmax", lambda: median_time(timed(sx, s), sync, reps))
    a, b = x[: GEMM * GEMM].reshape(GEMM, GEMM), y[: GEMM * GEMM].reshape(GEMM, GEMM)
    rec.run(P, "sgemm", lambda: median_time(timed(mm, a, b), sync, reps))
    small = jnp.ones(LAUNCH, dtype=jnp.float32)
    rec.run(P, "launch", lambda: median_time(timed(add1, small), sync, max(reps, 1000)))

    xcold = x[:COLD] + 0
    x2 = xcold.reshape(COLD_ROWS, COLD // COLD_ROWS)
    am, bm = x[: COLD_MM * COLD_MM].reshape(COLD_MM, COLD_MM), y[: COLD_MM * COLD_MM].reshape(COLD_MM, COLD_MM)

    def cold(body, *args):
        def make(c):
            jax.block_until_ready(jax.jit(lambda *p: body(c, *p))(*args))
        return make

    nosync = lambda: None
    rec.run(P, "cold map", lambda: cold_time(cold(lambda c, p: jnp.exp(p * c), xcold), nosync, 5))
    rec.run(P, "cold reduce-all", lambda: cold_time(cold(lambda c, p: jnp.sum(p * c), xcold), nosync, 5))
    rec.run(P, "cold reduce-rows", lambda: cold_time(cold(lambda c, p: jnp.sum(p * c, axis=1), x2), nosync, 5))
    rec.run(P, "cold reduce-cols", lambda: cold_time(cold(lambda c, p: jnp.sum(p * c, axis=0), x2), nosync, 5))
    rec.run(P, "cold matmul", lambda: cold_time(cold(
        lambda c, p, q: jnp.maximum(jnp.matmul(p, q, precision=jax.lax.Precision.HIGHEST), c), am, bm), nosync, 5))


def run_torch(rec, reps):
    import torch

    torch.backends.cuda.matmul.allow_tf32 = False  # FP32 products, as fuseflow's
    sync = torch.cuda.synchronize
    d = torch.device("cuda")
    x = torch.linspace(0.5, 1.5, BIG, dtype=torch.float32, device=d)
    y = torch.linspace(1.5, 0.5, BIG, dtype=torch.float32, device=d)
    dst = torch.empty_like(x)
    P = "PyTorch"
    rec.run(P, "copy", lambda: median_time(lambda: dst.copy_(x), sync, reps))
    rec.run(P, "elementwise", lambda: median_time(lambda: x * 2 + y, sync, reps))
    rec.run(P, "sum", lambda: median_time(lambda: x.sum(), sync, reps))
    run_sums(rec, P, x, sync, reps, lambda v: lambda: v.sum(dim=1), lambda v: lambda: v.sum(dim=0))
    xc = x[:CHAIN].clone()
    rec.run(P, "chain5", lambda: median_time(lambda: ((((xc * 1.5) + 2) * xc) - 1) / 3, sync, reps))
    s = x[: SOFTMAX * SOFTMAX].view(SOFTMAX, SOFTMAX)
    rec.run(P, "softmax", lambda: median_time(lambda: torch.softmax(s, dim=1), sync, reps))
    a, b = x[: GEMM * GEMM].view(GEMM, GEMM), y[: GEMM * GEMM].view(GEMM, GEMM)
    rec.run(P, "sgemm", lambda: median_time(lambda: a @ b, sync, reps))
    small = torch.ones(LAUNCH, dtype=torch.float32, device=d)
    rec.run(P, "launch", lambda: median_time(lambda: small + 1, sync, max(reps, 1000)))
    # Eager PyTorch compiles nothing per expression: no cold figures.


RUNNERS = {"cupy": run_cupy, "numba": run_numba, "jax": run_jax, "torch": run_torch}


def run_peer_process(name, out, reps):
    """The body of a peer's own process: runs it and writes its results."""
    rec = Recorder()
    meta = {}
    try:
        RUNNERS[name](rec, reps)
    except Exception as e:
        meta["error"] = f"{type(e).__name__}: {e}"
        print(f"# {name} unavailable: {meta['error']}", file=sys.stderr)
        traceback.print_exc(limit=3, file=sys.stderr)
    meta["version"] = peer_version(name)
    with open(out, "w") as f:
        json.dump({"results": rec.results, "errors": rec.errors, "meta": meta}, f)


def peer_version(name):
    try:
        mod = __import__(name)
        return getattr(mod, "__version__", "?")
    except Exception as e:
        return f"not importable ({type(e).__name__})"


def run_peers(names, reps, budget):
    """Runs each peer in a process of its own within the time budget and
    returns {peer|work: seconds}, {peer|work: error}, {module: meta}."""
    results, errors, meta = {}, {}, {}
    deadline = time.monotonic() + budget
    for i, name in enumerate(names):
        left = deadline - time.monotonic()
        limit = left / max(1, len(names) - i) if i < len(names) - 1 else left
        limit = max(10.0, min(limit * 1.5, left))
        tmp = tempfile.mkdtemp(prefix=f"peer-{name}-")
        env = dict(os.environ)
        env.update({
            "CUDA_CACHE_DISABLE": "1",  # the driver's JIT cache: cold figures compile for real
            "CUPY_CACHE_DIR": os.path.join(tmp, "cupy"),
            "NUMBA_CACHE_DIR": os.path.join(tmp, "numba"),
            "TORCHINDUCTOR_CACHE_DIR": os.path.join(tmp, "inductor"),
            "XLA_PYTHON_CLIENT_PREALLOCATE": "false",
        })
        env.pop("JAX_COMPILATION_CACHE_DIR", None)
        out = os.path.join(tmp, "results.json")
        cmd = [sys.executable, os.path.abspath(__file__), "--peer", name, "--out", out, "--reps", str(reps)]
        start = time.monotonic()
        print(f"# {name}: running (limit {limit:.0f} s)", file=sys.stderr, flush=True)
        try:
            p = subprocess.run(cmd, env=env, timeout=limit)
            status = f"exit {p.returncode}"
        except subprocess.TimeoutExpired:
            status = f"killed after {limit:.0f} s"
        took = time.monotonic() - start
        print(f"# {name}: {status} after {took:.0f} s", file=sys.stderr, flush=True)
        try:
            with open(out) as f:
                got = json.load(f)
            results.update(got["results"])
            errors.update(got["errors"])
            meta[name] = dict(got["meta"], status=status, seconds=round(took))
        except (OSError, ValueError):
            meta[name] = {"status": status, "seconds": round(took), "error": "no results written"}
            for peer in MODULES[name]:
                errors[f"{peer}|*"] = status
        shutil.rmtree(tmp, ignore_errors=True)
    return results, errors, meta


# ---- the table ----

def parse_go(path):
    """Returns {workload: seconds per op} and {(workload, unit): value} of
    the extra metrics, from Go benchmark output."""
    times, extra = {}, {}
    pat = re.compile(r"^(BenchmarkGPU[\w/.-]*?)(?:-\d+)?\s+(\d+)\s+([\d.]+) ns/op(.*)$")
    with open(path) as f:
        for line in f:
            m = pat.match(line.strip())
            if not m or m.group(1) not in GO_NAMES:
                continue
            w = GO_NAMES[m.group(1)]
            times[w] = float(m.group(3)) * 1e-9
            for val, unit in re.findall(r"([\d.]+) ([\w/-]+)", m.group(4)):
                extra[(w, unit)] = float(val)
    return times, extra


def fmt_time(t):
    if t >= 1e-3:
        return f"{t * 1e3:.3f} ms"
    return f"{t * 1e6:.1f} us"


def cell(work, t, copy_t):
    """A figure with its rate; bandwidth workloads also as a share of the
    copy bandwidth measured in the same process (copy_t)."""
    if t is None:
        return "n/a"
    if work in BYTES:
        gbs = BYTES[work] / t / 1e9
        s = f"{fmt_time(t)}, {gbs:.0f} GB/s"
        if work != "copy" and copy_t:
            s += f", {gbs / (BYTES['copy'] / copy_t / 1e9) * 100:.0f}% of copy"
        return s
    if work in FLOPS:
        return f"{fmt_time(t)}, {FLOPS[work] / t / 1e12:.1f} TFLOP/s"
    return fmt_time(t)


def verdict(work, go, peers):
    """Says whether fuseflow meets the target of work in this run."""
    times, extra = go
    t = times.get(work)
    if t is None:
        return "no fuseflow figure"
    copy = times.get("copy")

    def share(w):
        return (BYTES[w] / t) / (BYTES["copy"] / copy)

    def meets(ok):
        return "meets" if ok else "MISSES"

    if work in ("explicit saxpy", "explicit tiled matmul"):
        pt = peers.get(f"Numba|{work}")
        parts, ok = [], True
        if work == "explicit saxpy" and copy:
            ok = share(work) >= 0.9
            parts.append(f"{share(work) * 100:.0f}% of copy")
        if pt:
            ok = ok and pt / t >= 1.0
            parts.append(f"{pt / t:.2f}x Numba")
        return f"{meets(ok)}: {', '.join(parts)}" if parts else "no peer figures"
    if work == "lazy matmul 2048":
        pt = times.get("explicit tiled matmul")
        return f"{pt / t:.2f}x the explicit tiled kernel" if pt else ""
    if work in ("elementwise", "sum", "lazy saxpy") and copy:
        return f"{meets(share(work) >= 0.9)}: {share(work) * 100:.0f}% of copy"
    if work.startswith(("rowsum", "colsum")) and copy:
        return f"{meets(share(work) >= 0.7)}: {share(work) * 100:.0f}% of copy"
    if work == "chain5":
        parts, ok = [], True
        for peer, need in (("CuPy", 3.0), ("cupy.fuse", 1.0), ("JAX", 1.0)):
            pt = peers.get(f"{peer}|chain5")
            if pt:
                r = pt / t
                ok = ok and r >= need
                parts.append(f"{r:.2f}x {peer}")
        return f"{meets(ok)}: {', '.join(parts)}" if parts else "no peer figures"
    if work == "sgemm":
        pt = peers.get("CuPy|sgemm")
        return f"{meets(pt / t >= 0.7)}: {pt / t * 100:.0f}% of CuPy" if pt else "no CuPy figure"
    if work in ("launch", "explicit launch"):
        raw = times.get("rawlaunch")
        if raw is None:
            return "no bare launch figure"
        over = (t - raw) * 1e6
        s = f"{meets(over <= 2)}: {over:+.1f} us over bare {raw * 1e6:.1f} us"
        if "rawlaunch binding" in times:
            s += f" (binding {times['rawlaunch binding'] * 1e6:.1f} us)"
        return s
    if work.startswith("cold "):
        gen, jit = extra.get((work, "gen-us/op")), extra.get((work, "jit-us/op"))
        if gen is None or jit is None:
            return "no codegen figure"
        return f"{meets(gen <= 1000)}: codegen {gen / 1e3:.2f} ms, driver JIT {jit / 1e3:.1f} ms"
    return ""


def device_line():
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,memory.total", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=30).stdout.strip()
        return out.splitlines()[0] if out else "unknown device"
    except (OSError, subprocess.SubprocessError):
        return "unknown device (no nvidia-smi)"


def print_table(go, results, errors, meta):
    print(f"device: {device_line()}; {time.strftime('%Y-%m-%d')}")
    for name, m in sorted(meta.items()):
        print(f"peer {name}: {m.get('version', '?')} ({m.get('status', '?')}, {m.get('seconds', '?')} s)"
              + (f"; {m['error']}" if m.get("error") else ""))
    print()
    header = ["workload", "fuseflow"] + PEERS + ["target", "fuseflow vs target"]
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" for _ in header) + "|")
    times, _ = go
    for work, _, _, target in WORKLOADS:
        row = [work, cell(work, times.get(work), times.get("copy"))]
        for peer in PEERS:
            key = f"{peer}|{work}"
            module = next(n for n, ps in MODULES.items() if peer in ps)
            if key in results:
                row.append(cell(work, results[key], results.get(f"{peer}|copy")))
            elif key in errors or f"{peer}|*" in errors or "error" in meta.get(module, {}):
                row.append("n/a")
            else:
                row.append("-")
        row += [target, verdict(work, go, results) if work != "copy" else ""]
        print("| " + " | ".join(row) + " |")
    print()
    print("A share of copy is of the copy bandwidth the same process measured; '-' is a workload the peer")
    print("does not run (no compiled code for a cold figure, no fused form), 'n/a' one that failed (see stderr).")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fuseflow", help="Go benchmark output of exec/cuda's BenchmarkGPU*")
    ap.add_argument("--peers", default="cupy,numba,jax,torch", help="comma-separated: cupy, numba, jax, torch, or none")
    ap.add_argument("--results", action="append", default=[],
                    help="JSON file of peer results, read and, the last one given, updated (repeat to join runs)")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--budget", type=float, default=480, help="seconds for all peers together")
    ap.add_argument("--table", action="store_true", help="run nothing; print the table from the files")
    ap.add_argument("--peer", help=argparse.SUPPRESS)
    ap.add_argument("--out", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.peer:
        run_peer_process(args.peer, args.out, args.reps)
        return 0

    saved = {"results": {}, "errors": {}, "meta": {}}
    for path in args.results:  # later files win
        if os.path.exists(path):
            with open(path) as f:
                got = json.load(f)
            for k in saved:
                saved[k].update(got.get(k, {}))
    names = [] if args.table or args.peers == "none" else [p for p in args.peers.split(",") if p]
    unknown = [p for p in names if p not in RUNNERS]
    if unknown:
        ap.error(f"unknown peers {unknown}: want some of {sorted(RUNNERS)}")
    if names:
        results, errors, meta = run_peers(names, args.reps, args.budget)
        for name in names:  # a peer run again replaces its earlier figures
            for peer in MODULES[name]:
                for d in (saved["results"], saved["errors"]):
                    for k in [k for k in d if k.startswith(peer + "|")]:
                        del d[k]
        saved["results"].update(results)
        saved["errors"].update(errors)
        saved["meta"].update(meta)
        if args.results:
            with open(args.results[-1], "w") as f:
                json.dump(saved, f, indent=1, sort_keys=True)
    go = parse_go(args.fuseflow) if args.fuseflow else ({}, {})
    print_table(go, saved["results"], saved["errors"], saved["meta"])
    failed = sorted(saved["errors"])
    if failed:
        print(f"\n{len(failed)} peer figure(s) failed: " + "; ".join(f"{k}: {saved['errors'][k]}" for k in failed))
    # This run fails when a peer it ran failed, or one of that peer's figures.
    ran = [peer for n in names for peer in MODULES[n]]
    bad = any("error" in saved["meta"].get(n, {}) for n in names) or any(k.split("|")[0] in ran for k in failed)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
