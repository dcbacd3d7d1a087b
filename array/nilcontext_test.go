// Tests of nil and zero-value Contexts: every exported method of Context
// (enumerated by reflection, so new methods are covered) and every
// function of the package that takes a *Context (found by parsing the
// package's source) gives a clear error instead of a panic.

package array_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	arrowarray "github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/fuseflow/fuseflow/array"
)

// badContexts are the Contexts no constructor returns.
var badContexts = []struct {
	name string
	c    *array.Context
}{
	{"nil", nil},
	{"zero", &array.Context{}},
}

// contextFuncs calls each exported function of the package that takes a
// *Context, by name; TestContextFuncsCovered checks that none is missing.
var contextFuncs = map[string]func(c *array.Context) *array.Array{
	"FromSlice": func(c *array.Context) *array.Array { return array.FromSlice(c, []float32{1, 2}) },
	"FromDense": func(c *array.Context) *array.Array { return array.FromDense(c, mat.NewDense(1, 2, []float64{1, 2})) },
	"ViewDense": func(c *array.Context) *array.Array { return array.ViewDense(c, mat.NewDense(1, 2, []float64{1, 2})) },
	"ViewGeneral64": func(c *array.Context) *array.Array {
		return array.ViewGeneral64(c, blas64.General{Rows: 1, Cols: 2, Stride: 2, Data: []float64{1, 2}})
	},
	"ViewGeneral32": func(c *array.Context) *array.Array {
		return array.ViewGeneral32(c, blas32.General{Rows: 1, Cols: 2, Stride: 2, Data: []float32{1, 2}})
	},
	"FromFloat32s": func(c *array.Context) *array.Array { return array.FromFloat32s(c, array.Float16, []float32{1, 2}) },
}

// fromSliceTypes instantiates the generic FromSlice with every Number.
var fromSliceTypes = []func(c *array.Context) *array.Array{
	func(c *array.Context) *array.Array { return array.FromSlice(c, []bool{true}) },
	func(c *array.Context) *array.Array { return array.FromSlice(c, []int{1}) },
	func(c *array.Context) *array.Array { return array.FromSlice(c, []int32{1}) },
	func(c *array.Context) *array.Array { return array.FromSlice(c, []int64{1}) },
	func(c *array.Context) *array.Array { return array.FromSlice(c, []float32{1}) },
	func(c *array.Context) *array.Array { return array.FromSlice(c, []float64{1}, 1) },
	func(c *array.Context) *array.Array { return array.FromSlice(c, []int8{1}) },
	func(c *array.Context) *array.Array { return array.FromSlice(c, []int16{1}) },
	func(c *array.Context) *array.Array { return array.FromSlice(c, []uint8{1}) },
	func(c *array.Context) *array.Array { return array.FromSlice(c, []uint16{1}) },
	func(c *array.Context) *array.Array { return array.FromSlice(c, []uint32{1}) },
	func(c *array.Context) *array.Array { return array.FromSlice(c, []uint64{1}) },
	func(c *array.Context) *array.Array { return array.FromSlice(c, []array.F16{0x3c00}) },
	func(c *array.Context) *array.Array { return array.FromSlice(c, []array.BF16{0x3f80}) },
}

// wantContextError checks that err is the clear error of a nil or zero
// Context.
func wantContextError(t *testing.T, what string, err error) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: got:nil error want:an error about the Context", what)
		return
	}
	msg := err.Error()
	if !strings.Contains(msg, "Context") || !strings.Contains(msg, "NewContext") {
		t.Errorf("%s: got:%q want:an error naming the Context and NewContext", what, msg)
	}
}

// checkBadArray checks that a carries the Context's error through every
// result accessor and through further ops, without panicking.
func checkBadArray(t *testing.T, what string, a *array.Array) {
	t.Helper()
	if a == nil {
		t.Errorf("%s: got:nil *Array want:an Array carrying an error", what)
		return
	}
	wantContextError(t, what+".Err()", a.Err())
	wantContextError(t, what+".Eval()", a.Eval())
	_, err := array.ToSlice[float64](a)
	wantContextError(t, what+" ToSlice", err)
	_, err = a.Value()
	wantContextError(t, what+".Value()", err)
	_, err = a.ToArrow()
	wantContextError(t, what+".ToArrow()", err)
	wantContextError(t, what+".Add(1).Sum()", a.Add(1).Sum().Err())
	if s := a.String(); !strings.Contains(s, "error:") {
		t.Errorf("%s.String() got:%q want:the error", what, s)
	}
	a.Release()
	a.Release()
}

