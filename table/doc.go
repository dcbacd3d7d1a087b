// Package table computes over columnar data: named columns with nulls
// from Arrow records, tables, Parquet files and Arrow IPC files and
// streams, through fuseflow's fused kernels, batch by batch within a
// memory budget.
//
// An Expr names columns and combines them (Col("price").Mul(Col("qty")));
// Parse reads the same from Go syntax ("sum(price*qty*(1-discount))").
// Elementwise ops propagate nulls as Arrow compute does: a row is null
// where any operand is. FillNull replaces nulls, IsNull tests for them,
// Where is Arrow's if_else. Aggregates (Sum, Mean, Min, Max, Count, Var)
// skip nulls: each batch reduces Where(valid, x, identity), a masked
// reduction that fuses with the expression it reads, and the batches'
// partial states are combined on the host.
//
// A Scan is a lazy view of a source (ScanParquet, ScanIPC, ScanFile,
// ScanRecords, Table.Scan) with an optional Filter. Running it
// (Aggregate, Each, Collect, WriteParquet, WriteIPC) plans the
// expressions once per batch shape (rows, and which columns have nulls in
// the batch) and then only binds each batch's buffers to that plan.
// Numeric columns reach the kernels without a copy; bool columns and
// validity bitmaps are unpacked into byte masks. Options.Budget bounds
// the bytes live at once, which sets the rows per batch whatever the
// file's size; Parquet sources read only the columns used.
//
// What fuseflow computes in today are bool, int32, int64, float32 and
// float64 columns; a column of another type is an error naming the column
// and its type.
//
// GroupBy(key) aggregates per value of an int32, int64 or string column
// (utf8, large_utf8, or a dictionary of them): the host gives each key a
// dense code, strings by value (batches with different dictionaries
// agree), and the result's key column is the keys (utf8 for strings). With at most BroadcastGroups groups each
// aggregate is one fused column reduction of the (rows, groups) broadcast
// Where(code == group && valid, x, identity), never stored, whose work
// grows with rows times groups; with more, the kernels compute the
// aggregates' row values and validity and the host adds them up by code
// in one pass (scatter reductions in the kernels would take that over).
package table
