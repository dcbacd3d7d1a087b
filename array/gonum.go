// gonum interop: float64 matrices to and from gonum's mat.Dense.

package array

import (
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/fuseflow/fuseflow/graph"
)

// FromDense returns a float64 (rows, cols) array holding a copy of m's
// elements (in a buffer from c's allocator, held until Release). A nil m
// gives an Array carrying an error.
func FromDense(c *Context, m *mat.Dense) *Array {
	if err := checkContext(c); err != nil {
		return errArray(c, graph.OpInput, fmt.Errorf("FromDense: %w", err))
	}
	if m == nil {
		return errArray(c, graph.OpInput, errors.New("FromDense: nil *mat.Dense"))
	}
	r, k := m.Dims()
	raw := m.RawMatrix()
	data := make([]float64, 0, r*k)
	for i := range r {
		data = append(data, raw.Data[i*raw.Stride:i*raw.Stride+k]...)
	}
	return FromSlice(c, data, r, k)
}

// ToDense evaluates a, which must be 2-d with no zero extent (gonum has no
// empty matrices), and returns its elements converted to float64 in a new
// mat.Dense the caller owns. The result stays on a.
func ToDense(a *Array) (*mat.Dense, error) {
	if err := evalErr(a); err != nil {
		return nil, fmt.Errorf("ToDense: %w", err)
	}
	s := a.node.Shape()
	if s.Rank() != 2 || s[0] == 0 || s[1] == 0 {
		return nil, fmt.Errorf("ToDense: array of shape %v %v is not a non-empty matrix", s, a.DType())
	}
	t, err := a.tensor("ToDense")
	if err != nil {
		return nil, err
	}
	defer t.Release()
	data := make([]float64, 0, s.Size())
	eachOffset(t, func(off int) {
		f, _, _ := scalarAt(t, off)
		data = append(data, f)
	})
	return mat.NewDense(s[0], s[1], data), nil
}
