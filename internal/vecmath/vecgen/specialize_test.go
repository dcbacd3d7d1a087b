// This file tests the program passes of the back end: the folding of
// negations, the ordinary-range specialization and constant pinning (the
// bits they give are tested against the interpreter by package vecmath).

package vecgen

import (
	"math"
	"testing"

	"github.com/fuseflow/fuseflow/codegen/ir"
)

func flat(t *testing.T, f Func) *Program {
	t.Helper()
	k, err := Kernel(f)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Flatten(f, k, AVX512.Supports)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func count(p *Program, keep func(*Node) bool) int {
	n := 0
	for _, x := range p.Nodes {
		if keep(x) {
			n++
		}
	}
	return n
}

// TestFold checks that no fused multiply-add reads a negation, no
// negation of a constant and no integer add or or of 0 is left after
// Flatten, and that sin's quadrant tests are single tests.
func TestFold(t *testing.T) {
	for _, f := range Funcs() {
		p := flat(t, f)
		tests := 0
		for _, n := range p.Nodes {
			if n.Op == opTest {
				tests++
			}
			if (n.Op == ir.OpAdd || n.Op == ir.OpOr) && n.Type.IsInt() {
				for _, a := range n.Args {
					if c, ok := intConst(a); ok && c == 0 {
						t.Errorf("%s: v%d adds 0", f.Name(), n.ID)
					}
				}
			}
			if n.Op == ir.OpNeg && n.Args[0].IsConst() {
				t.Errorf("%s: v%d negates a constant", f.Name(), n.ID)
			}
			if n.Op != ir.OpFMA {
				continue
			}
			for _, a := range n.Args {
				if a.Op == ir.OpNeg {
					t.Errorf("%s: v%d reads the negation v%d", f.Name(), n.ID, a.ID)
				}
			}
		}
		if f.Fn == ir.MathSin && tests != 2 {
			t.Errorf("%s: got:%d tests of a bit want:2", f.Name(), tests)
		}
	}
}

// TestDecideCmp checks the compares an interval decides and those it
// leaves open.
func TestDecideCmp(t *testing.T) {
	x := &Node{Op: opInput, Type: ir.F32}
	c := func(v float64) *Node {
		return &Node{Op: opConst, Type: ir.F32, Bits: uint64(math.Float32bits(float32(v)))}
	}
	r := func(lo, hi float64) map[*Node]interval { return map[*Node]interval{x: {lo, hi, true}} }
	for _, tc := range []struct {
		cmp    ir.CmpPred
		k      float64
		lo, hi float64
		v, ok  bool
	}{
		{ir.CmpLT, 1, 2, 3, false, true},
		{ir.CmpLT, 4, 2, 3, true, true},
		{ir.CmpLT, 2.5, 2, 3, false, false},
		{ir.CmpLTU, 0, 1, 2, false, true},
		{ir.CmpEQ, math.Inf(1), 1, math.MaxFloat32, false, true},
		{ir.CmpEQ, 0, -1, 1, false, false},
		{ir.CmpNE, 0, 1, 2, true, true},
		{ir.CmpGT, 3, 1, 3, false, true},
		{ir.CmpGE, 3, 1, 3, false, false},
		{ir.CmpGE, 1, 1, 3, true, true},
		{ir.CmpNAN, 0, 1, 3, false, true},
	} {
		n := &Node{Op: ir.OpCmp, Type: ir.Pred, Cmp: tc.cmp, Args: []*Node{x, c(tc.k)}}
		rg := r(tc.lo, tc.hi)
		rg[n.Args[1]] = interval{tc.k, tc.k, true}
		v, ok := decideCmp(n, rg)
		if v != tc.v || ok != tc.ok {
			t.Errorf("x in [%v, %v], x %s %v: got:%v,%v want:%v,%v", tc.lo, tc.hi, tc.cmp, tc.k, v, ok, tc.v, tc.ok)
		}
	}
}

// TestSpecialize checks that log2's ordinary-range program keeps no
// compare of the input but its range test and fewer selects, and that
// sin's converts its quadrant from an operand known to be in range.
func TestSpecialize(t *testing.T) {
	for _, f := range []Func{{ir.MathLog2, ir.F32}, {ir.MathLog, ir.F64}, {ir.MathSin, ir.F32}} {
		full := flat(t, f)
		fast := Specialize(flat(t, f), ordinary[f])
		if fast == nil || fast.Bail == nil {
			t.Fatalf("%s: no ordinary-range program with a bail-out", f.Name())
		}
		sel := func(n *Node) bool { return n.Op == ir.OpSelect }
		inCmp := func(n *Node) bool { return n.Op == ir.OpCmp && n.Args[0].Op == opInput }
		if got, was := count(fast, sel), count(full, sel); got >= was && f.Fn != ir.MathSin {
			t.Errorf("%s: got:%d selects want:fewer than %d", f.Name(), got, was)
		}
		if got, want := count(fast, inCmp), map[bool]int{true: 1, false: 2}[f.Fn == ir.MathSin]; got > want {
			t.Errorf("%s: got:%d compares of the input want:%d (the range test)", f.Name(), got, want)
		}
		if f.Fn != ir.MathSin && len(fast.Nodes) >= len(full.Nodes) {
			t.Errorf("%s: got:%d nodes want:fewer than %d", f.Name(), len(fast.Nodes), len(full.Nodes))
		}
		// Sin's quadrant conversion needs no saturation in the range.
		r := ranges(fast)
		for _, n := range fast.Nodes {
			if n.Op == ir.OpCvt && n.Type == ir.S32 && n.Args[0].Type.IsFloat() && f.Fn == ir.MathSin {
				if iv := r[n.Args[0]]; !iv.known || iv.lo <= -0x1p31 || iv.hi >= 0x1p31 {
					t.Errorf("%s: v%d converts an operand of range %+v", f.Name(), n.ID, iv)
				}
			}
		}
	}
}

// TestPinning checks that log2's unrolled AVX-512 body reads no constant
// from memory once the constants are pinned, and that nothing is pinned
// where the registers do not allow it.
func TestPinning(t *testing.T) {
	f := Func{ir.MathLog2, ir.F32}
	af := newAsmFile(AVX512)
	p := Specialize(flat(t, f), ordinary[f])
	many, err := af.body(p, Unroll)
	if err != nil {
		t.Fatal(err)
	}
	one, err := af.body(p, 1)
	if err != nil {
		t.Fatal(err)
	}
	pins, order, placed, _, err := af.pin([]*lowered{many, one})
	if err != nil {
		t.Fatal(err)
	}
	if len(pins) != len(order) || len(pins) == 0 || len(pins) > AVX512.NVec-minFree {
		t.Fatalf("got:%d pinned constants want:between 1 and %d", len(pins), AVX512.NVec-minFree)
	}
	if got := memOperands(placed[0]); got != 0 {
		t.Errorf("got:%d memory operands in the unrolled body want:0", got)
	}
}

// TestMergeSelects checks that log2's ordinary-range program puts its
// select of a halved mantissa and its exponent's conditional increment
// under masks, and that a second pass changes nothing.
func TestMergeSelects(t *testing.T) {
	f := Func{ir.MathLog2, ir.F32}
	p := Specialize(flat(t, f), ordinary[f])
	sel := count(p, func(n *Node) bool { return n.Op == ir.OpSelect })
	p.mergeSelects()
	merged := count(p, func(n *Node) bool { return n.Merge })
	if got := count(p, func(n *Node) bool { return n.Op == ir.OpSelect }); merged != 2 || got != sel-2 {
		t.Errorf("got:%d merged, %d selects want:2 merged, %d selects", merged, got, sel-2)
	}
	nodes := len(p.Nodes)
	p.mergeSelects()
	if len(p.Nodes) != nodes || count(p, func(n *Node) bool { return n.Merge }) != merged {
		t.Errorf("a second pass changed the program")
	}
}
