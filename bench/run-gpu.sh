#!/bin/sh
# The GPU suite and benchmarks on a machine with an NVIDIA GPU and python3
# with the peers (CuPy, Numba, JAX, PyTorch) but no Go: everything Go comes
# prebuilt in .gpu/ (make bench-gpu, on a machine with Go):
#   .gpu/cuda.test   the exec/cuda tests and benchmarks
#   .gpu/drv.test    the driver binding's tests (internal/cuda)
#   .gpu/fuseflow    the command line, for `fuseflow devices`
#   .gpu/numba       examples/numba: the Numba material's kernels in Go
#
# Run from the repository root, one or more steps per call:
#   sh bench/run-gpu.sh STEP...
#
# Each step ends in a few minutes (a call on the device machine is killed
# at 600 s), writes its log to $OUT/STEP.log (OUT defaults to .gpu/out)
# and prints a summary: the failing tests and the exit status. A step
# fails with the status of what it ran, never of tee; the script exits with
# the first failing step's status after running them all.
#
#   info          nvidia-smi, fuseflow devices, versions of the tools   (seconds)
#   smoke         the driver binding on the GPU; concurrency, out of
#                 memory and a failing launch through the executor      (~1 min)
#   kernels       explicit Go kernels through the GPU kernel device,
#                 bit for bit against the CPU; a failing bounds check;
#                 the examples of examples/numba on the GPU            (~1 min)
#   reductions    every reduction op, dtype and strategy; GEMM shapes   (~1-2 min)
#   differential  1000 random graphs against the reference and the CPU  (~2-4 min)
#   scaled        the scaled tier: graphs with extents up to 64, fixed
#                 shapes of 2^20 to 2^25 elements, fast math            (~3-5 min)
#   bench         Go benchmarks: warm for BENCHTIME (1s) each, cold
#                 first calls 20 times each -> go-bench.txt and
#                 fuseflow-table.md                                     (~2 min)
#   peers [LIST]  the Python peers (LIST: cupy,numba,jax,torch; default
#                 all), each in its own process within PEER_BUDGET
#                 seconds (420) -> peers.json and gpu-table.md beside
#                 go-bench.txt when bench ran in the same call          (~3-7 min)
#   sanitize      compute-sanitizer memcheck and racecheck over every
#                 kernel kind at small sizes, when installed            (~2-5 min)
#
# FUSEFLOW_DEVICE defaults to cuda (device 0). STEP_TIMEOUT (560) bounds
# each step's wall time; the Go tests get -test.timeout a little below it
# so that a hang prints every goroutine's stack before the kill.
set -u
cd "$(dirname "$0")/.." || exit 2
root=$(pwd)
gpu="$root/.gpu"
out=${OUT:-$gpu/out}
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
export FUSEFLOW_DEVICE="${FUSEFLOW_DEVICE:-cuda}"
step_timeout=${STEP_TIMEOUT:-560}
go_timeout="$((step_timeout - 20))s"

# limit runs a command under the step's time limit when timeout(1) exists.
limit() {
	if command -v timeout >/dev/null 2>&1; then
		timeout -k 10 "$step_timeout" "$@"
	else
		"$@"
	fi
}

# need fails when a prebuilt binary is missing.
need() {
	if [ ! -x "$gpu/$1" ]; then
		echo "run-gpu.sh: $gpu/$1 is missing: run make bench-gpu on a machine with Go and carry .gpu along" >&2
		return 2
	fi
}

# run NAME DIR CMD... runs CMD in DIR, its output to the terminal and to
# $out/NAME.log, and returns CMD's exit status (124 when timed out), which
# a file carries out of the pipeline into tee.
run() {
	run_name=$1 run_dir=$2
	shift 2
	run_log="$out/$run_name.log"
	run_status="$out/.$run_name.status"
	echo "== $run_name: $* (in .${run_dir#"$root"})"
	run_start=$(date +%s)
	rm -f "$run_status"
	(
		cd "$run_dir" && limit "$@"
		echo $? >"$run_status"
	) 2>&1 | tee "$run_log"
	run_rc=$(cat "$run_status" 2>/dev/null || echo 125)
	rm -f "$run_status"
	summarize "$run_name" "$run_log" "$run_rc" "$(($(date +%s) - run_start))"
	return "$run_rc"
}

# keep records status $1 in rc unless rc already holds a failure.
keep() {
	[ "$rc" = 0 ] && rc=$1
	return 0
}

# summarize prints what failed in a log: failing tests, panics, faults
# that broke the device, timeouts.
summarize() {
	echo "== $1: exit status $3 after $4 s; log $2"
	if [ "$3" != 0 ]; then
		grep -E -e '^--- FAIL|^    --- FAIL|^FAIL|^panic:|^fatal error:|broke the device|is unusable|test timed out' "$2" | head -40
		[ "$3" = 124 ] && echo "== $1: killed by the ${step_timeout} s limit"
	fi
	return 0
}

