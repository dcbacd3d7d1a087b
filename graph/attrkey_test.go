// Tests of the attributes' canonical encoding: every field of Attr
// reaches it, and two Attrs encode alike exactly when they are the same.

package graph

import (
	"bytes"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

// setOne sets field f to a value that is not zero, chosen by its type;
// false for a type the test does not know.
func setOne(f reflect.Value, r *rand.Rand) bool {
	switch f.Kind() {
	case reflect.Int, reflect.Int64:
		f.SetInt(int64(r.IntN(5) - 2))
	case reflect.Uint64:
		f.SetUint(uint64(r.IntN(3)))
	case reflect.Float64:
		f.SetFloat([]float64{0, math.Copysign(0, -1), 1, math.NaN(), math.Inf(1)}[r.IntN(5)])
	case reflect.Bool:
		f.SetBool(r.IntN(2) == 1)
	case reflect.String:
		f.SetString([]string{"", "x", "y"}[r.IntN(3)])
	case reflect.Slice:
		n := r.IntN(3)
		if r.IntN(4) == 0 {
			f.Set(reflect.Zero(f.Type())) // nil and empty are the same
			return true
		}
		s := reflect.MakeSlice(f.Type(), n, n)
		for i := range n {
			if !setOne(s.Index(i), r) {
				return false
			}
		}
		f.Set(s)
	case reflect.Struct:
		for i := range f.NumField() {
			if !setOne(f.Field(i), r) {
				return false
			}
		}
	case reflect.Uint8: // DType
		f.SetUint(uint64(r.IntN(3)))
	case reflect.Pointer: // *CallAttr: one of a few distinct calls, or nil
		if f.Type() != reflect.TypeFor[*CallAttr]() {
			return false
		}
		f.Set(reflect.ValueOf(testCalls[r.IntN(len(testCalls))]))
	default:
		return false
	}
	return true
}

// attrCallee is a kernel for the calls of testCalls.
type attrCallee struct{ name string }

func (c *attrCallee) Name() string { return c.name }

// testCalls are calls that differ from each other (so that two of them
// are the same exactly when they are the same pointer), and nil.
var testCalls = func() []*CallAttr {
	k1, k2 := &attrCallee{"K"}, &attrCallee{"K"}
	y := CallArg{Name: "y", Input: 0, Written: true}
	return []*CallAttr{nil,
		{Kernel: k1, Args: []CallArg{y}},
		{Kernel: k2, Args: []CallArg{y}},
		{Kernel: k1, Args: []CallArg{{Name: "a", Input: -1, Value: float32(1)}, y}},
		{Kernel: k1, Args: []CallArg{{Name: "a", Input: -1, Value: 1.0}, y}},
		{Kernel: k1, Args: []CallArg{y}, ForAll: true, Tasks: 3},
		{Kernel: k1, Args: []CallArg{y}, Grid: [3]int{2, 1, 1}, Block: [3]int{32, 1, 1}, SharedBytes: 8},
	}
}()

// same is the reference equality: field by field, floats by their bits,
// slices by their elements (nil and empty alike).
func same(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.Float64:
		return math.Float64bits(a.Float()) == math.Float64bits(b.Float())
	case reflect.Slice:
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !same(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := range a.NumField() {
			if !same(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	}
	return a.Equal(b)
}

// randomAttr sets a few random fields of an Attr.
func randomAttr(r *rand.Rand, t *testing.T) Attr {
	var a Attr
	v := reflect.ValueOf(&a).Elem()
	for range r.IntN(4) {
		f := v.Field(r.IntN(v.NumField()))
		if !setOne(f, r) {
			t.Fatalf("Attr field of type %v: teach setOne and appendKey about it", f.Type())
		}
	}
	return a
}

// Each field alone changes the encoding, and no two fields share one:
// a field appendKey leaves out, or a tag two fields share, fails here.
func TestAttrKeyCoversEveryField(t *testing.T) {
	typ := reflect.TypeOf(Attr{})
	keys := map[string]string{string((&Attr{}).appendKey(nil)): "zero Attr"}
	for i := range typ.NumField() {
		name := typ.Field(i).Name
		for seed := range uint64(40) {
			var a Attr
			f := reflect.ValueOf(&a).Elem().Field(i)
			if !setOne(f, rand.New(rand.NewPCG(seed, 1))) {
				t.Fatalf("field %s of type %v: teach setOne and appendKey about it", name, f.Type())
			}
			if f.IsZero() || (f.Kind() == reflect.Slice && f.Len() == 0) {
				continue
			}
			k := string(a.appendKey(nil))
			if other, dup := keys[k]; dup && other != name {
				t.Errorf("field %s set to %v encodes as %s does: %x", name, f, other, k)
			}
			keys[k] = name
		}
	}
}

// Two Attrs encode alike exactly when they are the same.
func TestAttrKeyIsEquality(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	equal := 0
	for range 20000 {
		a, b := randomAttr(r, t), randomAttr(r, t)
		if r.IntN(3) == 0 {
			b = a
		}
		want := same(reflect.ValueOf(a), reflect.ValueOf(b))
		got := bytes.Equal(a.appendKey(nil), b.appendKey(nil))
		if got != want {
			t.Fatalf("%+v and %+v: same encoding got:%v want:%v", a, b, got, want)
		}
		if want {
			equal++
		}
	}
	if equal < 1000 {
		t.Fatalf("only %d equal pairs drawn", equal)
	}
}

// Interning follows the encoding: nodes that differ only in an attribute
// are distinct, and rebuilding one finds it.
func TestInternByAttributes(t *testing.T) {
	x := Input(Float32, Shape{4, 6}, "x")
	tests := []struct {
		name string
		a, b func() *Node
		same bool
	}{
		{"-0 and +0 constants", func() *Node { return FloatConst(Float64, math.Copysign(0, -1)) }, func() *Node { return FloatConst(Float64, 0) }, false},
		{"NaN constants", func() *Node { return FloatConst(Float64, math.NaN()) }, func() *Node { return FloatConst(Float64, math.NaN()) }, true},
		{"iota starts", func() *Node { return Iota(Float32, 4, 0, 1, false, 0) }, func() *Node { return Iota(Float32, 4, 1, 1, false, 0) }, false},
		{"iota stop", func() *Node { return Iota(Float32, 4, 0, 1, true, 3) }, func() *Node { return Iota(Float32, 4, 0, 1, false, 0) }, false},
		{"seeds", func() *Node { return Random(OpRandU, Float32, Shape{3}, 1) }, func() *Node { return Random(OpRandU, Float32, Shape{3}, 2) }, false},
		{"keepdims", func() *Node { return Reduce(OpSum, x, []int{1}, true) }, func() *Node { return Reduce(OpSum, x, []int{1}, false) }, false},
		{"reductions", func() *Node { return Reduce(OpSum, x, []int{1}, false) }, func() *Node { return Reduce(OpSum, x, []int{1}, false) }, true},
		{"slices", func() *Node { return Slice(x, []Range{{Start: 1, Stop: 3, Step: 1}, All}) }, func() *Node { return Slice(x, []Range{{Start: 1, Stop: 4, Step: 1}, All}) }, false},
		{"eye offsets", func() *Node { return Eye(Float32, 3, 3, 0) }, func() *Node { return Eye(Float32, 3, 3, 1) }, false},
	}
	for _, tc := range tests {
		a, b := tc.a(), tc.b()
		if a.Err() != nil || b.Err() != nil {
			t.Fatalf("%s: %v %v", tc.name, a.Err(), b.Err())
		}
		if got := a == b; got != tc.same {
			t.Errorf("%s: same node got:%v want:%v", tc.name, got, tc.same)
		}
	}
}
