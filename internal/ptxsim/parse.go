// This file implements the parser from tokens to a raw syntax tree: the
// module directives (.version, .target, .address_size, .file), the
// module-scope variables fuseflow emits (.const arrays with initializers,
// .extern .shared arrays of dynamic shared memory), each .entry with
// its parameters and performance directives (.maxntid, .reqntid), and the
// statements of its body (register and shared/local declarations, labels,
// guarded instructions with their operands, and the .loc directives that
// give them a source position) - PTX ISA chapters 4, 5 and 11.
// Nothing is interpreted here: decode.go turns the tree into instructions.

package ptxsim

import (
	"fmt"
	"strconv"
	"strings"
)

// rawModule is a parsed module.
type rawModule struct {
	version  string
	target   string
	addrSize int
	files    map[int]string // .file numbers to names
	globals  []rawVar       // module-scope .const and .extern .shared variables
	kernels  []*rawKernel
}

// rawKernel is one parsed .entry.
type rawKernel struct {
	name    string
	line    int
	params  []rawParam
	maxntid [3]int
	reqntid [3]int
	regs    []rawReg
	vars    []rawVar
	stmts   []rawStmt
}

// rawParam is a kernel parameter: a scalar, or an array of bytes.
type rawParam struct {
	name  string
	typ   ptype
	count int // array elements, 1 for a scalar
	align int
	line  int
}

// rawReg is a register declaration: prefix<count> declares prefix0 ..
// prefix(count-1); count 0 declares the single register prefix.
type rawReg struct {
	typ    ptype
	prefix string
	count  int
	line   int
}

// rawVar is a .shared or .local array declared in the kernel body, or a
// module-scope .const array or .extern .shared array.
type rawVar struct {
	space   string // "shared", "local" or "const"
	name    string
	typ     ptype
	align   int
	count   int // elements; -1 for the unsized array of .extern .shared
	init    []string
	initLn  int // line of the initializer
	line    int
	extern  bool
	hasInit bool
}

// rawStmt is a label definition or an instruction.
type rawStmt struct {
	line     int
	file     int // source position of the last .loc before it, 0 when none
	srcLine  int
	label    string // set for a label definition
	guard    string // the guard predicate register, "" when none
	guardNeg bool
	opcode   string
	ops      []rawOp
}

// opKind classifies an operand.
type opKind uint8

const (
	opReg  opKind = iota // %r1, %tid.x, a label or symbol name
	opImm                // 42, -1, 0f3F800000, 1.5
	opAddr               // [base+off] or [imm]
	opVec                // {a, b, _}
)

// rawOp is one operand as written.
type rawOp struct {
	kind  opKind
	name  string  // register, special register, symbol or label; "" for [imm]
	imm   string  // literal text of an immediate (with its sign)
	off   int64   // address offset, or symbol offset for "sym+imm"
	neg   bool    // !%p
	pair  string  // the second destination of d|p
	elems []rawOp // vector elements
}

// parser walks the tokens of one module.
type parser struct {
	toks []token
	pos  int
	src  []string // source lines, for messages
	// file and srcLine are the position of the last .loc.
	file, srcLine int
}

func (p *parser) peek() token { return p.toks[p.pos] }
func (p *parser) next() token {
	t := p.toks[p.pos]
	if t.kind != tokEOF {
		p.pos++
	}
	return t
}

// errf returns a ParseError at line.
func (p *parser) errf(line int, format string, args ...any) error {
	text := ""
	if line >= 1 && line <= len(p.src) {
		text = strings.TrimSpace(p.src[line-1])
	}
	return &ParseError{Line: line, Text: text, Msg: fmt.Sprintf(format, args...)}
}

// expect consumes a punctuation token.
func (p *parser) expect(s string) error {
	t := p.next()
	if t.kind != tokPunct || t.text != s {
		return p.errf(t.line, "expected %q, found %s", s, t)
	}
	return nil
}

// accept consumes punctuation s when it is next.
func (p *parser) accept(s string) bool {
	if t := p.peek(); t.kind == tokPunct && t.text == s {
		p.pos++
		return true
	}
	return false
}

// intLit consumes an integer literal.
func (p *parser) intLit() (int, int, error) {
	t := p.next()
	if t.kind != tokNum {
		return 0, t.line, p.errf(t.line, "expected a number, found %s", t)
	}
	v, err := parseInt(t.text)
	if err != nil || v < 0 || v > 1<<31 {
		return 0, t.line, p.errf(t.line, "bad count %s", t.text)
	}
	return int(v), t.line, nil
}