// argFor returns a plausible argument of type typ for a Context method,
// so that only the Context can make the call fail.
func argFor(t *testing.T, typ reflect.Type) reflect.Value {
	switch typ {
	case reflect.TypeFor[array.DType]():
		return reflect.ValueOf(array.Float32)
	case reflect.TypeFor[[]int]():
		return reflect.ValueOf([]int{2, 3})
	case reflect.TypeFor[any]():
		return reflect.ValueOf(any(1.5))
	case reflect.TypeFor[arrow.Array]():
		b := arrowarray.NewFloat64Builder(memory.NewGoAllocator())
		defer b.Release()
		b.AppendValues([]float64{1, 2}, nil)
		a := b.NewArray()
		t.Cleanup(a.Release)
		return reflect.ValueOf(&a).Elem()
	}
	switch typ.Kind() {
	case reflect.Int:
		return reflect.ValueOf(2).Convert(typ)
	case reflect.Uint64:
		return reflect.ValueOf(uint64(7)).Convert(typ)
	case reflect.Float64:
		return reflect.ValueOf(1.0).Convert(typ)
	}
	return reflect.Zero(typ)
}

func TestBadContextMethods(t *testing.T) {
	ct := reflect.TypeFor[*array.Context]()
	require.Positive(t, ct.NumMethod())
	for _, bc := range badContexts {
		wantContextError(t, bc.name+" Err()", bc.c.Err())
		for i := range ct.NumMethod() {
			m := ct.Method(i)
			what := bc.name + " Context." + m.Name
			args := []reflect.Value{reflect.ValueOf(bc.c)}
			for j := 1; j < m.Type.NumIn(); j++ {
				args = append(args, argFor(t, m.Type.In(j)))
			}
			var out []reflect.Value
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%s panicked: %v", what, r)
					}
				}()
				if m.Type.IsVariadic() {
					out = m.Func.CallSlice(args)
				} else {
					out = m.Func.Call(args)
				}
			}()
			for _, v := range out {
				switch x := v.Interface().(type) {
				case *array.Array:
					checkBadArray(t, what, x)
				case error:
					wantContextError(t, what, x)
				}
			}
		}
		// What the accessors report for a Context that cannot evaluate.
		require.Empty(t, bc.c.Backend(), bc.name)
		require.Nil(t, bc.c.Allocator(), bc.name)
		require.Zero(t, bc.c.MemoryLimit(), bc.name)
		require.Zero(t, bc.c.Live(), bc.name)
	}
}

func TestBadContextFuncs(t *testing.T) {
	for _, bc := range badContexts {
		for name, f := range contextFuncs {
			what := bc.name + " " + name
			require.NotPanics(t, func() { checkBadArray(t, what, f(bc.c)) }, what)
		}
		for i, f := range fromSliceTypes {
			what := bc.name + " FromSlice"
			require.NotPanics(t, func() { checkBadArray(t, what, f(bc.c)) }, "%s #%d", what, i)
		}
	}
}

// Arrays of a bad Context combined with arrays of a good one carry an
// error too, and package-level functions over them do not panic.
func TestBadContextMixed(t *testing.T) {
	e := newEnv(t)
	good := e.floats([]float64{1, 2, 3})
	for _, bc := range badContexts {
		bad := bc.c.Ones(array.Float64, 3)
		for name, a := range map[string]*array.Array{
			"Add":    good.Add(bad),
			"MatMul": array.MatMul(good, bad),
			"Concat": array.Concat(0, good, bad),
			"Stack":  array.Stack(0, bad, good),
			"Where":  array.Where(bad.Gt(0), good, bad),
		} {
			checkBadArray(t, bc.name+" "+name, a)
		}
		wantContextError(t, bc.name+" Eval", array.Eval(t.Context(), good, bad))
	}
}

// TestContextFuncsCovered parses the package's source and fails when an
// exported function taking a *Context has no entry in contextFuncs.
func TestContextFuncsCovered(t *testing.T) {
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	fset := token.NewFileSet()
	var found []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		file, err := parser.ParseFile(fset, f, src, 0)
		require.NoError(t, err)
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || !fd.Name.IsExported() {
				continue
			}
			for _, p := range fd.Type.Params.List {
				if star, ok := p.Type.(*ast.StarExpr); ok {
					if id, ok := star.X.(*ast.Ident); ok && id.Name == "Context" {
						found = append(found, fd.Name.Name)
					}
				}
			}
		}
	}
	require.NotEmpty(t, found)
	for _, name := range found {
		if _, ok := contextFuncs[name]; !ok {
			t.Errorf("exported function %s takes a *Context but is not in contextFuncs", name)
		}
	}
	for name := range contextFuncs {
		require.True(t, slices.Contains(found, name), "contextFuncs has %s, which the package does not define", name)
	}
}