# gotest NAME PKG PATTERN [ARGS...] runs the tests of a prebuilt test
# binary (PKG: cuda or drv) matching PATTERN, verbosely, from its package
# directory (where a test finds its testdata).
gotest() {
	name=$1 bin=$2 pattern=$3
	shift 3
	need "$bin.test" || return 2
	dir="$root/exec/cuda"
	[ "$bin" = drv ] && dir="$root/internal/cuda"
	run "$name" "$dir" "$gpu/$bin.test" -test.run "$pattern" -test.v -test.count 1 -test.timeout "$go_timeout" "$@"
}

step_info() {
	{
		echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
		if command -v nvidia-smi >/dev/null 2>&1; then
			nvidia-smi
			nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem,power.limit --format=csv
		else
			echo "nvidia-smi: not found"
		fi
		for tool in compute-sanitizer ncu nsys gcc ptxas; do
			printf '%s: %s\n' "$tool" "$(command -v "$tool" || echo 'not found')"
		done
		python3 - <<'EOF'
import importlib
for m in ("numpy", "cupy", "numba", "jax", "torch"):
    try:
        print(f"{m}: {importlib.import_module(m).__version__}")
    except Exception as e:
        print(f"{m}: not importable ({type(e).__name__}: {e})")
EOF
	} 2>&1 | tee "$out/info.log"
	need fuseflow || return 2
	run devices "$root" "$gpu/fuseflow" devices
}

step_smoke() {
	rc=0
	gotest smoke-driver drv 'GPU'
	keep $?
	gotest smoke cuda '^TestGPU(ConcurrentEval|OutOfMemory|LaunchFailure)$'
	keep $?
	return "$rc"
}

step_kernels() {
	rc=0
	gotest kernels cuda '^TestGPUExplicit(Kernels|Failure)$'
	keep $?
	need numba || return 2
	run numba-examples "$root" "$gpu/numba"
	keep $?
	return "$rc"
}

step_bench() {
	need cuda.test || return 2
	rc=0
	# CUDA_CACHE_DISABLE: the cold figures must include the driver's JIT.
	CUDA_CACHE_DISABLE=1 run bench-warm "$root/exec/cuda" "$gpu/cuda.test" -test.run '^$' \
		-test.bench '^BenchmarkGPU' -test.skip '^BenchmarkGPUCold' -test.benchtime "${BENCHTIME:-1s}" -test.timeout "$go_timeout"
	keep $?
	CUDA_CACHE_DISABLE=1 run bench-cold "$root/exec/cuda" "$gpu/cuda.test" -test.run '^$' \
		-test.bench '^BenchmarkGPUCold' -test.benchtime 20x -test.timeout "$go_timeout"
	keep $?
	cat "$out/bench-warm.log" "$out/bench-cold.log" >"$out/go-bench.txt"
	python3 bench/gpu_peers.py --table --fuseflow "$out/go-bench.txt" >"$out/fuseflow-table.md"
	keep $?
	cat "$out/fuseflow-table.md"
	return "$rc"
}

step_peers() {
	set -- --results "$out/peers.json"
	[ -f "$out/go-bench.txt" ] && set -- "$@" --fuseflow "$out/go-bench.txt"
	rc=0
	run peers "$root" python3 bench/gpu_peers.py --peers "${peer_list:-cupy,numba,jax,torch}" --budget "${PEER_BUDGET:-420}" "$@"
	keep $?
	python3 bench/gpu_peers.py --table "$@" >"$out/gpu-table.md"
	keep $?
	return "$rc"
}

step_sanitize() {
	if ! command -v compute-sanitizer >/dev/null 2>&1; then
		echo "== sanitize: SKIPPED: compute-sanitizer is not installed" | tee "$out/sanitize.log"
		return 0
	fi
	need cuda.test || return 2
	rc=0
	for tool in memcheck racecheck; do
		run "sanitize-$tool" "$root/exec/cuda" compute-sanitizer --tool "$tool" --error-exitcode 3 \
			"$gpu/cuda.test" -test.run '^TestGPUScaled$' -scaled.small -test.v -test.timeout "$go_timeout"
		keep $?
	done
	return "$rc"
}

usage() {
	sed -n '2,/^set -u/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
	exit 2
}

[ $# -gt 0 ] || usage
first=0
while [ $# -gt 0 ]; do
	step=$1
	shift
	case "$step" in
	info) step_info ;;
	smoke) step_smoke ;;
	kernels) step_kernels ;;
	reductions) gotest reductions cuda '^TestGPUReductionsAndMatMul$' ;;
	differential) gotest differential cuda '^TestGPUDifferential$' ;;
	scaled) gotest scaled cuda '^TestGPUScaled$' ;;
	bench) step_bench ;;
	peers)
		peer_list=""
		case "${1:-}" in
		*[a-z],* | cupy | numba | jax | torch)
			peer_list=$1
			shift
			;;
		esac
		step_peers
		;;
	sanitize) step_sanitize ;;
	*) echo "run-gpu.sh: unknown step $step" >&2 && usage ;;
	esac
	step_rc=$?
	[ "$step_rc" != 0 ] && [ "$first" = 0 ] && first=$step_rc
done
echo "== run-gpu.sh: exit status $first; logs in $out"
exit "$first"
