// This file implements decoding a parsed kernel: its registers become
// slots, its parameters and shared/local arrays get their layout, its
// labels their instruction index, and every instruction is handed to the
// decoder of its opcode (the table in opcodes.go), which checks the
// modifiers, types and operands and picks the semantics. Anything
// unknown is an error naming it.

package ptxsim

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// regInfo is a declared register: its type and slot (value registers) or
// index (predicates).
type regInfo struct {
	typ ptype
	idx int32
}

// decoder holds the state of decoding one kernel.
type decoder struct {
	k        *Kernel
	lines    []string
	regs     map[string]regInfo
	nregs    int32
	constIdx map[uint64]int32
	labels   map[string]int32
	params   map[string]Param
	vars     map[string]varInfo
	// usedExtern holds the .extern .shared arrays the kernel names.
	usedExtern map[string]bool
	cur        *rawStmt
	pc         int32
	uses       []int32 // registers the current instruction reads (predicates after nregs)
	defs       []int32 // and writes
}

// decodeFn decodes one instruction: the opcode's modifiers in ms, the
// statement's operands, into in.
type decodeFn func(d *decoder, s *rawStmt, ms *modset, in *inst) error

// errf returns a ParseError at the current statement.
func (d *decoder) errf(format string, args ...any) error {
	line := 0
	if d.cur != nil {
		line = d.cur.line
	}
	text := ""
	if line >= 1 && line <= len(d.lines) {
		text = strings.TrimSpace(d.lines[line-1])
	}
	return &ParseError{Line: line, Text: text, Msg: fmt.Sprintf(format, args...)}
}

// decodeKernel decodes a parsed kernel.
func decodeKernel(rk *rawKernel, lines []string, mv *moduleVars) (*Kernel, error) {
	k := &Kernel{Name: rk.name, MaxThreads: rk.maxntid, ReqThreads: rk.reqntid}
	d := &decoder{k: k, lines: lines, regs: map[string]regInfo{}, constIdx: map[uint64]int32{},
		labels: map[string]int32{}, params: map[string]Param{}, vars: map[string]varInfo{}, usedExtern: map[string]bool{}}
	if err := d.declare(rk); err != nil {
		return nil, err
	}
	d.declareModuleVars(mv)
	// Labels first: branches may jump forward.
	n := int32(0)
	for i := range rk.stmts {
		s := &rk.stmts[i]
		if s.label != "" {
			if _, dup := d.labels[s.label]; dup {
				d.cur = s
				return nil, d.errf("label %s is defined twice", s.label)
			}
			d.labels[s.label] = n
			continue
		}
		n++
	}
	k.code = make([]inst, 0, n+1)
	joins := map[int32]bool{}
	for i := range rk.stmts {
		s := &rk.stmts[i]
		if s.label != "" {
			continue
		}
		d.cur = s
		d.pc = int32(len(k.code))
		in, err := d.instr(s)
		if err != nil {
			return nil, err
		}
		if in.ctl == ctlBra {
			joins[in.target] = true
		}
		k.code = append(k.code, in)
	}
	// Falling off the end of the kernel is an implicit ret.
	k.code = append(k.code, inst{ctl: ctlExit, guard: -1, text: "(end of kernel)", line: int32(rk.line)})
	for pc := range joins {
		k.code[pc].join = true
	}
	k.nslots = int(d.nregs) + len(k.consts)
	// The .extern .shared arrays the kernel names, for messages.
	for _, v := range mv.externs {
		if d.usedExtern[v.name] {
			k.vars = append(k.vars, d.vars[v.name])
		}
	}
	if pc, reg := checkAssigned(k, int(d.nregs), d.regName); pc >= 0 {
		d.cur = &rawStmt{line: int(k.code[pc].line)}
		return nil, d.errf("%s may be read before any instruction writes it (registers start undefined)", reg)
	}
	return k, nil
}

// regName returns the name of value register i, or predicate i-nregs.
func (d *decoder) regName(i int) string {
	pred := i >= int(d.nregs)
	if pred {
		i -= int(d.nregs)
	}
	for name, r := range d.regs {
		if int(r.idx) == i && (r.typ.kind == kPred) == pred {
			return name
		}
	}
	return "?"
}

