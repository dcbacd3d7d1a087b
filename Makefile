# fuseflow's developer commands. `make test` is what CI runs.

GO ?= go
# Tests assemble generated PTX with ptxas when it is available; CI sets
# FUSEFLOW_REQUIRE_PTXAS=1 so that a missing ptxas fails instead of skipping.
PTXAS_FETCH = scripts/fetch-ptxas.sh

# Fuzzing: `make fuzz` runs every fuzz target of the module (found by
# scripts/fuzz.sh) for FUZZTIME each; `make test` runs a short pass of it.
FUZZTIME ?= 60s
SMOKE_FUZZTIME ?= 20s

.PHONY: all build test vet race ptxas gcc fuzz fuzz-smoke bench-cpu bench-probe bench-gemm bench-gpu generate clean

all: build test

build:
	CGO_ENABLED=0 $(GO) build ./...

vet:
	$(GO) vet ./...

ptxas:
	@if path=$$(bash $(PTXAS_FETCH)); then \
		echo "ptxas: $$path"; \
	elif [ "$$FUSEFLOW_REQUIRE_PTXAS" = 1 ]; then \
		echo "ptxas could not be fetched and FUSEFLOW_REQUIRE_PTXAS=1" >&2; exit 1; \
	else \
		echo "ptxas unavailable: PTX assembly tests will skip" >&2; \
	fi

# The CUDA suites run without a GPU against a fake driver built with gcc;
# they skip without it, except under FUSEFLOW_REQUIRE_GCC=1, which CI sets
# (.ci/run installs gcc first where it is missing and it runs as root).
gcc:
	@if command -v gcc >/dev/null 2>&1; then \
		echo "gcc: $$(command -v gcc)"; \
	elif [ "$$FUSEFLOW_REQUIRE_GCC" = 1 ]; then \
		echo "gcc is missing and FUSEFLOW_REQUIRE_GCC=1: the fake CUDA driver cannot be built" >&2; exit 1; \
	else \
		echo "gcc unavailable: the fake-driver suites will skip" >&2; \
	fi

race:
	$(GO) test -race ./...

# Regenerates the explicit kernels' files (kernelgen: name_kernels.go and
# a name_Kernel.ptx per kernel). The race tests include cmd/kernelgen's
# TestGeneratedFilesCurrent, which fails while a committed generated
# file, Go or PTX, differs from what this writes or is left over.
generate:
	$(GO) generate ./...

fuzz:
	FUZZTIME=$(FUZZTIME) GO=$(GO) bash scripts/fuzz.sh

fuzz-smoke:
	FUZZTIME=$(SMOKE_FUZZTIME) GO=$(GO) bash scripts/fuzz.sh

test: build vet ptxas gcc race fuzz-smoke

# The CPU benchmark suite (bench/workloads.txt) beside NumPy and NumExpr,
# printed as one table ending in "min speedup vs NumPy: X (workload),
# geomean: Y". BENCH=regex runs the workloads whose names match (e.g.
# BENCH='^(exp|log)\.'); BENCHTIME is the time spent per reading of a
# workload and library, ROUNDS the readings of each (the table shows
# their median); bench/cpu_suite.sh alternates the two sides chunk by
# chunk.
# The peers run on /usr/bin/python3 with Debian's python3-numpy,
# python3-numexpr and libopenblas0-pthread: when one is missing this
# prints the apt-get command that installs them and fails.
BENCH ?=
BENCHTIME ?= 0.1
ROUNDS ?= 3
bench-cpu:
	@[ -x /usr/bin/python3 ] || { printf '%s\n  %s\n' "bench-cpu needs /usr/bin/python3 with NumPy and NumExpr; install with:" \
		"sudo apt-get install -y python3-numpy python3-numexpr libopenblas0-pthread" >&2; exit 1; }
	@/usr/bin/python3 bench/cpu_peers.py --check-deps
	@uptime
	GO='$(GO)' BENCH='$(BENCH)' BENCHTIME='$(BENCHTIME)' ROUNDS='$(ROUNDS)' sh bench/cpu_suite.sh | $(GO) run ./bench/cpujoin
	@uptime

# The same beside NumPy on PROBE_N random workloads drawn from SEED by
# bench/probe (shapes, axes, layouts and fused trees the list above does
# not name; a new SEED, a new list), one reading of each row unless
# ROUNDS says more.
SEED ?= 1
PROBE_N ?= 100
bench-probe:
	@/usr/bin/python3 bench/cpu_peers.py --check-deps
	mkdir -p bin
	$(GO) run ./bench/probe -seed $(SEED) -n $(PROBE_N) > bin/probe-$(SEED).txt
	LIST=bin/probe-$(SEED).txt GO='$(GO)' BENCH='$(BENCH)' BENCHTIME='$(BENCHTIME)' ROUNDS='$(if $(filter command line,$(origin ROUNDS)),$(ROUNDS),1)' sh bench/cpu_suite.sh | $(GO) run ./bench/cpujoin -list bin/probe-$(SEED).txt

# internal/gemm, then MatMul through the CPU executor, beside NumPy +
# OpenBLAS (python3-numpy, libopenblas0-pthread), both sides timed
# interleaved, round by round; GEMM_ROUNDS rounds, GEMM_ONLY a regular
# expression of workloads.
GEMM_ROUNDS ?= 5
GEMM_ONLY ?= .
bench-gemm:
	mkdir -p bin
	$(GO) test -c -o bin/gemm.test ./internal/gemm
	$(GO) test -c -o bin/cpu.test ./exec/cpu
	/usr/bin/python3 bench/gemm_peers.py --go bin/gemm.test --rounds $(GEMM_ROUNDS) --only '$(GEMM_ONLY)'
	/usr/bin/python3 bench/gemm_peers.py --go bin/cpu.test --exec --rounds $(GEMM_ROUNDS) --only '$(GEMM_ONLY)'

# GPU work is carried to a machine with an NVIDIA GPU (and no Go) as
# prebuilt binaries in .gpu/: the exec/cuda and internal/cuda test
# binaries and the command line. There, from the repository root, one or
# more steps per call (each a few minutes; see README, "On a GPU"):
#   sh bench/run-gpu.sh info smoke kernels
#   sh bench/run-gpu.sh reductions | differential | scaled
#   sh bench/run-gpu.sh bench peers
bench-gpu:
	mkdir -p .gpu
	CGO_ENABLED=0 $(GO) test -c -o .gpu/cuda.test ./exec/cuda
	CGO_ENABLED=0 $(GO) test -c -o .gpu/drv.test ./internal/cuda
	CGO_ENABLED=0 $(GO) build -o .gpu/fuseflow ./cmd/fuseflow
	CGO_ENABLED=0 $(GO) build -o .gpu/numba ./examples/numba
	python3 -c 'import sys; compile(open(sys.argv[1]).read(), sys.argv[1], "exec")' bench/gpu_peers.py
	sh -n bench/run-gpu.sh

clean:
	$(GO) clean -testcache
