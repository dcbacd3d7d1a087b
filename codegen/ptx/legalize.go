// This file implements the legalization pass: it copies a kernel into the
// form the PTX templates expect, and runs the math library's expansion on
// that copy. The caller's function is never modified.
//
// What it rewrites:
//   - select of pred values (selp has no .pred form) becomes
//     (c and a) or (not c and b);
//   - a conditional-branch edge that carries block arguments is split into
//     a block of its own, so that parameter copies run on that edge only;
//   - each math call is marked approximate when it takes a PTX
//     approximation (FastMath or an approximate call, f32, available on the
//     target) and accurate otherwise; accurate calls PTX cannot do in one
//     correctly rounded instruction go to Options.ExpandMath;
//   - float16 and bfloat16 ops computed in f32 become native 16-bit ops
//     where the target has them, and 16-bit ops it lacks become the f32
//     path (half_native.go);
//   - unreachable blocks are dropped.
//
// Everything else PTX lacks is handled by the templates themselves (see
// ops.go): 8-bit values live in 16-bit registers, pointers to shared and
// local memory in 32-bit registers, 64-bit shuffles are two 32-bit ones,
// and block parameters become parallel copies at each branch (copies.go).

package ptx

import (
	"fmt"
	"strings"

	"github.com/fuseflow/fuseflow/codegen/ir"
)

// Legalize returns a legalized copy of fn for the options (see the file
// comment for what changes): the form Emit turns into PTX. fn must verify;
// it is not modified. The error names the kernel: invalid IR, a failed or
// missing math expansion, or a copy that does not verify (a bug here).
func Legalize(fn *ir.Func, opts Options) (*ir.Func, error) {
	t, err := opts.resolve()
	if err != nil {
		return nil, err
	}
	return legalize(fn, t)
}

func legalize(fn *ir.Func, t target) (*ir.Func, error) {
	if fn == nil {
		return nil, fmt.Errorf("ptx: nil function")
	}
	if err := fn.Verify(); err != nil {
		return nil, fmt.Errorf("ptx: kernel %s is not valid IR: %w", fn.Name, err)
	}
	lz := newLegalizer(t)
	out, err := rebuild(fn, lz.rewrite)
	if err != nil {
		return nil, err
	}
	halfChanged := lz.half.changed
	if len(lz.expand) > 0 && t.opts.ExpandMath != nil {
		if err := t.opts.ExpandMath(out); err != nil {
			return nil, fmt.Errorf("ptx: kernel %s: math expansion: %w", fn.Name, err)
		}
		if err := out.Verify(); err != nil {
			return nil, fmt.Errorf("ptx: kernel %s: the math expansion produced invalid IR: %w", fn.Name, err)
		}
		lz = newLegalizer(t)
		if out, err = rebuild(out, lz.rewrite); err != nil {
			return nil, err
		}
		halfChanged = halfChanged || lz.half.changed
	}
	if halfChanged {
		dropDeadHalf(out)
	}
	if missing := lz.missing(); len(missing) > 0 {
		hint := "Options.ExpandMath is nil (set it to the math library's expansion)"
		if t.opts.ExpandMath != nil {
			hint = "Options.ExpandMath left them in place"
		}
		return nil, fmt.Errorf("ptx: kernel %s: no PTX instruction computes %s accurately and %s",
			fn.Name, strings.Join(missing, ", "), hint)
	}
	if err := out.Verify(); err != nil {
		return nil, fmt.Errorf("ptx: kernel %s: legalized copy does not verify: %w", fn.Name, err)
	}
	return out, nil
}

// legalizer holds the state of one legalization run.
type legalizer struct {
	t    target
	half *halfRewriter // native 16-bit float ops (half_native.go)
	// expand lists the accurate math calls that are not one correctly
	// rounded PTX instruction (the math library's work), as "math.fn.type".
	expand []string
	// noTemplate lists those among them with no accurate template at all.
	noTemplate []string
}

// missing returns the math calls that have no accurate template, once.
func (lz *legalizer) missing() []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range lz.noTemplate {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func newLegalizer(t target) *legalizer {
	return &legalizer{t: t, half: &halfRewriter{t: t, memo: map[halfKey]*ir.Value{}}}
}

// rewrite is the rebuild hook: it rewrites what the templates cannot take.
func (lz *legalizer) rewrite(r *rebuilder, in *ir.Instr) (bool, error) {
	if lz.half.rewrite(r, in) {
		return true, nil
	}
	switch {
	case in.Op == ir.OpSelect && in.Result().Type == ir.Pred:
		a := r.args(in.Args)
		c, x, y := a[0], a[1], a[2]
		v := r.b.Or(r.b.And(c, x), r.b.And(r.b.Not(c), y))
		r.setResult(in.Result(), v)
		return true, nil
	case in.Op == ir.OpMath:
		ni := r.copyInstr(in)
		ni.Approx = useApprox(in, lz.t)
		if !ni.Approx && !isExact(in.Fn) {
			name := "math." + in.Fn.String() + "." + in.Args[0].Type.String()
			lz.expand = append(lz.expand, name)
			if accurateTemplate(in.Fn) == "" {
				lz.noTemplate = append(lz.noTemplate, name)
			}
		}
		return true, nil
	case in.Op == ir.OpDiv && in.Args[0].Type == ir.F32 && lz.t.opts.FastMath:
		r.copyInstr(in).Approx = true
		return true, nil
	}
	return false, nil
}