// declare lays out registers, parameters and shared and local arrays.
func (d *decoder) declare(rk *rawKernel) error {
	var npred int32
	for _, r := range rk.regs {
		add := func(name string) error {
			if _, dup := d.regs[name]; dup {
				return &ParseError{Line: r.line, Msg: fmt.Sprintf("register %s is declared twice", name)}
			}
			if r.typ.kind == kPred {
				d.regs[name] = regInfo{typ: r.typ, idx: npred}
				npred++
			} else {
				d.regs[name] = regInfo{typ: r.typ, idx: d.nregs}
				d.nregs++
			}
			return nil
		}
		if r.count == 0 {
			if err := add(r.prefix); err != nil {
				return err
			}
			continue
		}
		for i := range r.count {
			if err := add(r.prefix + strconv.Itoa(i)); err != nil {
				return err
			}
		}
	}
	d.k.npreds = int(npred)
	off := 0
	for _, p := range rk.params {
		size := int(p.typ.bits) / 8 * p.count
		align := max(p.align, int(p.typ.bits)/8, 1)
		off = (off + align - 1) / align * align
		name := p.typ.String()
		prm := Param{Name: p.name, Type: name, Offset: off, Size: size}
		if _, dup := d.params[p.name]; dup {
			return &ParseError{Line: p.line, Msg: fmt.Sprintf("parameter %s is declared twice", p.name)}
		}
		d.params[p.name] = prm
		d.k.Params = append(d.k.Params, prm)
		off += size
	}
	d.k.paramBytes = off
	for _, v := range rk.vars {
		size := int(v.typ.bits) / 8 * v.count
		align := max(v.align, int(v.typ.bits)/8, 1)
		vi := varInfo{name: v.name, size: size}
		switch v.space {
		case "shared":
			vi.space = spShared
			base := (d.k.SharedBytes + align - 1) / align * align
			vi.addr = uint64(base)
			d.k.SharedBytes = base + size
		default:
			vi.space = spLocal
			base := (d.k.LocalBytes + align - 1) / align * align
			vi.addr = uint64(base)
			d.k.LocalBytes = base + size
		}
		if _, dup := d.vars[v.name]; dup {
			return &ParseError{Line: v.line, Msg: fmt.Sprintf("variable %s is declared twice", v.name)}
		}
		if _, dup := d.params[v.name]; dup {
			return &ParseError{Line: v.line, Msg: fmt.Sprintf("variable %s has a parameter's name", v.name)}
		}
		d.vars[v.name] = vi
		d.k.vars = append(d.k.vars, vi)
	}
	// Local memory is per thread: round it up so every thread's window
	// keeps the declared alignments.
	d.k.LocalBytes = (d.k.LocalBytes + 15) / 16 * 16
	return nil
}

// instr decodes one instruction statement.
func (d *decoder) instr(s *rawStmt) (inst, error) {
	in := inst{guard: -1, line: int32(s.line), vec: 1, file: int32(s.file), srcLine: int32(s.srcLine)}
	d.uses, d.defs = d.uses[:0], d.defs[:0]
	if s.line >= 1 && s.line <= len(d.lines) {
		in.text = strings.TrimSpace(d.lines[s.line-1])
		if i := strings.Index(in.text, "//"); i >= 0 {
			in.text = strings.TrimSpace(in.text[:i])
		}
	}
	if s.guard != "" {
		r, ok := d.regs[s.guard]
		if !ok || r.typ.kind != kPred {
			return in, d.errf("guard %s is not a declared predicate register", s.guard)
		}
		in.guard, in.gneg = r.idx, s.guardNeg
		d.uses = append(d.uses, d.nregs+r.idx)
	}
	parts := strings.Split(s.opcode, ".")
	dec, ok := opcodes[parts[0]]
	if !ok {
		return in, d.errf("unknown instruction %s", s.opcode)
	}
	ms := &modset{m: parts[1:], used: make([]bool, len(parts)-1)}
	if err := dec(d, s, ms, &in); err != nil {
		return in, err
	}
	if rest := ms.rest(); len(rest) > 0 {
		return in, d.errf("%s: modifier .%s is not supported", s.opcode, strings.Join(rest, ", ."))
	}
	in.uses = append([]int32(nil), d.uses...)
	in.defs = append([]int32(nil), d.defs...)
	return in, nil
}

// modset is the modifiers of an opcode, consumed by its decoder.
type modset struct {
	m    []string
	used []bool
}

// has consumes modifier name when present.
func (s *modset) has(name string) bool {
	for i, m := range s.m {
		if !s.used[i] && m == name {
			s.used[i] = true
			return true
		}
	}
	return false
}

