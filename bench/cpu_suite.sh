#!/bin/sh
# The CPU benchmark suite beside its peers, for `make bench-cpu`: the
# workloads of bench/workloads.txt whose names match $BENCH (a regular
# expression; all when empty) of the list $LIST (bench/workloads.txt when
# unset; bench/probe writes others), in chunks of $CHUNK, each chunk run by
# exec/cpu's BenchmarkSuite and then by bench/cpu_peers.py (NumPy,
# NumExpr), so that both sides of a row are measured within seconds of
# each other on a machine whose load changes; the copy bandwidth before
# the first chunk and after the last. $BENCHTIME seconds per reading of a
# workload and library, $ROUNDS readings of each (in rounds over the
# chunk, so that a passing disturbance spoils one reading of a row and
# not all; bench/cpujoin takes the median). Writes the benchmark lines
# for bench/cpujoin on standard output.
set -eu
GO=${GO:-go}
BENCH=${BENCH:-}
BENCHTIME=${BENCHTIME:-0.1}
ROUNDS=${ROUNDS:-3}
CHUNK=${CHUNK:-8}
root=$(cd "$(dirname "$0")/.." && pwd)
LIST=$(cd "$(dirname "${LIST:-$root/bench/workloads.txt}")" && pwd)/$(basename "${LIST:-workloads.txt}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$root"
$GO test -c -o "$tmp/cpu.test" ./exec/cpu
/usr/bin/python3 bench/cpu_peers.py --list "$LIST" --names --filter "$BENCH" > "$tmp/names"
[ -s "$tmp/names" ] || { echo "cpu_suite.sh: no workload matches BENCH=$BENCH" >&2; exit 1; }

copybw() {
	(cd exec/cpu && "$tmp/cpu.test" -test.run '^$' -test.bench '^BenchmarkSuiteCopyBandwidth$' -test.benchtime "${BENCHTIME}s")
}

chunk() {
	re="^($(sed 's/\./\\./g' "$tmp/chunk" | paste -sd'|'))\$"
	(cd exec/cpu && "$tmp/cpu.test" -test.run '^$' -test.bench '^BenchmarkSuite$' -test.benchtime "${BENCHTIME}s" -suite "$re" -suite.list "$LIST" -suite.rounds "$ROUNDS")
	/usr/bin/python3 bench/cpu_peers.py --list "$LIST" --filter "$re" --min-time "$BENCHTIME" --rounds "$ROUNDS"
	: > "$tmp/chunk"
}

copybw
: > "$tmp/chunk"
while read -r name; do
	echo "$name" >> "$tmp/chunk"
	if [ "$(wc -l < "$tmp/chunk")" -ge "$CHUNK" ]; then
		chunk
	fi
done < "$tmp/names"
if [ -s "$tmp/chunk" ]; then
	chunk
fi
copybw
