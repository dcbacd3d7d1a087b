// This file implements the text dump of a function, an LLVM-like listing
// used for debugging and golden tests.

package ir

import (
	"fmt"
	"io"
	"strings"
)

// String returns the text dump of the function (see Print).
func (f *Func) String() string {
	var sb strings.Builder
	f.Print(&sb)
	return sb.String()
}

// Print writes the text dump of the function to w:
//
//	kernel @name(%x: ptr.global.f32, %n: s32) {
//	  shared %tile: f32[256]
//	entry:
//	  %3 = add.s32 %gid, 1:s32
//	  condbr %4, if_then, if_end
//	...
//	}
//
// The output is deterministic: names and order follow construction.
func (f *Func) Print(w io.Writer) error {
	var sb strings.Builder
	params := make([]string, len(f.Params))
	for i, p := range f.Params {
		s := p.Value.String() + ": " + p.Type.String()
		if p.ReadOnly {
			s += " readonly"
		}
		params[i] = s
	}
	fmt.Fprintf(&sb, "kernel @%s(%s) {\n", f.Name, strings.Join(params, ", "))
	if f.MaxThreads > 0 {
		fmt.Fprintf(&sb, "  maxthreads %d\n", f.MaxThreads)
	}
	for _, a := range f.Shared {
		fmt.Fprintf(&sb, "  shared %s: %s[%d]\n", a.Value, a.Elem, a.Count)
	}
	for _, a := range f.Local {
		fmt.Fprintf(&sb, "  local %s: %s[%d]\n", a.Value, a.Elem, a.Count)
	}
	for _, a := range f.DynShared {
		fmt.Fprintf(&sb, "  dynshared %s: %s[]\n", a.Value, a.Elem)
	}
	for _, a := range f.ConstArrays {
		fmt.Fprintf(&sb, "  const %s: %s[%d] = {%s}\n", a.Value, a.Elem, a.Count, constInit(f, a))
	}
	var pos Pos
	for _, b := range f.Blocks {
		sb.WriteString(blockHeader(b) + "\n")
		comment := ""
		for _, in := range b.Instrs {
			line := "  " + in.String()
			var notes []string
			if in.Comment != "" && in.Comment != comment {
				notes = append(notes, in.Comment)
			}
			if in.Pos.IsValid() && in.Pos != pos {
				notes = append(notes, "at "+in.Pos.String())
				pos = in.Pos
			}
			if len(notes) > 0 {
				line += "  ; " + strings.Join(notes, "; ")
			}
			comment = in.Comment
			sb.WriteString(line + "\n")
		}
	}
	sb.WriteString("}\n")
	_, err := io.WriteString(w, sb.String())
	return err
}

// constInit prints the elements of a constant array as constants
// ("1.5:f32, 2:f32"); long arrays end with the count of the rest.
func constInit(f *Func, a *Alloc) string {
	const most = 16
	var parts []string
	for i, x := range a.Init {
		if i == most {
			parts = append(parts, fmt.Sprintf("... %d more", len(a.Init)-most))
			break
		}
		parts = append(parts, constString(&Value{Type: a.Elem, Kind: ValConst, Bits: x, fn: f}))
	}
	return strings.Join(parts, ", ")
}

func blockHeader(b *Block) string {
	if len(b.Params) == 0 {
		return b.Name + ":"
	}
	ps := make([]string, len(b.Params))
	for i, p := range b.Params {
		ps[i] = p.String() + ": " + p.Type.String()
	}
	return b.Name + "(" + strings.Join(ps, ", ") + "):"
}

// String returns the instruction as the dump prints it, for example
// "%5, %6 = ld.global.v2.f32 %p" or "condbr %c, if_then, if_end".
func (in *Instr) String() string {
	var sb strings.Builder
	if len(in.Results) > 0 {
		sb.WriteString(joinValues(in.Results) + " = ")
	}
	sb.WriteString(in.mnemonic())
	args := joinValues(in.Args)
	if args != "" {
		sb.WriteString(" " + args)
	}
	for i, e := range in.Succs {
		if i > 0 || args != "" {
			sb.WriteString(",")
		}
		sb.WriteString(" " + e.Block.String())
		if len(e.Args) > 0 {
			sb.WriteString("(" + joinValues(e.Args) + ")")
		}
	}
	return sb.String()
}

// mnemonic returns the op name with its attribute and type suffixes.
func (in *Instr) mnemonic() string {
	parts := []string{in.Op.String()}
	add := func(s ...string) {
		for _, x := range s {
			if x != "" {
				parts = append(parts, x)
			}
		}
	}
	argType := func(i int) Type {
		if i < len(in.Args) && in.Args[i] != nil {
			return in.Args[i].Type
		}
		return Invalid
	}
	resType := Invalid
	if r := in.Result(); r != nil {
		resType = r.Type
	}
	vec := ""
	if in.Width > 1 {
		vec = fmt.Sprintf("v%d", in.Width)
	}
	approx := ""
	if in.Approx {
		approx = "approx"
	}
	switch in.Op {
	case OpCmp:
		add(in.Cmp.String(), argType(0).String())
	case OpCvt:
		add(in.Rnd.String(), resType.String(), argType(0).String())
	case OpHAdd, OpHSub, OpHMul:
		add(in.Fmt.String())
	case OpHCmp:
		add(in.Cmp.String(), in.Fmt.String())
	case OpBitcast, OpMulWide:
		add(resType.String(), argType(0).String())
	case OpLoad, OpStore:
		p := argType(0)
		add(p.Space().String(), in.Cache.String(), vec, p.Elem().String())
	case OpAtomic:
		p := argType(0)
		add(p.Space().String(), in.Atom.String(), p.Elem().String())
	case OpSpecial:
		add(in.Reg.String())
	case OpFence:
		add(in.Scope.String())
	case OpShfl:
		add(in.Shfl.String(), argType(0).String())
	case OpVote:
		add(in.Vote.String())
	case OpMath:
		add(in.Fn.String(), approx, resType.String())
	case OpBarRed:
		add(in.Red.String())
	case OpBarrier, OpBr, OpCondBr, OpRet, OpTrap, OpWarpSync:
	case OpPtrCast:
		add(resType.String())
	default:
		add(approx, resType.String())
	}
	return strings.Join(parts, ".")
}

func joinValues(vs []*Value) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = v.String()
	}
	return strings.Join(s, ", ")
}
