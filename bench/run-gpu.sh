#!/bin/sh
# GPU benchmarks and tests on a machine with an NVIDIA GPU, python3 with
# cupy, numba and jax, and no Go: everything Go is in the prebuilt test
# binary .gpu/cuda.test (built elsewhere with
#   CGO_ENABLED=0 go test -c -o .gpu/cuda.test ./exec/cuda).
#
# Run from the repository root:
#   sh bench/run-gpu.sh          benchmarks: fuseflow and its peers, one table
#   sh bench/run-gpu.sh test     the GPU test suite (differential, pool,
#                                concurrency, out of memory, failing launch)
#
# Outputs go to $OUT when set (else .gpu/): go-bench.txt, gpu-table.md,
# gpu-tests.txt. FUSEFLOW_DEVICE defaults to cuda (device 0); BENCHTIME
# (default 1s) is passed to -test.benchtime.
set -eu
cd "$(dirname "$0")/.."
bin=${FUSEFLOW_GPU_TEST:-.gpu/cuda.test}
out=${OUT:-.gpu}
mkdir -p "$out"
export FUSEFLOW_DEVICE="${FUSEFLOW_DEVICE:-cuda}"
if [ ! -x "$bin" ]; then
	echo "run-gpu.sh: $bin is missing: build it with CGO_ENABLED=0 go test -c -o .gpu/cuda.test ./exec/cuda" >&2
	exit 2
fi
if command -v nvidia-smi >/dev/null 2>&1; then
	nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader || true
fi
case "${1:-bench}" in
test)
	"$bin" -test.run GPU -test.v -test.timeout 30m 2>&1 | tee "$out/gpu-tests.txt"
	;;
bench)
	"$bin" -test.run '^$' -test.bench '^BenchmarkGPU' -test.benchtime "${BENCHTIME:-1s}" -test.timeout 30m | tee "$out/go-bench.txt"
	python3 bench/gpu_peers.py --fuseflow "$out/go-bench.txt" | tee "$out/gpu-table.md"
	;;
*)
	echo "usage: sh bench/run-gpu.sh [bench|test]" >&2
	exit 2
	;;
esac
