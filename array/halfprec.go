// The 16-bit float dtypes at the API: their Go element types, conversion
// from and to []float32, and the Arrow extension type that carries
// bfloat16 (Arrow has float16 but no bfloat16).

package array

import (
	"fmt"
	"reflect"

	"github.com/apache/arrow-go/v18/arrow"
	arrowarray "github.com/apache/arrow-go/v18/arrow/array"

	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/half"
)

// F16 is the bit pattern of one float16 element (FromSlice and ToSlice
// take it); F16.Float32 returns its value.
type F16 = half.Float16

// BF16 is the bit pattern of one bfloat16 element; BF16.Float32 returns
// its value.
type BF16 = half.BFloat16

// FromFloat32s returns an array of dtype d (Float16, BFloat16, Float32
// or Float64) holding data rounded to d (to nearest, ties to even; values
// beyond d's range become infinities), laid out as FromSlice lays it out.
// Other dtypes give an Array carrying an error.
func FromFloat32s(c *Context, d DType, data []float32, shape ...int) *Array {
	switch d {
	case Float16:
		out := make([]F16, len(data))
		half.Float16s(out, data)
		return FromSlice(c, out, shape...)
	case BFloat16:
		out := make([]BF16, len(data))
		half.BFloat16s(out, data)
		return FromSlice(c, out, shape...)
	case Float32:
		return FromSlice(c, data, shape...)
	case Float64:
		out := make([]float64, len(data))
		for i, v := range data {
			out[i] = float64(v)
		}
		return FromSlice(c, out, shape...)
	}
	return errArray(c, graph.OpInput, fmt.Errorf("FromFloat32s: dtype %v is not a float dtype", d))
}

// ToFloat32s evaluates a, of dtype Float16, BFloat16 or Float32, and
// returns its elements as float32 (exactly) in row-major order. Other
// dtypes are an error (convert with AsType first).
func ToFloat32s(a *Array) ([]float32, error) {
	if err := evalErr(a); err != nil {
		return nil, fmt.Errorf("ToFloat32s: %w", err)
	}
	switch a.DType() {
	case Float16:
		return widenHalf[F16](a)
	case BFloat16:
		return widenHalf[BF16](a)
	case Float32:
		return ToSlice[float32](a)
	}
	return nil, fmt.Errorf("ToFloat32s: array is %v; want float16, bfloat16 or float32 (convert with AsType)", a.DType())
}

// widenHalf returns the elements of a, of the dtype of H, as float32.
func widenHalf[H interface {
	F16 | BF16
	Float32() float32
}](a *Array) ([]float32, error) {
	h, err := ToSlice[H](a)
	if err != nil {
		return nil, err
	}
	out := make([]float32, len(h))
	for i, v := range h {
		out[i] = v.Float32()
	}
	return out, nil
}

// bfloat16ExtName is the Arrow extension name of BFloat16Type.
const bfloat16ExtName = "fuseflow.bfloat16"

// BFloat16Type is the Arrow extension type fuseflow uses for bfloat16
// columns: uint16 storage holding the bit patterns, extension name
// "fuseflow.bfloat16", no metadata. ToArrow produces it and FromArrow
// accepts it, both zero-copy; it is registered with Arrow at init so IPC
// and Parquet readers rebuild it. A reader that does not know it sees the
// uint16 storage.
type BFloat16Type struct {
	arrow.ExtensionBase
}

// bfloat16Type is the one instance ToArrow uses.
var bfloat16Type = &BFloat16Type{ExtensionBase: arrow.ExtensionBase{Storage: arrow.PrimitiveTypes.Uint16}}

func init() {
	// A second registration (another copy of the package) is harmless.
	_ = arrow.RegisterExtensionType(bfloat16Type)
}

// ArrayType returns the Go type of arrays of t.
func (*BFloat16Type) ArrayType() reflect.Type { return reflect.TypeOf(BFloat16Array{}) }

// ExtensionName returns "fuseflow.bfloat16".
func (*BFloat16Type) ExtensionName() string { return bfloat16ExtName }

// Serialize returns the empty metadata.
func (*BFloat16Type) Serialize() string { return "" }

// Deserialize returns the type for uint16 storage, or an error.
func (*BFloat16Type) Deserialize(storage arrow.DataType, _ string) (arrow.ExtensionType, error) {
	if !arrow.TypeEqual(storage, arrow.PrimitiveTypes.Uint16) {
		return nil, fmt.Errorf("%s: storage is %v; want uint16", bfloat16ExtName, storage)
	}
	return bfloat16Type, nil
}

// ExtensionEquals reports whether o is also the bfloat16 type.
func (*BFloat16Type) ExtensionEquals(o arrow.ExtensionType) bool {
	return o.ExtensionName() == bfloat16ExtName
}

// String returns the extension's name.
func (*BFloat16Type) String() string { return "extension<" + bfloat16ExtName + ">" }

// BFloat16Array is an Arrow array of BFloat16Type.
type BFloat16Array struct {
	arrowarray.ExtensionArrayBase
}
