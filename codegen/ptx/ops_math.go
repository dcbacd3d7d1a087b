// This file implements the template of math calls: the accurate or
// approximate template of mathrules.go with its placeholders filled in.

package ptx

import (
	"strings"

	"github.com/fuseflow/fuseflow/codegen/ir"
)

// emitMath writes the template legalization chose for the call.
func emitMath(e *fnEmitter, in *ir.Instr, _ *opRule) {
	t := in.Args[0].Type
	var tmpl string
	switch {
	case int(in.Fn) >= len(mathRules):
		e.fail(in, "unknown math function %d", in.Fn)
		return
	case in.Approx && t == ir.F32:
		tmpl = mathRules[in.Fn].approx32
	default:
		tmpl = accurateTemplate(in.Fn)
	}
	if tmpl == "" {
		e.fail(in, "math.%s on %s has no PTX template (legalize with Options.ExpandMath)", in.Fn, t)
		return
	}
	c := classOf(t)
	var temps [3]string
	for stmt := range strings.SplitSeq(tmpl, ";") {
		fields := strings.Fields(strings.ReplaceAll(strings.TrimSpace(stmt), ",", " "))
		for i := range fields {
			switch f := fields[i]; f {
			case "{d}":
				fields[i] = e.op(in.Result())
			case "{a}":
				fields[i] = e.op(in.Args[0])
			case "{b}":
				fields[i] = e.op(in.Args[1])
			case "{t0}", "{t1}", "{t2}":
				k := f[2] - '0'
				if temps[k] == "" {
					temps[k] = e.newReg(c)
				}
				fields[i] = temps[k]
			default:
				fields[i] = strings.ReplaceAll(f, "{ty}", t.String())
			}
		}
		e.ins(fields[0], fields[1:]...)
	}
}
