// This file implements constant arrays: a package-level array of scalars
// initialized by a composite literal of constants and never written
// anywhere in the package becomes a constant array of the kernel (the
// const space, Numba's cuda.const.array_like). Anything else at package
// level is rejected.

package gokernel

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"path/filepath"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// constArray is the analysis of one package-level variable.
type constArray struct {
	elem ir.Type  // element type in memory
	bits []uint64 // element bit patterns
	why  string   // why it is not a constant array ("" when it is)
}

// constArrays analyses the package-level variables kernels use.
type constArrays struct {
	l      loaded
	ds     *diagSet
	byVar  map[*types.Var]*constArray
	writes map[*ssa.Global]ssa.Instruction // first use that may write, per global
}

func newConstArrays(l loaded, ds *diagSet) *constArrays {
	return &constArrays{l: l, ds: ds, byVar: map[*types.Var]*constArray{}}
}

// get returns the analysis of global g.
func (c *constArrays) get(g *ssa.Global) *constArray {
	v, _ := g.Object().(*types.Var)
	if v == nil {
		return &constArray{why: "package-level variable " + g.Name() + " is not supported in kernels"}
	}
	if a, ok := c.byVar[v]; ok {
		return a
	}
	a := c.analyse(g, v)
	c.byVar[v] = a
	return a
}

// analyse checks the type, the initializer and the uses of g.
func (c *constArrays) analyse(g *ssa.Global, v *types.Var) *constArray {
	name := g.Name()
	arr, ok := v.Type().Underlying().(*types.Array)
	if !ok {
		return &constArray{why: "package-level variable " + name + " is not supported in kernels; use a const, a package-level array of constants, or a parameter"}
	}
	elem, ok := memIR(arr.Elem())
	if !ok {
		return &constArray{why: "package-level array " + name + " has elements of type " + arr.Elem().String() + "; constant arrays hold bool, int, int32, int64, uint32, uint64, float32 or float64"}
	}
	if arr.Len() <= 0 {
		return &constArray{why: "package-level array " + name + " is empty"}
	}
	a := &constArray{elem: elem, bits: make([]uint64, arr.Len())}
	lit, why := c.initializer(v)
	if why != "" {
		a.why = "package-level array " + name + " " + why + "; a kernel reads package-level arrays initialized by a composite literal of constants only"
		return a
	}
	if lit != nil {
		if why := c.fill(a, lit, arr); why != "" {
			a.why = "package-level array " + name + ": " + why
			return a
		}
	}
	if w := c.firstWrite(g); w != nil {
		p := position(c.l.pkg.Fset, w.Pos())
		a.why = "package-level array " + name + " is written or its address escapes at " + filepath.Base(p.Filename) + ":" + itoa(p.Line) +
			"; a kernel reads only package-level arrays nothing writes (constant memory)"
	}
	return a
}

// initializer returns the composite literal initializing v, nil for a
// variable without initializer (all zeros), or why there is none.
func (c *constArrays) initializer(v *types.Var) (*ast.CompositeLit, string) {
	info := c.l.pkg.TypesInfo
	for _, f := range c.l.pkg.Syntax {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, s := range gd.Specs {
				vs, ok := s.(*ast.ValueSpec)
				if !ok {
					continue
				}
				for i, n := range vs.Names {
					if info.Defs[n] != v {
						continue
					}
					if len(vs.Values) == 0 {
						return nil, ""
					}
					if len(vs.Values) != len(vs.Names) {
						return nil, "is initialized by a call"
					}
					e := ast.Unparen(vs.Values[i])
					lit, ok := e.(*ast.CompositeLit)
					if !ok {
						return nil, "is not initialized by a composite literal"
					}
					return lit, ""
				}
			}
		}
	}
	return nil, "has no declaration in the package"
}

// fill evaluates the elements of lit into a.bits.
func (c *constArrays) fill(a *constArray, lit *ast.CompositeLit, arr *types.Array) string {
	info := c.l.pkg.TypesInfo
	idx := int64(0)
	for _, e := range lit.Elts {
		val := e
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			k := info.Types[kv.Key].Value
			if k == nil {
				return "an index of its literal is not a constant"
			}
			idx, _ = constant.Int64Val(constant.ToInt(k))
			val = kv.Value
		}
		cv := info.Types[val].Value
		if cv == nil {
			return "element " + itoa(int(idx)) + " of its literal is not a constant"
		}
		if idx < 0 || idx >= arr.Len() {
			return "an index of its literal is out of range"
		}
		a.bits[idx] = constBits(cv, arr.Elem())
		idx++
	}
	return ""
}

// constBits returns the bit pattern of constant v as a value of Go type t
// in memory.
func constBits(v constant.Value, t types.Type) uint64 {
	b := t.Underlying().(*types.Basic)
	switch {
	case b.Info()&types.IsBoolean != 0:
		if constant.BoolVal(v) {
			return 1
		}
		return 0
	case b.Kind() == types.Float32:
		f, _ := constant.Float32Val(constant.ToFloat(v))
		return uint64(math.Float32bits(f))
	case b.Info()&types.IsFloat != 0:
		f, _ := constant.Float64Val(constant.ToFloat(v))
		return math.Float64bits(f)
	case b.Info()&types.IsUnsigned != 0:
		u, _ := constant.Uint64Val(constant.ToInt(v))
		return u
	}
	i, _ := constant.Int64Val(constant.ToInt(v))
	return uint64(i)
}

// firstWrite returns the first instruction of the package, outside its
// synthesized initializer, that may write g: any use other than a load of
// the whole array or of an element (an element address used only by
// loads).
func (c *constArrays) firstWrite(g *ssa.Global) ssa.Instruction {
	if c.writes == nil {
		c.writes = map[*ssa.Global]ssa.Instruction{}
		c.scanWrites()
	}
	return c.writes[g]
}

// scanWrites records, for every global of the package, the first use
// that may write it.
func (c *constArrays) scanWrites() {
	for fn := range ssautil.AllFunctions(c.l.ssa.Prog) {
		if funcPackage(fn) != c.l.ssa || fn.Synthetic == "package initializer" {
			continue
		}
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				for _, op := range in.Operands(nil) {
					g, ok := (*op).(*ssa.Global)
					if !ok || g.Pkg != c.l.ssa || c.writes[g] != nil {
						continue
					}
					if !readOnlyUse(in) {
						c.writes[g] = in
					}
				}
			}
		}
	}
}

// readOnlyUse reports whether in only reads through the global it uses.
func readOnlyUse(in ssa.Instruction) bool {
	switch x := in.(type) {
	case *ssa.UnOp:
		return true // a load of the whole array
	case *ssa.IndexAddr:
		for _, r := range *x.Referrers() {
			if u, ok := r.(*ssa.UnOp); !ok || u.Op != token.MUL {
				if _, dbg := r.(*ssa.DebugRef); !dbg {
					return false
				}
			}
		}
		return true
	case *ssa.DebugRef:
		return true
	}
	return false
}

// funcPackage returns the package a function's code belongs to
// (instantiations and anonymous functions included).
func funcPackage(fn *ssa.Function) *ssa.Package {
	for fn != nil {
		if fn.Pkg != nil {
			return fn.Pkg
		}
		if o := fn.Origin(); o != nil && o != fn {
			fn = o
			continue
		}
		fn = fn.Parent()
	}
	return nil
}
