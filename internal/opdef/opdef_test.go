// The definitions against the reference evaluator (the oracle), and the
// IR lowerings, run on the IR interpreter, against the definitions.

package opdef_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/ref"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/opdef"
)

// defCase is one op (or cast) on one operand dtype.
type defCase struct {
	name  string
	op    graph.Op
	in    graph.DType
	out   graph.DType
	arity int
	fn    any
	node  func(xs ...*graph.Node) *graph.Node // the graph node the reference evaluates
	lower func(b *ir.Builder, args []*ir.Value) *ir.Value
	zeros bool    // the signs of zero results may differ from the reference's
	ulp   float64 // the lowering's bound (Def.LowerULP)
}

// defCases lists every op of opdef on every dtype it is defined for, and
// every cast.
func defCases(t *testing.T) []defCase {
	var cs []defCase
	for _, op := range opdef.Ops() {
		d := opdef.Lookup(op)
		for _, dt := range dtypes {
			fn := d.Fns.Get(dt)
			if fn == nil {
				continue
			}
			c := defCase{name: fmt.Sprintf("%v %v", op, dt), op: op, in: dt, out: d.Result(dt), arity: 1, fn: fn,
				lower: d.Lower(dt), zeros: signedZerosDiffer[op], ulp: d.LowerULP}
			if op.Class() == graph.ClassBinary {
				c.arity = 2
				c.node = func(xs ...*graph.Node) *graph.Node { return graph.Binary(op, xs[0], xs[1]) }
			} else {
				c.node = func(xs ...*graph.Node) *graph.Node { return graph.Unary(op, xs[0]) }
			}
			require.NotNil(t, c.lower, c.name)
			cs = append(cs, c)
		}
	}
	for _, from := range dtypes {
		for _, to := range dtypes {
			c := defCase{name: fmt.Sprintf("AsType %v to %v", from, to), op: graph.OpCast, in: from, out: to, arity: 1,
				fn: opdef.Cast(from, to), node: func(xs ...*graph.Node) *graph.Node { return graph.Cast(xs[0], to) }}
			c.lower = func(b *ir.Builder, a []*ir.Value) *ir.Value {
				v, err := opdef.LowerCast(b, a[0], from, to)
				require.NoError(t, err)
				return v
			}
			cs = append(cs, c)
		}
	}
	return cs
}

// operandsOf returns the operand lists of c: its dtype's values, or every
// pair of them.
func operandsOf(c defCase, r *rand.Rand) [][]reflect.Value {
	v := operands(c.in, r)
	if c.arity == 1 {
		return [][]reflect.Value{v}
	}
	v = v[:min(len(v), 40)] // the special values; pairs of all would be slow
	a, b := pairs(v)
	return [][]reflect.Value{a, b}
}

// want applies c's scalar function to each element of ops.
func want(c defCase, ops [][]reflect.Value) []reflect.Value {
	out := make([]reflect.Value, len(ops[0]))
	for i := range out {
		args := make([]reflect.Value, len(ops))
		for k := range ops {
			args[k] = ops[k][i]
		}
		out[i] = call(c.fn, args...)
	}
	return out
}

func checkSame(t *testing.T, c defCase, ops [][]reflect.Value, got, wantv []reflect.Value, what string, ulp float64) {
	t.Helper()
	require.Len(t, got, len(wantv), c.name)
	for i := range got {
		if !same(got[i], wantv[i], c.zeros) && !(ulp > 0 && ulpsApart(got[i], wantv[i]) <= ulp) {
			args := make([]any, len(ops))
			for k := range ops {
				args[k] = ops[k][i].Interface()
			}
			t.Errorf("%s%v: %s got:%v want:%v (the definition)", c.name, args, what, got[i], wantv[i])
			return
		}
	}
}