// oneOf consumes the first modifier found in names and returns it, or "".
func (s *modset) oneOf(names ...string) string {
	for i, m := range s.m {
		if s.used[i] {
			continue
		}
		for _, n := range names {
			if m == n {
				s.used[i] = true
				return n
			}
		}
	}
	return ""
}

// code consumes the first unused modifier that names a key of codes and
// returns its code, or 0 when none does.
func (s *modset) code(codes map[string]uint8) uint8 {
	for i, m := range s.m {
		if c, ok := codes[m]; ok && !s.used[i] {
			s.used[i] = true
			return c
		}
	}
	return 0
}

// types consumes the type modifiers, in order.
func (s *modset) types(d *decoder) ([]ptype, error) {
	var out []ptype
	for i, m := range s.m {
		if s.used[i] {
			continue
		}
		if t, ok := typeByName[m]; ok {
			s.used[i] = true
			out = append(out, t)
		} else if unsupportedTypes[m] {
			return nil, d.errf("type .%s is not supported by the simulator", m)
		}
	}
	return out, nil
}

// oneType consumes exactly one type modifier.
func (s *modset) oneType(d *decoder, op string) (ptype, error) {
	ts, err := s.types(d)
	if err != nil {
		return tNone, err
	}
	if len(ts) != 1 {
		return tNone, d.errf("%s needs one type, has %d", op, len(ts))
	}
	return ts[0], nil
}

// rest returns the modifiers nobody consumed.
func (s *modset) rest() []string {
	var out []string
	for i, m := range s.m {
		if !s.used[i] {
			out = append(out, m)
		}
	}
	return out
}

// nops checks the operand count.
func (d *decoder) nops(s *rawStmt, n ...int) error {
	for _, c := range n {
		if len(s.ops) == c {
			return nil
		}
	}
	return d.errf("%s takes %v operands, has %d", s.opcode, n, len(s.ops))
}

// compatible checks that a register of type reg may hold an operand of
// instruction type t (PTX ISA 9.4, Tables 23-25): the same size (or, for
// ld, st and cvt, a wider register), float registers only for float and
// bit-size types, integer registers only for integer and bit-size types.
func compatible(reg, t ptype, relaxed bool) bool {
	if (reg.kind == kPred) != (t.kind == kPred) {
		return false
	}
	if relaxed {
		if reg.bits < t.bits {
			return false
		}
	} else if reg.bits != t.bits {
		return false
	}
	switch t.kind {
	case kF:
		return reg.kind == kF || reg.kind == kB
	case kU, kS:
		return reg.kind != kF || relaxed
	}
	return true
}

// register returns the declared register of operand o.
func (d *decoder) register(o rawOp) (regInfo, error) {
	if o.kind != opReg || o.neg || o.pair != "" || o.off != 0 {
		return regInfo{}, d.errf("expected a register, found %s", opText(o))
	}
	r, ok := d.regs[o.name]
	if !ok {
		if sregs[o.name] != 0 {
			return r, d.errf("special register %s may only be read by mov", o.name)
		}
		return r, d.errf("%s is not a declared register", o.name)
	}
	return r, nil
}

// src returns the slot of a value source operand of type t: a register,
// or an immediate placed in a constant slot.
func (d *decoder) src(o rawOp, t ptype, relaxed bool) (int32, error) {
	if o.kind == opReg && o.name == "WARP_SZ" && !o.neg && o.pair == "" {
		if !t.isInt() {
			return 0, d.errf("WARP_SZ used as a .%s operand", t)
		}
		return d.constant(32), nil
	}
	if o.kind == opImm {
		v, err := d.immediate(o.imm, t)
		if err != nil {
			return 0, err
		}
		return d.constant(v), nil
	}
	r, err := d.register(o)
	if err != nil {
		return 0, err
	}
	if r.typ.kind == kPred || !compatible(r.typ, t, relaxed) {
		return 0, d.errf("register %s (.%s) cannot be a .%s operand", o.name, r.typ, t)
	}
	d.uses = append(d.uses, r.idx)
	return r.idx, nil
}

// dst returns the slot and width of a value destination register.
func (d *decoder) dst(o rawOp, t ptype, relaxed bool) (int32, uint8, error) {
	r, err := d.register(o)
	if err != nil {
		return 0, 0, err
	}
	if r.typ.kind == kPred || !compatible(r.typ, t, relaxed) {
		return 0, 0, d.errf("register %s (.%s) cannot hold a .%s result", o.name, r.typ, t)
	}
	d.defs = append(d.defs, r.idx)
	return r.idx, r.typ.bits, nil
}

