// The micro-kernels as macros.
//
// The micro-kernels are written with macros, so that the file holds each
// piece once: a kernel is its frame and one line, a loop body (packed or
// strided operands) given the pieces of its kind at its row count. A
// kind is a family's packed or strided kernels with one vector count
// (masked or not); its pieces are chains in the row count, the piece of
// r rows being that of r-1 rows and the instructions of one row more.
// Macros of the same text are defined once, under the first name given.
// The assembler expands them into the instructions the kernels run.

package main

import (
	"fmt"
	"strings"
)

// macros defines the macros of the generated file.
type macros struct {
	e      *emitter
	byText map[string]string // params and lines -> the name defined
	taken  map[string]bool   // names defined
	dt     string            // the family's float type, which qualifies a name taken by another text
	bodies map[string]bool   // loop bodies defined
}

// newMacros returns the macros of e's file.
func newMacros(e *emitter) *macros {
	return &macros{e: e, byText: map[string]string{}, taken: map[string]bool{}, bodies: map[string]bool{}}
}

// def defines name(params) as lines (a line ending in ':' is a label)
// unless a macro of the same params and lines is defined: it returns the
// name to use, qualified by the float type when another text has it.
func (m *macros) def(name, params string, lines ...string) string {
	key := params + "\x00" + strings.Join(lines, "\n")
	if n, ok := m.byText[key]; ok {
		return n
	}
	if m.taken[name] {
		name = m.dt + name
	}
	m.taken[name] = true
	m.byText[key] = name
	head := name
	if params != "" {
		head += "(" + params + ")"
	}
	m.e.f("#define %s \\", head)
	for i, l := range lines {
		switch {
		case i == len(lines)-1:
			m.e.i("%s", l)
		case strings.HasSuffix(l, ":"):
			m.e.f("%s \\", l)
		default:
			m.e.i("%s; \\", l)
		}
	}
	m.e.f("")
	return name
}

// kernelNames are the macros a kernel of one row count is made of, and
// the float type's instructions they take.
type kernelNames struct {
	body                                         string
	args, pre, setup, zero, loadB, rows, advance string
	add, store                                   string // with their instructions
	load, bcast, fma                             string
	size                                         int
	aStep, bStep, aStep1, bStep1                 int // packed pointer advances: unrolled, one step
}

// family defines the macros of f's kernels and returns their names by
// variant. The pieces take the float type's instructions (and element
// size) as parameters, so that families of one register layout share
// them.
func (m *macros) family(f family) map[variant]kernelNames {
	m.dt = f.dt
	sfx := f.suffix()
	mov, add := "VMOVUP"+sfx[1:], "VADD"+sfx
	out := map[variant]kernelNames{}
	for _, t := range f.variants() {
		kind := t[0]
		name := strings.TrimSuffix(f.name(kind), fmt.Sprintf("_%d", kind.rows))
		prefix := strings.TrimPrefix(name, "kern"+f.dt) // the kind without the float type
		body := m.body(f, kind.strided)
		args := m.def(prefix+"_ARGS", "", argLines(f, kind)...)
		loadB := m.def(prefix+"_B", stepParam(kind)+", MOV", loadBLines(f, kind)...)
		loadOp := mov
		if kind.masked {
			loadOp += ".Z"
		}
		rowParams := "u, S, BCAST, FMA"
		if kind.strided {
			rowParams = "BCAST, FMA"
		}
		var pre, zero, rows, adds, stores string
		for _, v := range t {
			r := v.rows
			if r == 1 {
				pre = m.def(fmt.Sprintf("PRE%d_%d", v.nv*f.vbytes(), r), "", append([]string{"MOVQ DI, AX"}, prefetchRow(f, v)...)...)
			} else {
				pre = m.chain(fmt.Sprintf("PRE%d_%d", v.nv*f.vbytes(), r), "", pre, "ADDQ R9, AX", prefetchRow(f, v))
			}
			zero = m.chain(fmt.Sprintf("%s_ZERO%d", prefix, r), "", zero, "", zeroRow(f, v, r-1))
			rows = m.chain(fmt.Sprintf("%s_ROWS%d", prefix, r), rowParams, rows, "", fmaRow(f, v, r-1))
			adds = m.chain(fmt.Sprintf("%s_ADD%d", prefix, r), "ADDP", adds, "ADDQ R9, AX", addRow(f, v, r-1))
			stores = m.chain(fmt.Sprintf("%s_STORE%d", prefix, r), "MOV", stores, "ADDQ R9, DI", storeRow(f, v, r-1))
			n := kernelNames{body: body, args: args, pre: pre, zero: zero, loadB: loadB, rows: rows,
				add: adds + "(" + add + ")", store: stores + "(" + mov + ")", load: loadOp, size: f.size(),
				bcast: f.bcast(), fma: "VFMADD231" + sfx}
			if v.strided {
				n.setup = m.def(fmt.Sprintf("SETUP%d", r), "", setupLines(r)...)
				n.advance = m.def(fmt.Sprintf("ADVANCE%d", r), "", advanceLines(r)...)
			} else {
				sz := f.size()
				n.aStep, n.bStep, n.aStep1, n.bStep1 = f.unroll*f.mr*sz, f.unroll*f.nr*sz, f.mr*sz, f.nr*sz
			}
			out[v] = n
		}
	}
	return out
}