// TestDefinitionsMatchReference evaluates each op and cast on each dtype
// with the reference evaluator and compares with the definition's scalar
// function: the same bits (NaN payloads aside), except the sign of the
// zero that Maximum and Minimum return.
func TestDefinitionsMatchReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer alloc.AssertSize(t, 0)
	for _, c := range defCases(t) {
		ops := operandsOf(c, r)
		n := len(ops[0])
		bound := map[*graph.Node]*exec.Tensor{}
		var xs []*graph.Node
		for k, vals := range ops {
			x, err := exec.NewTensor(alloc, c.in, graph.Shape{n})
			require.NoError(t, err)
			copy(x.Bytes(), encode(c.in, vals))
			in := graph.Input(c.in, graph.Shape{n}, fmt.Sprintf("x%d", k))
			bound[in] = x
			xs = append(xs, in)
		}
		out := c.node(xs...)
		require.NoError(t, out.Err(), c.name)
		require.Equal(t, c.out, out.DType(), c.name)
		res, err := ref.New().Eval(context.Background(), &exec.Request{Outputs: []*graph.Node{out}, Bound: bound, Alloc: alloc})
		require.NoError(t, err, c.name)
		checkSame(t, c, ops, decode(c.out, res[0].Bytes()[:n*c.out.Size()]), want(c, ops), "reference", 0)
		res[0].Release()
		for _, x := range bound {
			x.Release()
		}
	}
}

// memTypes are the element types of each dtype in IR memory.
var memTypes = map[graph.DType]ir.Type{
	graph.Bool: ir.U8, graph.Int32: ir.S32, graph.Int64: ir.S64, graph.Float32: ir.F32, graph.Float64: ir.F64,
	graph.Int8: ir.S8, graph.Int16: ir.S16, graph.Uint8: ir.U8, graph.Uint16: ir.U16, graph.Uint32: ir.U32,
	graph.Uint64: ir.U64, graph.Float16: ir.U16, graph.BFloat16: ir.U16,
}

// lowered builds a kernel computing c over n elements with c's lowering.
func lowered(c defCase) *ir.Func {
	f := ir.NewFunc("op")
	var ins []*ir.Value
	for k := range c.arity {
		ins = append(ins, f.AddParam(fmt.Sprintf("x%d", k), ir.PtrTo(ir.SpaceGlobal, memTypes[c.in])))
	}
	out := f.AddParam("out", ir.PtrTo(ir.SpaceGlobal, memTypes[c.out]))
	n := f.AddParam("n", ir.U32)
	b := ir.NewBuilder(f)
	b.GridStride(n, func(i *ir.Value) {
		var args []*ir.Value
		for _, p := range ins {
			v := b.Load(b.Index(p, i))
			switch {
			case c.in == graph.Bool:
				v = b.Ne(b.Cvt(v, ir.U32), b.U32(0))
			case c.in == graph.Float16 || c.in == graph.BFloat16:
				v = opdef.HalfToF32(b, v, c.in)
			default:
				v = b.Cvt(v, opdef.RegType(c.in))
			}
			args = append(args, v)
		}
		v := c.lower(b, args)
		switch {
		case c.out == graph.Bool:
			v = b.Cvt(b.Select(v, b.U32(1), b.U32(0)), ir.U8)
		case c.out == graph.Float16 || c.out == graph.BFloat16:
			v = opdef.F32ToHalf(b, v, c.out)
		default:
			v = b.Cvt(v, memTypes[c.out])
		}
		b.Store(b.Index(out, i), v)
	})
	b.Ret()
	return f
}

// TestLoweringsMatchDefinitions runs each op's and cast's IR lowering on
// the IR interpreter (math calls evaluated as the interpreter does, with
// Go's math package) and compares with the definition's scalar function.
func TestLoweringsMatchDefinitions(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, c := range defCases(t) {
		ops := operandsOf(c, r)
		n := len(ops[0])
		f := lowered(c)
		require.NoError(t, f.Verify(), c.name)
		var args []any
		for _, vals := range ops {
			args = append(args, &ir.Mem{Data: encode(c.in, vals)})
		}
		res := ir.NewMem(n * c.out.Size())
		args = append(args, res, uint32(n))
		require.NoError(t, ir.Run(f, ir.Config{Grid: [3]int{2}, Block: [3]int{64}}, args...), c.name)
		checkSame(t, c, ops, decode(c.out, res.Data), want(c, ops), "IR interpreter", c.ulp)
	}
}
