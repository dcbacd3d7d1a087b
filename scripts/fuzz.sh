#!/usr/bin/env bash
# fuzz.sh: runs every fuzz target of the module for a fixed time each.
#
# The targets are found, not listed: every `func FuzzX` at the start of a
# line in a _test.go file. `go test -fuzz` takes one package and one target
# per run, so each runs on its own:
#
#   go test -run '^$' -fuzz '^FuzzX$' -fuzztime $FUZZTIME ./pkg/
#
# A failing target does not stop the others; the script reports every
# failure at the end and exits 1. go test writes each failing input under
# the package's testdata/fuzz/FuzzX/, where committing it makes it a
# regression test that plain `go test` runs.
#
# Environment:
#   FUZZTIME   time per target, a go test -fuzztime value (default 60s)
#   GO         the go command (default go)
set -euo pipefail
cd "$(dirname "$0")/.."

fuzztime=${FUZZTIME:-60s}
go=${GO:-go}

# "./array/fuzz_test.go:func FuzzArrayAPI(" -> "./array FuzzArrayAPI"
targets=$(grep -rHo --include='*_test.go' '^func Fuzz[A-Za-z0-9_]*(' . |
	sed -E 's|^(.*)/[^/]*_test\.go:func (Fuzz[A-Za-z0-9_]*)\($|\1 \2|' | sort)
if [ -z "$targets" ]; then
	echo "fuzz.sh: no fuzz targets found" >&2
	exit 1
fi

failed=()
while read -r pkg name; do
	echo "== $name ($pkg, $fuzztime)"
	if ! "$go" test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" "$pkg/"; then
		failed+=("$name ($pkg)")
	fi
done <<<"$targets"

if [ ${#failed[@]} -gt 0 ]; then
	echo "fuzz.sh: failing targets: ${failed[*]}" >&2
	exit 1
fi
echo "fuzz.sh: every target ran $fuzztime without a failure"
