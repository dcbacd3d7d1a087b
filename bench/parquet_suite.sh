#!/bin/sh
# Rows per second of one fused aggregate over a Parquet file,
# sum(price*qty*(1-discount)) over a trades file (internal/trades), and of
# a grouped one, sum(price*qty) per sym, by
# fuseflow (table's BenchmarkParquetAggregate), NumPy reading with pyarrow
# (bench/parquet_peers.py) and DuckDB and Polars through their Node
# packages (bench/parquet_peers.cjs, installed here with npm into
# $BENCH_DIR/node). Every peer reads the same file and prints the same
# sum. A peer that cannot run says why and is left out of the table.
#
#   sh bench/parquet_suite.sh            # ROWS=10000000 BENCH_DIR=/tmp/fuseflow-parquet-bench
set -u
ROWS=${ROWS:-10000000}
DIR=${BENCH_DIR:-/tmp/fuseflow-parquet-bench}
FILE=$DIR/trades-$ROWS.parquet
mkdir -p "$DIR" || exit 1
out=$DIR/results.txt
: >"$out"

go run ./examples/pipeline -rows "$ROWS" -file "$FILE" -reuse -write-only || exit 1

go test ./table -run '^$' -bench 'Parquet(Aggregate|GroupBy)/file' -benchtime 3x -args -parquet "$FILE" |
	awk '/rows\/s/ { for (i = 1; i <= NF; i++) if ($(i+1) == "rows/s") r = $i; else if ($(i+1) == "ns/op") ns = $i;
		name = ($1 ~ /GroupBy/) ? "fuseflow/groupby" : "fuseflow"; printf "peer %s %.4g %.1f -\n", name, r, ns / 1e6 }' | tee -a "$out"

/usr/bin/python3 bench/parquet_peers.py "$FILE" | tee -a "$out"

if command -v npm >/dev/null && command -v node >/dev/null; then
	if [ ! -d "$DIR/node/node_modules/@duckdb/node-api" ] || [ ! -d "$DIR/node/node_modules/nodejs-polars" ]; then
		mkdir -p "$DIR/node" && (cd "$DIR/node" && npm install --no-audit --no-fund --no-save \
			@duckdb/node-api nodejs-polars "nodejs-polars-$(node -p 'process.platform + "-" + process.arch')-gnu" >/dev/null)
	fi
	node bench/parquet_peers.cjs "$DIR/node" "$FILE" "$ROWS" | tee -a "$out"
else
	echo "node and npm are missing: DuckDB and Polars are left out" >&2
fi

table() { # the rows of $1 (a peer suffix: "" or "/groupby") beside fuseflow's
	awk -v sfx="$1" '{ n = split($2, p, "/"); g = (n > 1) ? "/" p[2] : "" }
		g == sfx { rows[++k] = $0; if (p[1] == "fuseflow") ff = $3 } END {
		printf "%-24s %14s %10s %16s\n", "peer", "rows/s", "ms", "fuseflow speedup"
		for (i = 1; i <= k; i++) { split(rows[i], f, " "); printf "%-24s %14s %10s %15.2fx\n", f[2], f[3], f[4], ff / f[3] } }' "$out"
}
echo
echo "sum(price*qty*(1-discount)) over $ROWS rows of $FILE"
table ""
echo
echo "sum(price*qty) per sym (100 keys)"
table "/groupby"
