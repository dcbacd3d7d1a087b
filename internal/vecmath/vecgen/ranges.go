// This file implements a small range analysis of flat programs: for the
// float values whose bounds follow from constants, clamps, monotone
// operations with a constant and rounding to an integral value, an
// interval and whether the value can be NaN. The back ends use it to leave
// out the saturation fix-ups of float-to-integer conversions whose
// operand is known to be in range and not NaN (the exponent of exp, for
// example), and Specialize to decide compares. The operands' own range is
// the program's In (unknown unless Specialize set it).

package vecgen

import (
	"math"

	"github.com/fuseflow/fuseflow/codegen/ir"
)

// interval is a range of float values; known false means anything,
// NaN included.
type interval struct {
	lo, hi float64
	known  bool // lo <= v <= hi and v is not NaN
}

// constFloat returns a float constant's value.
func constFloat(n *Node) (float64, bool) {
	if !n.IsConst() {
		return 0, false
	}
	switch n.Type {
	case ir.F32:
		return float64(math.Float32frombits(uint32(n.Bits))), true
	case ir.F64:
		return math.Float64frombits(n.Bits), true
	}
	return 0, false
}

// round rounds v to n's type (monotone, so bounds stay bounds).
func roundTo(t ir.Type, v float64) float64 {
	if t == ir.F32 {
		return float64(float32(v))
	}
	return v
}

// ranges computes the interval of every float node of p.
func ranges(p *Program) map[*Node]interval {
	r := map[*Node]interval{}
	finite := func(iv interval) bool {
		return iv.known && !math.IsInf(iv.lo, 0) && !math.IsInf(iv.hi, 0)
	}
	for _, n := range p.Nodes {
		if !n.Type.IsFloat() {
			continue
		}
		if c, ok := constFloat(n); ok {
			if c == c {
				r[n] = interval{c, c, true}
			}
			continue
		}
		if n.Merge { // either the operation's result or its first operand
			continue
		}
		if n.Op == opInput {
			if p.In.known {
				r[n] = p.In
			}
			continue
		}
		var a, b interval
		if len(n.Args) > 0 {
			a = r[n.Args[0]]
		}
		if len(n.Args) > 1 {
			b = r[n.Args[1]]
		}
		switch n.Op {
		case ir.OpNeg:
			if a.known {
				r[n] = interval{-a.hi, -a.lo, true}
			}
		case ir.OpAbs:
			if a.known {
				lo := math.Max(0, math.Max(a.lo, -a.hi))
				r[n] = interval{lo, math.Max(math.Abs(a.lo), math.Abs(a.hi)), true}
			}
		case ir.OpMin, ir.OpMax:
			// PTX min and max: a NaN operand yields the other one.
			pick := math.Min
			if n.Op == ir.OpMax {
				pick = math.Max
			}
			switch {
			case a.known && b.known:
				r[n] = interval{pick(a.lo, b.lo), pick(a.hi, b.hi), true}
			case b.known && b.lo == b.hi: // x against a constant: the constant if x is NaN
				if n.Op == ir.OpMax {
					r[n] = interval{b.lo, math.Inf(1), true}
				} else {
					r[n] = interval{math.Inf(-1), b.hi, true}
				}
			case a.known && a.lo == a.hi:
				if n.Op == ir.OpMax {
					r[n] = interval{a.lo, math.Inf(1), true}
				} else {
					r[n] = interval{math.Inf(-1), a.hi, true}
				}
			}
		case ir.OpMul, ir.OpAdd, ir.OpSub:
			if !finite(a) || !finite(b) {
				continue
			}
			var c [4]float64
			op := func(x, y float64) float64 {
				switch n.Op {
				case ir.OpMul:
					return roundTo(n.Type, x*y)
				case ir.OpAdd:
					return roundTo(n.Type, x+y)
				}
				return roundTo(n.Type, x-y)
			}
			if n.Op == ir.OpSub {
				c = [4]float64{op(a.lo, b.hi), op(a.hi, b.lo), op(a.lo, b.hi), op(a.hi, b.lo)}
			} else {
				c = [4]float64{op(a.lo, b.lo), op(a.lo, b.hi), op(a.hi, b.lo), op(a.hi, b.hi)}
			}
			lo, hi := c[0], c[0]
			for _, v := range c[1:] {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
			// Exact products of float32 values fit float64, and float64
			// products round monotonically: the corners bound the result.
			if n.Type == ir.F64 && n.Op != ir.OpMul {
				lo, hi = math.Nextafter(lo, math.Inf(-1)), math.Nextafter(hi, math.Inf(1))
			}
			if !math.IsInf(lo, 0) && !math.IsInf(hi, 0) && lo == lo && hi == hi {
				r[n] = interval{lo, hi, true}
			}
		case ir.OpMath:
			round := map[ir.MathFn]func(float64) float64{
				ir.MathRoundEven: math.RoundToEven, ir.MathFloor: math.Floor,
				ir.MathCeil: math.Ceil, ir.MathTrunc: math.Trunc,
			}[n.Fn]
			if round != nil && a.known {
				r[n] = interval{round(a.lo), round(a.hi), true}
			}
		}
	}
	return r
}