// chain defines name as prev, sep (between rows) and row; without prev
// (the first row) as row alone.
func (m *macros) chain(name, params, prev, sep string, row []string) string {
	if prev == "" {
		return m.def(name, params, row...)
	}
	call := prev
	if params != "" {
		call += "(" + params + ")"
	}
	lines := []string{call}
	if sep != "" {
		lines = append(lines, sep)
	}
	return m.def(name, params, append(lines, row...)...)
}

// stepParam is the parameter of a k step: the step u of the unrolled
// loop for packed operands, B's row address b for strided ones.
func stepParam(v variant) string {
	if v.strided {
		return "b"
	}
	return "u"
}

// loadBLines loads B's vectors at a k step with MOV. The packed flavor
// reads B at DX + u·NR·size, the strided one at b (DX plus 0 to 3 ldb);
// the masked ones load with zeroing, fault-suppressing moves (B may end
// at the tile's last column).
func loadBLines(f family, v variant) []string {
	var lines []string
	if f.pfB > 0 && !v.strided {
		for off := 0; off < f.nr*f.size(); off += 64 {
			lines = append(lines, fmt.Sprintf("PREFETCHT0 u*%d+%d(DX)", f.nr*f.size(), off+f.pfB))
		}
	}
	for x := range v.nv {
		at := fmt.Sprintf("u*%d+%d(DX)", f.nr*f.size(), x*f.vbytes())
		if v.strided {
			at = fmt.Sprintf("%d b", x*f.vbytes())
		}
		if v.masked {
			lines = append(lines, fmt.Sprintf("MOV %s, K%d, %s", at, 1+x, f.bv(x)))
		} else {
			lines = append(lines, fmt.Sprintf("MOV %s, %s", at, f.bv(x)))
		}
	}
	return lines
}

// advanceLines moves every row base of the strided A by acs after a k
// step.
func advanceLines(rows int) []string {
	lines := []string{"ADDQ R11, SI"}
	if rows > 5 {
		lines = append(lines, "ADDQ R11, AX")
	}
	if rows > 10 {
		lines = append(lines, "ADDQ R11, BX")
	}
	return lines
}

// fmaRow is row r of a k step: A's element broadcast (BCAST), then a
// fused multiply-add (FMA) per vector. The packed flavor reads A at
// SI + (u·MR + r)·S (S the element size), the strided one at row r's
// address (aRow).
func fmaRow(f family, v variant, r int) []string {
	bc := f.bc(r)
	at := fmt.Sprintf("S*u*%d+S*%d(SI)", f.mr, r)
	if v.strided {
		at = aRow(r)
	}
	lines := []string{fmt.Sprintf("BCAST %s, %s", at, bc)}
	for x := range v.nv {
		lines = append(lines, fmt.Sprintf("FMA %s, %s, %s", f.bv(x), bc, f.acc(r, x)))
	}
	return lines
}

// prefetchRow prefetches a row of the tile of C at AX: it is read or
// written once the loop ends.
func prefetchRow(f family, v variant) []string {
	var lines []string
	for off := 0; off < v.nv*f.vbytes(); off += 64 {
		lines = append(lines, fmt.Sprintf("PREFETCHT0 %d(AX)", off))
	}
	return lines
}

func zeroRow(f family, v variant, r int) []string {
	var lines []string
	for x := range v.nv {
		a := f.acc(r, x)
		lines = append(lines, fmt.Sprintf("%s %s, %s, %s", f.zero(), a, a, a))
	}
	return lines
}

// addRow adds row r of C (at AX) to its accumulators with ADDP.
func addRow(f family, v variant, r int) []string {
	var lines []string
	for x := range v.nv {
		a := f.acc(r, x)
		if v.masked {
			lines = append(lines, fmt.Sprintf("ADDP %d(AX), %s, K%d, %s", x*f.vbytes(), a, 1+x, a))
		} else {
			lines = append(lines, fmt.Sprintf("ADDP %d(AX), %s, %s", x*f.vbytes(), a, a))
		}
	}
	return lines
}

// storeRow stores row r's accumulators at DI with MOV.
func storeRow(f family, v variant, r int) []string {
	var lines []string
	for x := range v.nv {
		if v.masked {
			lines = append(lines, fmt.Sprintf("MOV %s, K%d, %d(DI)", f.acc(r, x), 1+x, x*f.vbytes()))
		} else {
			lines = append(lines, fmt.Sprintf("MOV %s, %d(DI)", f.acc(r, x), x*f.vbytes()))
		}
	}
	return lines
}