// parseModule parses PTX source text.
func parseModule(src string) (*rawModule, error) {
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks, src: strings.Split(src, "\n")}
	m := &rawModule{files: map[int]string{}}
	for {
		t := p.next()
		switch {
		case t.kind == tokEOF:
			if m.version == "" {
				return nil, &ParseError{Line: 1, Msg: "no .version directive"}
			}
			return m, nil
		case t.text == ".version":
			v := p.next()
			if v.kind != tokNum {
				return nil, p.errf(v.line, ".version needs a number")
			}
			m.version = v.text
		case t.text == ".target":
			v := p.next()
			if v.kind != tokIdent {
				return nil, p.errf(v.line, ".target needs an architecture")
			}
			m.target = v.text
			for p.accept(",") {
				p.next() // texmode_*, debug
			}
		case t.text == ".address_size":
			n, line, err := p.intLit()
			if err != nil {
				return nil, err
			}
			if n != 64 {
				return nil, p.errf(line, ".address_size %d is not supported (64 only)", n)
			}
			m.addrSize = n
		case t.text == ".visible" || t.text == ".weak":
			// A linking directive before .entry.
		case t.text == ".file":
			if err := p.fileDecl(m); err != nil {
				return nil, err
			}
		case t.text == ".const":
			v, err := p.varDecl(t, false)
			if err != nil {
				return nil, err
			}
			m.globals = append(m.globals, v)
		case t.text == ".extern" && p.peek().text == ".shared":
			v, err := p.varDecl(p.next(), true)
			if err != nil {
				return nil, err
			}
			if v.count >= 0 {
				return nil, p.errf(t.line, ".extern .shared %s: only unsized arrays (dynamic shared memory) are supported", v.name)
			}
			m.globals = append(m.globals, v)
		case t.text == ".entry":
			k, err := p.entry(t.line)
			if err != nil {
				return nil, err
			}
			m.kernels = append(m.kernels, k)
		case t.text == ".func" || t.text == ".extern":
			return nil, p.errf(t.line, "%s is not supported: the simulator runs kernels without device functions", t.text)
		case t.text == ".global" || t.text == ".shared" || t.text == ".local":
			return nil, p.errf(t.line, "module-scope %s variables are not supported (only .const and .extern .shared)", t.text)
		default:
			return nil, p.errf(t.line, "unexpected %s at module scope", t)
		}
	}
}

// entry parses ".entry name (params) directives { body }".
func (p *parser) entry(line int) (*rawKernel, error) {
	nt := p.next()
	if nt.kind != tokIdent {
		return nil, p.errf(nt.line, ".entry needs a name")
	}
	k := &rawKernel{name: nt.text, line: line}
	p.file, p.srcLine = 0, 0
	if p.accept("(") {
		for !p.accept(")") {
			prm, err := p.param()
			if err != nil {
				return nil, err
			}
			k.params = append(k.params, prm)
			if !p.accept(",") {
				if err := p.expect(")"); err != nil {
					return nil, err
				}
				break
			}
		}
	}
	for {
		t := p.peek()
		if t.kind == tokPunct && t.text == "{" {
			break
		}
		p.next()
		switch t.text {
		case ".maxntid", ".reqntid":
			var dims [3]int
			for i := range 3 {
				n, _, err := p.intLit()
				if err != nil {
					return nil, err
				}
				dims[i] = n
				if !p.accept(",") {
					break
				}
			}
			for i := range dims {
				if dims[i] == 0 {
					dims[i] = 1
				}
			}
			if t.text == ".maxntid" {
				k.maxntid = dims
			} else {
				k.reqntid = dims
			}
		case ".minnctapersm", ".maxnctapersm", ".maxnreg":
			if _, _, err := p.intLit(); err != nil {
				return nil, err
			}
		default:
			return nil, p.errf(t.line, "unexpected %s in the declaration of kernel %s", t, k.name)
		}
	}
	p.next() // {
	return k, p.body(k)
}

