// DuckDB and Polars peers of table's BenchmarkParquetAggregate, through
// their Node packages (@duckdb/node-api, nodejs-polars), which
// bench/parquet_suite.sh installs with npm into a folder of its own:
// each reads the same trades Parquet file and computes
// sum(price*qty*(1-discount)) (SQL and Polars skip the null discounts, as
// fuseflow does), then sum(price*qty) per sym (the result printed is sym
// 7's). Prints `peer <name> <rows/s> <ms> <result>`, the median
// of five runs after a warm-up.
//
//   node bench/parquet_peers.cjs NODE_DIR FILE ROWS
const { createRequire } = require("module");
const path = require("path");

const [nodeDir, file, rowsArg] = process.argv.slice(2);
const rows = Number(rowsArg);
const req = createRequire(path.join(path.resolve(nodeDir), "package.json"));

async function median(run) {
  await run();
  const ts = [];
  let result;
  for (let i = 0; i < 5; i++) {
    const t0 = process.hrtime.bigint();
    result = await run();
    ts.push(Number(process.hrtime.bigint() - t0) / 1e9);
  }
  ts.sort((a, b) => a - b);
  return [ts[2], result];
}

function report(name, [secs, result]) {
  console.log(`peer ${name} ${(rows / secs).toPrecision(4)} ${(secs * 1e3).toFixed(1)} ${Number(result).toPrecision(6)}`);
}

async function duckdb() {
  const { DuckDBInstance } = req("@duckdb/node-api");
  const db = await DuckDBInstance.create(":memory:");
  const conn = await db.connect();
  const sql = `SELECT sum(price*qty*(1-discount)) FROM read_parquet('${file.replace(/'/g, "''")}')`;
  report("duckdb", await median(async () => (await conn.runAndReadAll(sql)).getRows()[0][0]));
  const gsql = `SELECT sum(price*qty) FROM read_parquet('${file.replace(/'/g, "''")}') GROUP BY sym ORDER BY sym`;
  report("duckdb/groupby", await median(async () => (await conn.runAndReadAll(gsql)).getRows()[7][0]));
}

async function polars() {
  const pl = req("nodejs-polars");
  const run = async () => {
    const df = await pl
      .scanParquet(file)
      .select(pl.col("price").mul(pl.col("qty")).mul(pl.lit(1).sub(pl.col("discount"))).sum().alias("s"))
      .collect();
    return df.getColumn("s").get(0);
  };
  report("polars", await median(run));
  const grouped = async () => {
    const df = await pl
      .scanParquet(file)
      .groupBy("sym")
      .agg(pl.col("price").mul(pl.col("qty")).sum().alias("s"))
      .sort("sym")
      .collect();
    return df.getColumn("s").get(7);
  };
  report("polars/groupby", await median(grouped));
}

(async () => {
  let failed = false;
  for (const [name, f] of [["duckdb", duckdb], ["polars", polars]]) {
    try {
      await f();
    } catch (e) {
      console.error(`${name}: ${e.message}`);
      failed = true;
    }
  }
  process.exit(failed ? 1 : 0);
})();
