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
# Go's fuzzing engine can end a run that found nothing with "context
# deadline exceeded" when the time runs out while a worker is still
# executing or minimizing an input (no failing input is written then).
# Such a run says nothing about the target, so it is run once more; a
# second one in a row fails like any other.
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

log=$(mktemp)
trap 'rm -f "$log"' EXIT

# fuzz runs one target, its output on stdout and in $log.
fuzz() {
	"$go" test -run '^$' -fuzz "^${2}\$" -fuzztime "$fuzztime" "$1/" 2>&1 | tee "$log"
	return "${PIPESTATUS[0]}"
}

# engineTimeout reports whether the run in $log failed only by the
# engine's deadline, with no failing input.
engineTimeout() {
	grep -q 'context deadline exceeded' "$log" && ! grep -q 'Failing input written' "$log"
}

failed=()
while read -r pkg name; do
	echo "== $name ($pkg, $fuzztime)"
	if ! fuzz "$pkg" "$name"; then
		if engineTimeout; then
			echo "== $name: the fuzzing engine's deadline ended the run with no failing input; once more"
			fuzz "$pkg" "$name" && continue
		fi
		failed+=("$name ($pkg)")
	fi
done <<<"$targets"

if [ ${#failed[@]} -gt 0 ]; then
	echo "fuzz.sh: failing targets: ${failed[*]}" >&2
	exit 1
fi
echo "fuzz.sh: every target ran $fuzztime without a failure"