// param parses ".param .type [.ptr ...] [.align N] name[[count]]".
func (p *parser) param() (rawParam, error) {
	t := p.next()
	if t.text != ".param" {
		return rawParam{}, p.errf(t.line, "expected .param, found %s", t)
	}
	prm := rawParam{count: 1, line: t.line}
	for {
		t = p.next()
		if t.kind != tokIdent {
			return prm, p.errf(t.line, "bad parameter declaration near %s", t)
		}
		if !strings.HasPrefix(t.text, ".") {
			prm.name = t.text
			break
		}
		switch {
		case t.text == ".align":
			n, _, err := p.intLit()
			if err != nil {
				return prm, err
			}
			prm.align = n
		case strings.HasPrefix(t.text, ".ptr"):
			// .ptr.global.align 16: attributes for the compiler only.
			for _, f := range strings.Split(t.text[1:], ".")[1:] {
				if f == "align" {
					if _, _, err := p.intLit(); err != nil {
						return prm, err
					}
				}
			}
		default:
			typ, ok := typeByName[t.text[1:]]
			if !ok || typ.kind == kPred {
				return prm, p.errf(t.line, "parameter type %s is not supported", t.text)
			}
			prm.typ = typ
		}
	}
	if prm.typ == tNone {
		return prm, p.errf(t.line, "parameter %s has no type", prm.name)
	}
	if p.accept("[") {
		n, _, err := p.intLit()
		if err != nil {
			return prm, err
		}
		prm.count = n
		if err := p.expect("]"); err != nil {
			return prm, err
		}
	}
	return prm, nil
}

// body parses the statements of a kernel up to its closing brace.
func (p *parser) body(k *rawKernel) error {
	for {
		t := p.peek()
		switch {
		case t.kind == tokEOF:
			return p.errf(t.line, "kernel %s: missing }", k.name)
		case t.kind == tokPunct && t.text == "}":
			p.next()
			return nil
		case t.kind == tokPunct && t.text == "{":
			return p.errf(t.line, "nested { } scopes are not supported")
		case t.text == ".reg":
			p.next()
			if err := p.regDecl(k); err != nil {
				return err
			}
		case t.text == ".shared" || t.text == ".local":
			p.next()
			v, err := p.varDecl(t, false)
			if err != nil {
				return err
			}
			k.vars = append(k.vars, v)
		case t.text == ".loc":
			p.next()
			file, _, err := p.intLit()
			if err != nil {
				return err
			}
			line, _, err := p.intLit()
			if err != nil {
				return err
			}
			p.file, p.srcLine = file, line
			p.skipLine(t.line) // the column, function_name, inlined_at
		case t.text == ".pragma":
			p.next()
			p.skipLine(t.line)
		case t.kind == tokIdent && strings.HasPrefix(t.text, ".") && !strings.HasPrefix(t.text, ".L"):
			return p.errf(t.line, "directive %s is not supported in a kernel body", t.text)
		case t.kind == tokIdent && p.toks[p.pos+1].kind == tokPunct && p.toks[p.pos+1].text == ":":
			p.pos += 2
			k.stmts = append(k.stmts, rawStmt{line: t.line, label: t.text})
		default:
			s, err := p.instr()
			if err != nil {
				return err
			}
			s.file, s.srcLine = p.file, p.srcLine
			k.stmts = append(k.stmts, s)
		}
	}
}

// regDecl parses ".reg .type name<N>, name2;" after .reg.
func (p *parser) regDecl(k *rawKernel) error {
	t := p.next()
	if t.kind == tokIdent && t.text == ".v2" || t.text == ".v4" {
		return p.errf(t.line, "vector registers are not supported")
	}
	typ, ok := typeByName[strings.TrimPrefix(t.text, ".")]
	if !ok || !strings.HasPrefix(t.text, ".") {
		if unsupportedTypes[strings.TrimPrefix(t.text, ".")] {
			return p.errf(t.line, "register type %s is not supported", t.text)
		}
		return p.errf(t.line, "bad register type %s", t)
	}
	for {
		n := p.next()
		if n.kind != tokIdent {
			return p.errf(n.line, "expected a register name, found %s", n)
		}
		r := rawReg{typ: typ, prefix: n.text, line: n.line}
		if p.accept("<") {
			c, _, err := p.intLit()
			if err != nil {
				return err
			}
			if err := p.expect(">"); err != nil {
				return err
			}
			r.count = c
		}
		k.regs = append(k.regs, r)
		if !p.accept(",") {
			return p.expect(";")
		}
	}
}

