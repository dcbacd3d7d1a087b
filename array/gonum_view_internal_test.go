// Tests of the gonum views: arrays over a mat.Dense's or a
// blas32.General's backing slice (sub-matrices with a row stride
// included) share its memory on host backends and copy on device
// backends, and AsDense/AsGeneral hand out the result's own buffer.

package array

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/cpu"
	"github.com/fuseflow/fuseflow/graph"
)

// hostCopying is the cpu backend posing as a device backend (it
// implements exec.HostCopier), so that ViewDense takes the copying path.
type hostCopying struct{ exec.Backend }

func (hostCopying) ToHost(_ context.Context, t *exec.Tensor, _ memory.Allocator) (*exec.Tensor, error) {
	v := *t
	v.Buf.Retain()
	return &v, nil
}

func gonumContext(t *testing.T, be exec.Backend) *Context {
	t.Helper()
	alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
	c, err := NewContext(WithBackend(be), WithAllocator(alloc))
	require.NoError(t, err)
	t.Cleanup(func() { alloc.AssertSize(t, 0) })
	return c
}

func TestViewDenseSharesMemory(t *testing.T) {
	c := gonumContext(t, cpu.New(cpu.Options{}))
	big := mat.NewDense(3, 4, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
	sub := big.Slice(1, 3, 1, 3).(*mat.Dense) // rows 1-2, cols 1-2: row stride 4
	a := ViewDense(c, sub)
	defer a.Release()
	require.NoError(t, a.Err())
	require.Equal(t, Shape{2, 2}, a.Shape())
	require.Equal(t, []float64{6, 7, 10, 11}, MustToSlice[float64](a))

	// The input is big's memory: its first element is big's (1, 1).
	tn, err := a.tensor("test")
	require.NoError(t, err)
	require.Same(t, &big.RawMatrix().Data[5], &exec.Elems[float64](tn)[tn.Offset])
	require.Equal(t, []int{4, 1}, tn.Strides)
	tn.Release()
	// AsDense of the input hands back big's memory itself.
	d, release, err := AsDense(a)
	require.NoError(t, err)
	require.Same(t, &big.RawMatrix().Data[5], &d.RawMatrix().Data[0])
	require.Equal(t, 4, d.RawMatrix().Stride)
	require.True(t, mat.Equal(d, sub), "got:%v want:%v", mat.Formatted(d), mat.Formatted(sub))
	release()

	// Strided values through kernels: a @ a.T and a + 1.
	p := a.MatMul(a.Transpose())
	defer p.Release()
	pd, release, err := AsDense(p)
	require.NoError(t, err)
	want := mat.NewDense(2, 2, []float64{85, 137, 137, 221})
	require.True(t, mat.Equal(pd, want), "got:%v want:%v", mat.Formatted(pd), mat.Formatted(want))
	// The Dense is the result's buffer.
	pt, err := p.tensor("test")
	require.NoError(t, err)
	require.Same(t, &exec.Elems[float64](pt)[pt.Offset], &pd.RawMatrix().Data[0])
	pt.Release()
	release()

	// Writing big shows through the view (and only the view).
	big.Set(1, 1, 100)
	require.Equal(t, []float64{100, 7, 10, 11}, MustToSlice[float64](a))
	plus := a.Add(c.Scalar(1.0))
	defer plus.Release()
	require.Equal(t, []float64{101, 8, 11, 12}, MustToSlice[float64](plus))
}

func TestViewGeneral32Strided(t *testing.T) {
	c := gonumContext(t, cpu.New(cpu.Options{}))
	// A 3x2 float32 matrix in a slice with row stride 5, the last row
	// ending early (the data needs only (rows-1)*stride+cols elements).
	data := []float32{1, 2, -1, -1, -1, 3, 4, -1, -1, -1, 5, 6}
	g := blas32.General{Rows: 3, Cols: 2, Stride: 5, Data: data}
	a := ViewGeneral32(c, g)
	defer a.Release()
	require.NoError(t, a.Err())
	require.Equal(t, Float32, a.DType())
	require.Equal(t, []float32{1, 2, 3, 4, 5, 6}, MustToSlice[float32](a))
	s := a.Mul(c.Scalar(float32(2))).Sum(1) // row sums of 2a
	defer s.Release()
	require.Equal(t, []float32{6, 14, 22}, MustToSlice[float32](s))
	out, release, err := AsGeneral32(a)
	require.NoError(t, err)
	require.Same(t, &data[0], &out.Data[0])
	require.Equal(t, 5, out.Stride)
	release()

	// A column slice of a computed result keeps its row stride, no copy.
	m := a.Add(c.Scalar(float32(0)))
	defer m.Release()
	require.NoError(t, Eval(context.Background(), m))
	col := m.Slice(graph.All, Range{Start: 1, Stop: 2, Step: 1})
	defer col.Release()
	cg, release, err := AsGeneral32(col)
	require.NoError(t, err)
	require.Equal(t, blas32.General{Rows: 3, Cols: 1, Stride: 2, Data: cg.Data}, cg)
	mt, err := m.tensor("test")
	require.NoError(t, err)
	require.Same(t, &exec.Elems[float32](mt)[1], &cg.Data[0])
	mt.Release()
	require.Equal(t, []float32{2, 4, 6}, []float32{cg.Data[0], cg.Data[2], cg.Data[4]})
	release()

	// A transpose is copied, with the right values.
	tr := a.Transpose()
	defer tr.Release()
	tg, release, err := AsGeneral32(tr)
	require.NoError(t, err)
	require.Equal(t, blas32.General{Rows: 2, Cols: 3, Stride: 3, Data: []float32{1, 3, 5, 2, 4, 6}}, tg)
	release()
}

func TestViewDenseCopiesForDevices(t *testing.T) {
	c := gonumContext(t, hostCopying{cpu.New(cpu.Options{})})
	big := mat.NewDense(3, 4, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
	a := ViewDense(c, big.Slice(0, 3, 2, 4).(*mat.Dense))
	defer a.Release()
	require.Equal(t, []float64{3, 4, 7, 8, 11, 12}, MustToSlice[float64](a))
	big.Set(0, 2, -1) // a holds a copy
	require.Equal(t, []float64{3, 4, 7, 8, 11, 12}, MustToSlice[float64](a))
	g := ViewGeneral64(c, blas64.General{Rows: 2, Cols: 2, Stride: 3, Data: []float64{1, 2, 0, 3, 4}})
	defer g.Release()
	require.Equal(t, []float64{1, 2, 3, 4}, MustToSlice[float64](g))
}

func TestViewGonumErrors(t *testing.T) {
	c := gonumContext(t, cpu.New(cpu.Options{}))
	for _, tc := range []struct {
		a    *Array
		want string
	}{
		{ViewDense(c, nil), "ViewDense: nil *mat.Dense"},
		{ViewDense(c, &mat.Dense{}), "ViewDense: empty *mat.Dense"},
		{ViewGeneral64(c, blas64.General{Rows: 2, Cols: 3, Stride: 2, Data: make([]float64, 6)}), "ViewGeneral64: 2x3 matrix with row stride 2: the stride is below the columns"},
		{ViewGeneral32(c, blas32.General{Rows: 2, Cols: 3, Stride: 4, Data: make([]float32, 6)}), "ViewGeneral32: 2x3 matrix with row stride 4 needs 7 elements, the data has 6"},
		{ViewGeneral32(c, blas32.General{Rows: 0, Cols: 3, Stride: 4}), "ViewGeneral32: 0x3 matrix: want positive rows and columns"},
		{ViewDense(nil, mat.NewDense(1, 1, nil)), "ViewDense: nil *Context"},
	} {
		err := tc.a.Err()
		require.Error(t, err)
		require.Contains(t, err.Error(), tc.want)
	}
	i := c.Eye(Int32, 2, 2, 0)
	defer i.Release()
	_, _, err := AsDense(i)
	require.EqualError(t, err, "AsDense: array of shape (2, 2) int32 is not a non-empty float64 matrix")
	v := FromSlice(c, []float32{1, 2})
	defer v.Release()
	_, _, err = AsGeneral32(v)
	require.EqualError(t, err, "AsGeneral32: array of shape (2,) float32 is not a non-empty float32 matrix")
}