// setupLines sets the strided kernels' registers: R13 = 3·ars, R10 =
// 3·ldb, and the row bases AX = SI + 5·ars and BX = SI + 10·ars that
// rows beyond 5 and 10 need.
func setupLines(rows int) []string {
	lines := []string{"LEAQ (R12)(R12*2), R13", "LEAQ (R8)(R8*2), R10"}
	if rows > 5 {
		lines = append(lines, "LEAQ (SI)(R12*4), AX", "ADDQ R12, AX")
	}
	if rows > 10 {
		lines = append(lines, "LEAQ (AX)(R12*4), BX", "ADDQ R12, BX")
	}
	return lines
}

// argLines loads a kind's arguments; the masked kinds also set K1, K2,
// ... to mask the vectors of a row: lane bits of mask.
func argLines(f family, v variant) []string {
	lines := loads("kc CX", "a SI", "b DX", "c DI", "ldc R9")
	accOff := 40
	if v.strided {
		accOff = 64
		lines = loads("kc CX", "a SI", "ars R12", "acs R11", "b DX", "ldb R8", "c DI", "ldc R9")
	}
	if v.masked {
		lines = append(lines, fmt.Sprintf("MOVQ mask+%d(FP), AX", accOff+8))
		for x := range v.nv {
			lines = append(lines, fmt.Sprintf("KMOVW AX, K%d", 1+x))
			if x < v.nv-1 {
				lines = append(lines, fmt.Sprintf("SHRQ $%d, AX", f.vbytes()/f.size()))
			}
		}
	}
	return lines
}

// body defines the loop body of f's packed or strided kernels: the k
// loop unrolled f.unroll times, then the remaining steps one at a time,
// then the tile added to C (when acc is not zero) and stored. A k step
// is B's vectors (B with the load LD), then each row's broadcast of A
// and multiply-adds (ROWS with BCAST and FMA, and the element size S
// for the packed A); strided, every row base of A then moves (ADV).
func (m *macros) body(f family, strided bool) string {
	name := fmt.Sprintf("PACKED%d", f.unroll)
	params := "ARGS, PRE, ZERO, B, ROWS, ADD, STORE, LD, S, BCAST, FMA, A4, B4, A1, B1"
	step := func(u int) string { return fmt.Sprintf("B(%d, LD); ROWS(%d, S, BCAST, FMA)", u, u) }
	next, next1, acc := []string{"ADDQ $A4, SI", "ADDQ $B4, DX"}, []string{"ADDQ $A1, SI", "ADDQ $B1, DX"}, 40
	if strided {
		name, params = fmt.Sprintf("STRIDED%d", f.unroll), "ARGS, PRE, SETUP, ZERO, B, ROWS, ADV, ADD, STORE, LD, BCAST, FMA"
		step = func(u int) string {
			return "B(" + [...]string{"(DX)", "(DX)(R8*1)", "(DX)(R8*2)", "(DX)(R10*1)"}[u] + ", LD); ROWS(BCAST, FMA); ADV"
		}
		next, next1, acc = []string{"LEAQ (DX)(R8*4), DX"}, []string{"ADDQ R8, DX"}, 64
	}
	if m.bodies[name] {
		return name
	}
	m.bodies[name] = true
	lines := []string{"ARGS", "PRE"}
	if strided {
		lines = append(lines, "SETUP")
	}
	lines = append(lines, "ZERO", fmt.Sprintf("CMPQ CX, $%d", f.unroll), "JLT tail", "loop:")
	for u := range f.unroll {
		lines = append(lines, step(u))
	}
	lines = append(lines, next...)
	lines = append(lines, fmt.Sprintf("SUBQ $%d, CX", f.unroll), fmt.Sprintf("CMPQ CX, $%d", f.unroll), "JGE loop",
		"tail:", "TESTQ CX, CX", "JEQ done", "one:", step(0))
	lines = append(append(lines, next1...), "DECQ CX", "JNE one", "done:", fmt.Sprintf("MOVQ acc+%d(FP), AX", acc),
		"TESTQ AX, AX", "JEQ store", "MOVQ DI, AX", "ADD", "store:", "STORE", "VZEROUPPER", "RET")
	return m.def(name, params, lines...)
}

// kernel emits the function of variant v: its frame and its loop body.
func (e *emitter) kernel(f family, v variant, n kernelNames) {
	name := f.name(v)
	params, argsz := v.args()
	e.f("// func %s(kc int, %s)", name, params)
	e.f("TEXT ·%s(SB), NOSPLIT, $0-%d", name, argsz)
	if v.strided {
		e.i("%s(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)", n.body, n.args, n.pre, n.setup, n.zero, n.loadB, n.rows,
			n.advance, n.add, n.store, n.load, n.bcast, n.fma)
	} else {
		e.i("%s(%s, %s, %s, %s, %s, %s, %s, %s, %d, %s, %s, %d, %d, %d, %d)", n.body, n.args, n.pre, n.zero, n.loadB, n.rows,
			n.add, n.store, n.load, n.size, n.bcast, n.fma, n.aStep, n.bStep, n.aStep1, n.bStep1)
	}
	e.f("")
}
