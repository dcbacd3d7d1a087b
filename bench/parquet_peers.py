#!/usr/bin/python3
"""NumPy peer of table's BenchmarkParquetAggregate: reads price, qty and
discount of a trades Parquet file with pyarrow and computes
sum(price*qty*(1-discount)) over the rows where discount is not null with
NumPy; and the grouped workload, sum(price*qty) per sym with np.bincount.
Prints `peer numpy+pyarrow[/groupby] <rows/s> <ms> <result>` (the grouped
result is sym 7's sum), the median of several runs, each reading the file
again.

Needs NumPy and pyarrow; without pyarrow it prints the command that
installs it and exits 2.
"""
import sys
import time

import numpy as np

try:
    import pyarrow.parquet as pq
except ImportError:
    print(f"pyarrow is missing; install it with: {sys.executable} -m pip install pyarrow", file=sys.stderr)
    sys.exit(2)


def once(path):
    t = pq.read_table(path, columns=["price", "qty", "discount"])
    price = t.column("price").to_numpy()
    qty = t.column("qty").to_numpy()
    disc = t.column("discount").to_numpy(zero_copy_only=False)  # nulls become NaN
    return t.num_rows, float(np.nansum(price * qty * (1 - disc.astype(np.float64))))


def grouped(path):
    t = pq.read_table(path, columns=["sym", "price", "qty"])
    sym = t.column("sym").to_numpy()
    sums = np.bincount(sym, weights=t.column("price").to_numpy() * t.column("qty").to_numpy())
    return t.num_rows, float(sums[7])


def median(f, path):
    f(path)
    ts = []
    for _ in range(5):
        t0 = time.perf_counter()
        rows, total = f(path)
        ts.append(time.perf_counter() - t0)
    ts.sort()
    return rows, ts[len(ts) // 2], total


def main():
    path = sys.argv[1]
    for name, f in (("numpy+pyarrow", once), ("numpy+pyarrow/groupby", grouped)):
        rows, med, total = median(f, path)
        print(f"peer {name} {rows / med:.4g} {med * 1e3:.1f} {total:.6g}")


if __name__ == "__main__":
    main()