// pred returns the index of a predicate register operand and its !.
func (d *decoder) pred(o rawOp) (int32, bool, error) {
	neg := o.neg
	o.neg = false
	r, err := d.register(o)
	if err != nil {
		return 0, false, err
	}
	if r.typ.kind != kPred {
		return 0, false, d.errf("%s is not a predicate register", o.name)
	}
	d.uses = append(d.uses, d.nregs+r.idx)
	return r.idx, neg, nil
}

// predDef returns the index of a predicate destination register.
func (d *decoder) predDef(o rawOp) (int32, bool, error) {
	i, neg, err := d.pred(o)
	if err == nil {
		d.uses = d.uses[:len(d.uses)-1]
		d.defs = append(d.defs, d.nregs+i)
	}
	return i, neg, err
}

// constant returns the slot of a constant holding v.
func (d *decoder) constant(v uint64) int32 {
	if i, ok := d.constIdx[v]; ok {
		return i
	}
	i := d.nregs + int32(len(d.k.consts))
	d.k.consts = append(d.k.consts, v)
	d.constIdx[v] = i
	return i
}

// immediate converts literal text to the bits of a value of type t (PTX
// ISA 4.5): integers truncated to the type's width, 0f/0d float literals
// by their bits (converted to the type with rounding to nearest when the
// widths differ), decimal floats rounded to the type.
func (d *decoder) immediate(text string, t ptype) (uint64, error) {
	neg := strings.HasPrefix(text, "-")
	body := strings.TrimPrefix(text, "-")
	isHexFloat := len(body) > 2 && body[0] == '0' && (body[1]|0x20 == 'f' || body[1]|0x20 == 'd')
	isDecFloat := !isHexFloat && !strings.HasPrefix(body, "0x") && !strings.HasPrefix(body, "0X") &&
		strings.ContainsAny(body, ".eE")
	if isHexFloat && t.kind == kB {
		// A float's bits as a bit-size operand: 0f for 32 bits, 0d for 64.
		want := 8
		if body[1]|0x20 == 'd' {
			want = 16
		}
		u, err := strconv.ParseUint(body[2:], 16, 64)
		if err != nil || len(body) != 2+want || int(t.bits) != want*4 {
			return 0, d.errf("float literal %s does not fit a .%s operand", text, t)
		}
		if neg {
			u ^= 1 << (t.bits - 1)
		}
		return u, nil
	}
	if isHexFloat || isDecFloat {
		if t.kind != kF {
			return 0, d.errf("float literal %s used as a .%s operand", text, t)
		}
		var f float64
		switch {
		case isHexFloat && body[1]|0x20 == 'f':
			u, err := strconv.ParseUint(body[2:], 16, 32)
			if err != nil || len(body) != 10 {
				return 0, d.errf("bad float literal %s", text)
			}
			f = float64(math.Float32frombits(uint32(u)))
			if t.bits == 32 {
				if neg {
					u ^= 1 << 31
				}
				return u, nil
			}
		case isHexFloat:
			u, err := strconv.ParseUint(body[2:], 16, 64)
			if err != nil || len(body) != 18 {
				return 0, d.errf("bad float literal %s", text)
			}
			f = math.Float64frombits(u)
		default:
			v, err := strconv.ParseFloat(body, 64)
			if err != nil {
				return 0, d.errf("bad float literal %s", text)
			}
			f = v
		}
		if neg {
			f = -f
		}
		if t.bits == 32 {
			return b32(float32(f)), nil
		}
		return b64(f), nil
	}
	v, err := parseInt(text)
	if err != nil {
		return 0, d.errf("bad literal %s", text)
	}
	switch t.kind {
	case kF:
		return 0, d.errf("integer literal %s used as a .%s operand", text, t)
	case kPred:
		if v != 0 {
			return 1, nil
		}
		return 0, nil
	}
	return uint64(v) & t.mask(), nil
}

// opText renders an operand for messages.
func opText(o rawOp) string {
	switch o.kind {
	case opImm:
		return o.imm
	case opAddr:
		return fmt.Sprintf("[%s%+d]", o.name, o.off)
	case opVec:
		return "{...}"
	}
	s := o.name
	if o.neg {
		s = "!" + s
	}
	if o.pair != "" {
		s += "|" + o.pair
	}
	return s
}
