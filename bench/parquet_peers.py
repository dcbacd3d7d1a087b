#!/usr/bin/python3
"""NumPy peer of table's BenchmarkParquetAggregate: reads price, qty and
discount of a trades Parquet file with pyarrow and computes
sum(price*qty*(1-discount)) over the rows where discount is not null with
NumPy. Prints `peer numpy+pyarrow <rows/s> <ms> <result>`, the median of
several runs, each reading the file again.

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


def main():
    path = sys.argv[1]
    once(path)
    ts = []
    for _ in range(5):
        t0 = time.perf_counter()
        rows, total = once(path)
        ts.append(time.perf_counter() - t0)
    ts.sort()
    med = ts[len(ts) // 2]
    print(f"peer numpy+pyarrow {rows / med:.4g} {med * 1e3:.1f} {total:.6g}")


if __name__ == "__main__":
    main()