// skipLine consumes the tokens of a directive on line, and its ;.
func (p *parser) skipLine(line int) {
	for p.peek().kind != tokEOF && !(p.peek().kind == tokPunct && p.peek().text == ";") && p.peek().line == line {
		p.next()
	}
	p.accept(";")
}

// fileDecl parses ".file N "name" [, timestamp, size]" after .file.
func (p *parser) fileDecl(m *rawModule) error {
	n, line, err := p.intLit()
	if err != nil {
		return err
	}
	name := p.next()
	if name.kind != tokStr {
		return p.errf(name.line, ".file %d needs a file name in quotes, found %s", n, name)
	}
	if _, dup := m.files[n]; dup {
		return p.errf(line, ".file %d is declared twice", n)
	}
	m.files[n] = name.text
	for p.accept(",") {
		if _, _, err := p.intLit(); err != nil {
			return err
		}
	}
	return nil
}

// varDecl parses "[.align N] .type name[count] [= init];" after .shared,
// .local or .const (extern: after .extern .shared, whose array is
// unsized). Initializers are taken for .const only.
func (p *parser) varDecl(sp token, extern bool) (rawVar, error) {
	v := rawVar{space: sp.text[1:], line: sp.line, count: 1, extern: extern}
	for {
		t := p.next()
		if t.kind != tokIdent {
			return v, p.errf(t.line, "bad %s declaration near %s", sp.text, t)
		}
		if !strings.HasPrefix(t.text, ".") {
			v.name = t.text
			break
		}
		if t.text == ".align" {
			n, _, err := p.intLit()
			if err != nil {
				return v, err
			}
			v.align = n
			continue
		}
		typ, ok := typeByName[t.text[1:]]
		if !ok || typ.kind == kPred {
			return v, p.errf(t.line, "%s variables of type %s are not supported", sp.text, t.text)
		}
		v.typ = typ
	}
	if v.typ == tNone {
		return v, p.errf(sp.line, "%s variable %s has no type", sp.text, v.name)
	}
	if p.accept("[") {
		if p.accept("]") {
			if !extern {
				return v, p.errf(sp.line, "%s variable %s: an unsized array needs .extern (dynamic shared memory)", sp.text, v.name)
			}
			v.count = -1
			return v, p.expect(";")
		}
		n, _, err := p.intLit()
		if err != nil {
			return v, err
		}
		v.count = n
		if err := p.expect("]"); err != nil {
			return v, err
		}
	}
	if extern {
		return v, p.errf(sp.line, ".extern .shared %s must be an unsized array", v.name)
	}
	if p.accept("=") {
		if v.space != "const" {
			return v, p.errf(sp.line, "initializers of %s variables are not supported", sp.text)
		}
		v.hasInit, v.initLn = true, p.peek().line
		if err := p.initializer(&v); err != nil {
			return v, err
		}
	}
	return v, p.expect(";")
}

// initializer parses "{v, v, ...}" or a single value for a variable,
// keeping each value's literal text (with its sign).
func (p *parser) initializer(v *rawVar) error {
	one := func() error {
		t := p.next()
		sign := ""
		if t.kind == tokPunct && (t.text == "-" || t.text == "+") {
			if t.text == "-" {
				sign = "-"
			}
			t = p.next()
		}
		if t.kind != tokNum {
			return p.errf(t.line, "the initializer of %s takes numbers, found %s", v.name, t)
		}
		v.init = append(v.init, sign+t.text)
		return nil
	}
	if !p.accept("{") {
		return one()
	}
	if p.accept("}") {
		return nil
	}
	for {
		if err := one(); err != nil {
			return err
		}
		if p.accept("}") {
			return nil
		}
		if err := p.expect(","); err != nil {
			return err
		}
	}
}

// instr parses "[@[!]p] opcode operands;".
func (p *parser) instr() (rawStmt, error) {
	s := rawStmt{line: p.peek().line}
	if p.accept("@") {
		s.guardNeg = p.accept("!")
		g := p.next()
		if g.kind != tokIdent {
			return s, p.errf(g.line, "bad guard predicate %s", g)
		}
		s.guard = g.text
	}
	op := p.next()
	if op.kind != tokIdent || strings.HasPrefix(op.text, ".") || strings.HasPrefix(op.text, "%") {
		return s, p.errf(op.line, "expected an instruction, found %s", op)
	}
	s.opcode = op.text
	if p.accept(";") {
		return s, nil
	}
	for {
		o, err := p.operand()
		if err != nil {
			return s, err
		}
		s.ops = append(s.ops, o)
		if p.accept(";") {
			return s, nil
		}
		if err := p.expect(","); err != nil {
			return s, err
		}
	}
}

