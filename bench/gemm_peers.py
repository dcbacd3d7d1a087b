#!/usr/bin/python3
"""GEMM beside NumPy + OpenBLAS: the shapes of internal/gemm's benchmarks
(BenchmarkMul: square n×n·n×n products; BenchmarkMulBatch: batches of
small square products), float32 and float64, fixed seed.

Each side is timed the same way: several chunks of calls (about 50 ms of
work each), the time of a call being the best chunk's mean, so that a
machine shared with other work is measured when it is least disturbed.

Alone, it prints one line per workload, `peer <workload> numpy <ns/op>`.
Given the internal/gemm test binary (`go test -c -o gemm.test
./internal/gemm`) with --go, or exec/cpu's with --go and --exec (its
BenchmarkMatMul: the same products through the executor), it runs both
sides interleaved, workload by workload, for several rounds (each round
times NumPy and then Go back to back, so both see the same load) and
prints one table: each side's best time over the rounds in GFLOP/s, the
ratio of the best times, and the median and range of the per-round
ratios.

Needs Debian's python3-numpy and libopenblas0-pthread; run with
/usr/bin/python3:

    /usr/bin/python3 bench/gemm_peers.py --go ./gemm.test --rounds 5
"""
import argparse
import re
import statistics
import subprocess
import sys
import time

import numpy as np

SIZES = [64, 128, 256, 512, 1024, 2048]
BATCHES = [(4096, 8), (1024, 16), (256, 32), (64, 64), (16, 128), (8, 256)]
DTYPES = {"f32": np.float32, "f64": np.float64}
# exec/cpu's BenchmarkMatMul (through the executor): its batches.
EXEC_BATCHES = [(64, 64), (1024, 16)]


def workloads(only, executor=False):
    """(name, go benchmark, count, n, dtype) for each workload."""
    out = []
    for n in SIZES:
        for d in DTYPES:
            bench = f"BenchmarkMatMul/{d}/{n}" if executor else f"BenchmarkMul/{d}/{n}"
            out.append((f"{d}/{n}", bench, 1, n, d))
    for count, n in EXEC_BATCHES if executor else BATCHES:
        for d in DTYPES:
            bench = f"BenchmarkMatMul/{d}/{count}x{n}" if executor else f"BenchmarkMulBatch/{d}/{count}x{n}"
            out.append((f"{d}/{count}x{n}", bench, count, n, d))
    if only:
        rx = re.compile(only)
        out = [w for w in out if rx.search(w[0])]
    return out


CHUNKS = 5


def reps_for(count, n):
    """Calls per chunk: about 50 ms of work at 100 GFLOP/s, at least 2."""
    return max(2, int(0.05 * 100e9 / (2 * count * n ** 3)))


def numpy_time(count, n, dtype, reps):
    rng = np.random.default_rng(1)
    shape = (count, n, n) if count > 1 else (n, n)
    a = (rng.random(shape) * 2 - 1).astype(DTYPES[dtype])
    b = (rng.random(shape) * 2 - 1).astype(DTYPES[dtype])
    out = np.empty_like(a)
    np.matmul(a, b, out=out)
    best = float("inf")
    for _ in range(CHUNKS):
        t = time.perf_counter()
        for _ in range(reps):
            np.matmul(a, b, out=out)
        best = min(best, (time.perf_counter() - t) / reps)
    return best * 1e9


def go_time(binary, bench, reps):
    cmd = [binary, "-test.run", "^$", "-test.bench", "^" + bench + "$",
           "-test.benchtime", f"{reps}x", "-test.count", str(CHUNKS)]
    res = subprocess.run(cmd, capture_output=True, text=True, check=True)
    best = float("inf")
    for line in res.stdout.splitlines():
        f = line.split()
        if f and f[0].startswith(bench) and "ns/op" in f:
            best = min(best, float(f[f.index("ns/op") - 1]))
    if best == float("inf"):
        raise RuntimeError(f"no result for {bench}:\n{res.stdout}{res.stderr}")
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--go", help="internal/gemm test binary: run both sides interleaved")
    ap.add_argument("--exec", action="store_true",
                    help="--go is exec/cpu's test binary: time its BenchmarkMatMul (products through the executor)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--only", help="regular expression selecting workloads, such as 'f32/1024$'")
    args = ap.parse_args()
    work = workloads(args.only, args.exec)
    if not args.go:
        for name, _, count, n, d in work:
            print(f"peer {name} numpy {numpy_time(count, n, d, reps_for(count, n)):.0f}", flush=True)
        return
    print("| workload | Go GFLOP/s | NumPy GFLOP/s | Go/NumPy (best) | per round: median [min, max] |")
    print("|---|---|---|---|---|")
    worst = None
    for name, bench, count, n, d in work:
        reps = reps_for(count, n)
        flop = 2 * count * n ** 3
        gos, nps, ratios = [], [], []
        for _ in range(args.rounds):
            t_np = numpy_time(count, n, d, reps)
            t_go = go_time(args.go, bench, reps)
            nps.append(t_np)
            gos.append(t_go)
            ratios.append(t_np / t_go)
        best = min(nps) / min(gos)
        worst = best if worst is None else min(worst, best)
        print(f"| {name} | {flop / min(gos):.1f} | {flop / min(nps):.1f} | {best:.2f} | "
              f"{statistics.median(ratios):.2f} [{min(ratios):.2f}, {max(ratios):.2f}] |", flush=True)
    print(f"min Go/NumPy (best times): {worst:.2f}")


if __name__ == "__main__":
    sys.exit(main())
