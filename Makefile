# fuseflow's developer commands. `make test` is what CI runs.

GO ?= go
# Tests assemble generated PTX with ptxas when it is available; CI sets
# FUSEFLOW_REQUIRE_PTXAS=1 so that a missing ptxas fails instead of skipping.
PTXAS_FETCH = scripts/fetch-ptxas.sh

.PHONY: all build test vet race ptxas bench-cpu bench-gpu clean

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

race:
	$(GO) test -race ./...

test: build vet ptxas race

clean:
	$(GO) clean -testcache