// operand parses one operand.
func (p *parser) operand() (rawOp, error) {
	t := p.next()
	switch {
	case t.kind == tokPunct && t.text == "[":
		return p.address(t)
	case t.kind == tokPunct && t.text == "{":
		v := rawOp{kind: opVec}
		for {
			e, err := p.operand()
			if err != nil {
				return v, err
			}
			if e.kind != opReg && e.kind != opImm {
				return v, p.errf(t.line, "a vector element must be a register or an immediate")
			}
			v.elems = append(v.elems, e)
			if p.accept("}") {
				return v, nil
			}
			if err := p.expect(","); err != nil {
				return v, err
			}
		}
	case t.kind == tokPunct && t.text == "!":
		o, err := p.operand()
		if err != nil {
			return o, err
		}
		if o.kind != opReg || o.neg {
			return o, p.errf(t.line, "! applies to a predicate register")
		}
		o.neg = true
		return o, nil
	case t.kind == tokPunct && (t.text == "-" || t.text == "+"):
		n := p.next()
		if n.kind != tokNum {
			return rawOp{}, p.errf(t.line, "expected a number after %s", t.text)
		}
		if t.text == "-" {
			return rawOp{kind: opImm, imm: "-" + n.text}, nil
		}
		return rawOp{kind: opImm, imm: n.text}, nil
	case t.kind == tokNum:
		return rawOp{kind: opImm, imm: t.text}, nil
	case t.kind == tokIdent:
		o := rawOp{kind: opReg, name: t.text}
		if p.accept("|") {
			q := p.next()
			if q.kind != tokIdent {
				return o, p.errf(q.line, "expected a register after |")
			}
			o.pair = q.text
		}
		if n := p.peek(); n.kind == tokPunct && (n.text == "+" || n.text == "-") && !strings.HasPrefix(t.text, "%") {
			off, err := p.offset()
			if err != nil {
				return o, err
			}
			o.off = off
		}
		return o, nil
	}
	return rawOp{}, p.errf(t.line, "unexpected %s in an operand", t)
}

// offset parses "+n", "-n" or "+-n".
func (p *parser) offset() (int64, error) {
	sign := int64(1)
	for {
		t := p.peek()
		if t.kind != tokPunct || (t.text != "+" && t.text != "-") {
			break
		}
		p.next()
		if t.text == "-" {
			sign = -sign
		}
	}
	n := p.next()
	if n.kind != tokNum {
		return 0, p.errf(n.line, "expected an offset, found %s", n)
	}
	v, err := parseInt(n.text)
	if err != nil {
		return 0, p.errf(n.line, "bad offset %s", n.text)
	}
	return sign * v, nil
}

// address parses "[base]", "[base+off]" or "[imm]" after the bracket.
func (p *parser) address(open token) (rawOp, error) {
	o := rawOp{kind: opAddr}
	t := p.peek()
	switch t.kind {
	case tokIdent:
		p.next()
		o.name = t.text
		if n := p.peek(); n.kind == tokPunct && (n.text == "+" || n.text == "-") {
			off, err := p.offset()
			if err != nil {
				return o, err
			}
			o.off = off
		}
	case tokNum:
		p.next()
		v, err := parseInt(t.text)
		if err != nil {
			return o, p.errf(t.line, "bad address %s", t.text)
		}
		o.off = v
	default:
		return o, p.errf(open.line, "bad address operand near %s", t)
	}
	return o, p.expect("]")
}

// parseInt parses a PTX integer literal (PTX ISA 4.5.1): decimal, 0x hex,
// 0b binary, 0 octal, optionally followed by U. Values above MaxInt64 keep
// their bits.
func parseInt(s string) (int64, error) {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	s = strings.TrimSuffix(s, "U")
	base := 10
	switch {
	case strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X"):
		base, s = 16, s[2:]
	case strings.HasPrefix(s, "0b") || strings.HasPrefix(s, "0B"):
		base, s = 2, s[2:]
	case len(s) > 1 && s[0] == '0':
		base, s = 8, s[1:]
	}
	u, err := strconv.ParseUint(s, base, 64)
	if err != nil {
		return 0, err
	}
	if neg {
		return -int64(u), nil
	}
	return int64(u), nil
}
