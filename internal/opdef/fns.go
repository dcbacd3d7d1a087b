// Constructors of Fns for the usual sets of dtypes, and the scalar
// functions that are table glue rather than math.

package opdef

// nums returns Fns for the integer and float dtypes.
func nums(i32, i64, f32, f64 any) Fns { return Fns{Int32: i32, Int64: i64, Float32: f32, Float64: f64} }

// ints returns Fns for the integer dtypes.
func ints(i32, i64 any) Fns { return Fns{Int32: i32, Int64: i64} }

// floats returns Fns for the float dtypes.
func floats(f32, f64 any) Fns { return Fns{Float32: f32, Float64: f64} }

// all returns Fns for every dtype.
func all(b, i32, i64, f32, f64 any) Fns {
	return Fns{Bool: b, Int32: i32, Int64: i64, Float32: f32, Float64: f64}
}

// wide returns Fns computing f in float64 for both float dtypes.
func wide(f func(float64) float64) Fns { return floats(Wide(f), f) }

// wide2 is wide for binary ops.
func wide2(f func(a, b float64) float64) Fns { return floats(Wide2(f), f) }

// ident returns x: the rounding ops on integers.
func ident[T any](x T) T { return x }

// never is false: IsNaN and IsInf of integers and bools.
func never[T any](T) bool { return false }

// notBool is logical not.
func notBool(x bool) bool { return !x }
