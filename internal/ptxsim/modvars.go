// This file implements the module-scope variables fuseflow emits (PTX ISA
// 5.1.3, 5.1.5, 5.4): .const arrays with their initializers, laid out in
// the module's constant bank, which the simulator places at ConstBankAddr
// of the constant space and every launch may read, each variable its own
// region with a gap after it so that reading past its end is a fault as
// compute-sanitizer would not see it; and .extern .shared
// unsized arrays, which name the dynamic shared memory of a launch and so
// start, in every kernel, where its static shared memory ends.

package ptxsim

import (
	"fmt"
	"strings"

	"github.com/fuseflow/fuseflow/internal/le"
)

// ConstBankAddr is the address in the constant state space of a module's
// .const variables: `mov.u64 %rd, name` gives ConstBankAddr plus the
// variable's offset. The regions of Config.Const must not overlap the
// bank.
const ConstBankAddr uint64 = 0x7c00_0000_0000

// constGap is the least gap after a variable of the constant bank, and
// the alignment of each.
const constGap = 256

// dynSharedAlign is the least alignment of dynamic shared memory.
const dynSharedAlign = 16

// moduleVars is the module-scope variables of a module.
type moduleVars struct {
	consts  []varInfo // in the constant bank
	bank    []Region  // their memory
	end     uint64    // the end of the bank, from ConstBankAddr
	externs []rawVar  // .extern .shared arrays
	align   int       // the largest alignment of the externs
	files   map[int]string
}

// layoutModuleVars lays out the module's constant bank from the .const
// initializers (missing elements are zero, PTX ISA 5.4.4) and collects
// the .extern .shared arrays.
func layoutModuleVars(raw *rawModule, lines []string) (*moduleVars, error) {
	mv := &moduleVars{align: dynSharedAlign, files: raw.files}
	seen := map[string]bool{}
	for i := range raw.globals {
		v := &raw.globals[i]
		if seen[v.name] {
			return nil, &ParseError{Line: v.line, Text: lineText(lines, v.line), Msg: fmt.Sprintf("module variable %s is declared twice", v.name)}
		}
		seen[v.name] = true
		align := max(v.align, int(v.typ.bits)/8, 1)
		if align&(align-1) != 0 {
			return nil, &ParseError{Line: v.line, Text: lineText(lines, v.line), Msg: fmt.Sprintf(".align %d of %s is not a power of two", align, v.name)}
		}
		if v.extern {
			mv.externs = append(mv.externs, *v)
			mv.align = max(mv.align, align)
			continue
		}
		esize := int(v.typ.bits) / 8
		if len(v.init) > v.count {
			return nil, &ParseError{Line: v.initLn, Text: lineText(lines, v.initLn), Msg: fmt.Sprintf("%s has %d elements and %d initializers", v.name, v.count, len(v.init))}
		}
		if v.typ.kind == kPred {
			return nil, &ParseError{Line: v.line, Text: lineText(lines, v.line), Msg: fmt.Sprintf(".const %s: predicate variables do not exist", v.name)}
		}
		a := uint64(max(align, constGap))
		off := (mv.end + a - 1) / a * a
		data := make([]byte, esize*v.count)
		d := &decoder{lines: lines, cur: &rawStmt{line: v.initLn}}
		for j, text := range v.init {
			bits, err := d.immediate(text, v.typ)
			if err != nil {
				return nil, err
			}
			le.Put(data[j*esize:], esize, bits)
		}
		mv.end = off + uint64(len(data)) + constGap
		mv.bank = append(mv.bank, Region{Name: "const " + v.name, Addr: ConstBankAddr + off, Data: data, ReadOnly: true})
		mv.consts = append(mv.consts, varInfo{name: v.name, space: spConst, addr: ConstBankAddr + off, size: len(data)})
	}
	return mv, nil
}

// declareModuleVars makes the module's variables visible to a kernel
// whose static shared memory is laid out: constants at their bank
// addresses, .extern .shared arrays at the start of the dynamic shared
// memory. A kernel's own variables shadow module variables of the same
// name.
func (d *decoder) declareModuleVars(mv *moduleVars) {
	k := d.k
	k.DynamicSharedOffset = (k.SharedBytes + mv.align - 1) / mv.align * mv.align
	k.DynamicShared = len(mv.externs) > 0
	k.bank = mv.bank
	k.files = mv.files
	for _, v := range mv.consts {
		if _, taken := d.vars[v.name]; !taken {
			d.vars[v.name] = v
		}
	}
	for _, v := range mv.externs {
		if _, taken := d.vars[v.name]; taken {
			continue
		}
		if _, taken := d.params[v.name]; taken {
			continue
		}
		d.vars[v.name] = varInfo{name: v.name, space: spShared, addr: uint64(k.DynamicSharedOffset), size: -1}
	}
}

// lineText returns line n of the source, trimmed, for messages.
func lineText(lines []string, n int) string {
	if n >= 1 && n <= len(lines) {
		return strings.TrimSpace(lines[n-1])
	}
	return ""
}
