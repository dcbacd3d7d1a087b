// The public API: Mul and MulBatch compute C = A·B (or C += A·B) for
// float32 and float64 matrices stored as BLAS stores them, with an
// optional epilogue run on each finished tile of C.

package gemm

// Float is the element type of a product.
type Float interface{ float32 | float64 }

// Matrix is an operand of a product, stored as BLAS stores it: row-major
// with row stride Stride, or, with Trans, column-major with column
// stride Stride (the transpose of a row-major matrix). Element (i, j) of
// the logical matrix is Data[i*Stride+j], or Data[j*Stride+i] with
// Trans. Stride is at least 1 and, unless a single row is stored, at
// least the length of the stored rows (the logical column count, or the
// row count with Trans).
type Matrix[T Float] struct {
	Data   []T
	Stride int
	Trans  bool
}

// Tile is a finished rectangle of C handed to an epilogue: rows
// [Row, Row+Rows) and columns [Col, Col+Cols) of batch point Batch, with
// element (r, c) of the tile (C's element (Row+r, Col+c)) at
// Data[r*Stride+c]. The epilogue may read and overwrite these elements
// and nothing else of C.
type Tile[T Float] struct {
	// Worker is the worker running the epilogue, in [0, Options.Workers):
	// epilogues running at the same time have distinct workers, so an
	// epilogue may keep scratch space per worker.
	Worker     int
	Batch      int
	Row, Col   int
	Rows, Cols int
	Data       []T
	Stride     int
}

// Batch lays out the matrices of a batched product: batch point i
// multiplies the matrices at element offset OffA(i) of A.Data and OffB(i)
// of B.Data into the one at OffC(i) of C, where OffX(i) is i*StrideX, or
// the value Offsets returns when it is set. A stride of 0 (or equal
// offsets) broadcasts a matrix of A or B to several points; the matrices
// of C of distinct points must not overlap.
type Batch struct {
	Count                     int
	StrideA, StrideB, StrideC int
	// Offsets, when not nil, returns the offsets of point i instead of
	// the strides. It must be a pure function: it is called more than
	// once per point, from several goroutines at a time.
	Offsets func(i int) (offA, offB, offC int)
}

// Runner runs fn(worker, task) once for every task in [0, tasks) on up
// to the workers it was given, worker being in [0, Options.Workers) and
// distinct among calls that run at the same time, and returns when all
// have returned. An error (such as a cancellation) means some tasks may
// not have run; the product then stops and returns it.
type Runner func(tasks int, fn func(worker, task int)) error

// Options tunes a product. The zero value (or a nil *Options) computes
// C = A·B on runtime.GOMAXPROCS(0) goroutines with the fastest kernel the
// CPU supports.
type Options[T Float] struct {
	// Workers bounds the goroutines a product uses (0: GOMAXPROCS). Small
	// products use fewer; the result does not depend on it.
	Workers int
	// Run, when set, runs the product's parallel tasks instead of
	// goroutines of its own (a caller's worker pool); Workers must then
	// be the number of workers it has.
	Run Runner
	// Accumulate adds the product to C instead of overwriting C.
	Accumulate bool
	// Epilogue, when set, is called once for each tile of a partition of
	// every point's C, as soon as the tile holds its final value (while
	// it is in cache), concurrently for distinct tiles. The shape of the
	// tiles is the product's choice: rows of a few micro-tiles, columns
	// of up to a few hundred.
	Epilogue func(Tile[T])
	// Portable selects the portable Go kernels even where assembly ones
	// run; FUSEFLOW_NOASM (any value but "" or "0") sets it for every
	// product.
	Portable bool

	kernel string // test hook: a kernel family by name ("" the default)
}

// Mul computes C = A·B (C += A·B with Accumulate) for an m×k matrix A, a
// k×n matrix B and an m×n row-major matrix C with row stride ldc, then
// runs the epilogue on C. Each element of C is a sum of products in
// increasing k, computed by one goroutine, so the result does not depend
// on the number of workers; NaN and infinities propagate as in the
// definition (every product is computed, 0·Inf and 0·NaN included). With
// k == 0 the product is zero. C must not overlap A or B.
//
// Mul returns an error naming the shapes when a dimension is negative, a
// stride is too small or a slice too short, or the error of Options.Run;
// it does not panic on bad input. It is safe for concurrent use with
// distinct C.
func Mul[T Float](m, n, k int, a, b Matrix[T], c []T, ldc int, o *Options[T]) error {
	return MulBatch(m, n, k, a, b, c, ldc, Batch{Count: 1}, o)
}

// MulBatch computes the products of a batch, each as Mul does, point i's
// matrices at the offsets bt gives; tiles handed to the epilogue carry
// the batch point. Points run in parallel when they are many and small,
// each on one worker, otherwise one after the other on all of them; the
// result is the same either way.
func MulBatch[T Float](m, n, k int, a, b Matrix[T], c []T, ldc int, bt Batch, o *Options[T]) error {
	var opt Options[T]
	if o != nil {
		opt = *o
	}
	if err := check(m, n, k, a, b, c, ldc, bt, &opt); err != nil {
		return err
	}
	if m == 0 || n == 0 || bt.Count == 0 {
		return nil
	}
	return newJob(m, n, k, a, b, c, ldc, bt, &opt).run()
}
