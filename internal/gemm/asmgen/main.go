// Command asmgen writes the amd64 micro-kernels of internal/gemm: Go
// assembly (kern_amd64.s, the kernels written with macros: see
// kernel.go) and the Go declarations and tables that name it
// (kern_amd64.go). `go generate ./internal/gemm` runs it; its test
// checks that the committed files are what it writes.
//
// A micro-kernel computes an mr×nr tile of C = A·B over kc steps: A is a
// packed micro-panel (for each k, MR values of A's column k, one per
// row), B a packed micro-panel (for each k, NR values of B's row k). Each
// C element is a sum over k in increasing order, one fused multiply-add
// per step, started from zero; the tile is then stored, or added to C
// (one rounding more) when acc is not zero. Every element of the tile is
// computed by the same instruction sequence whatever its position, so a
// result never depends on where the tile lies or which kernel variant
// (row count) computed it.
//
// One kernel family is written per instruction set and float type; each
// family holds a function per row count 1..MR (the last rows of a
// matrix), all reading the packed A with the full MR stride.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// family is one kind of micro-kernel.
type family struct {
	isa    string // "AVX512" or "AVX2"
	dt     string // "F32" or "F64"
	mr, nr int
	unroll int // k steps per loop iteration
	// pfB is how many bytes ahead of the current k step B is prefetched
	// (0: no software prefetch).
	pfB int
}

// families lists the kernels written, the tables' order.
var families = []family{
	{isa: "AVX512", dt: "F32", mr: 12, nr: 32, unroll: 4, pfB: 0},
	{isa: "AVX512", dt: "F64", mr: 12, nr: 16, unroll: 4, pfB: 0},
	{isa: "AVX2", dt: "F32", mr: 6, nr: 16, unroll: 4, pfB: 0},
	{isa: "AVX2", dt: "F64", mr: 6, nr: 8, unroll: 4, pfB: 0},
}

func (f family) size() int {
	if f.dt == "F32" {
		return 4
	}
	return 8
}

// vbytes is the width of a vector register in bytes.
func (f family) vbytes() int {
	if f.isa == "AVX512" {
		return 64
	}
	return 32
}

func (f family) nregs() int {
	if f.isa == "AVX512" {
		return 32
	}
	return 16
}

// nv is the number of vectors per tile row.
func (f family) nv() int { return f.nr * f.size() / f.vbytes() }

func (f family) reg(i int) string {
	if f.isa == "AVX512" {
		return fmt.Sprintf("Z%d", i)
	}
	return fmt.Sprintf("Y%d", i)
}

// acc, bv and bc name the accumulator of row i and vector v, the vector
// v of B, and the j-th broadcast register.
func (f family) acc(i, v int) string { return f.reg(i*f.nv() + v) }
func (f family) bv(v int) string     { return f.reg(f.mr*f.nv() + v) }
func (f family) nbc() int            { return f.nregs() - f.mr*f.nv() - f.nv() }
func (f family) bc(j int) string     { return f.reg(f.mr*f.nv() + f.nv() + j%f.nbc()) }

func (f family) suffix() string {
	if f.dt == "F32" {
		return "PS"
	}
	return "PD"
}

func (f family) bcast() string {
	if f.dt == "F32" {
		return "VBROADCASTSS"
	}
	return "VBROADCASTSD"
}

func (f family) zero() string {
	if f.isa == "AVX512" {
		return "VPXORD"
	}
	return "VXORPS"
}

// name is the function of variant v.
func (f family) name(v variant) string {
	fl := ""
	if v.strided {
		fl = "S"
	}
	if v.masked {
		fl += fmt.Sprintf("M%d", v.nv)
	}
	return fmt.Sprintf("kern%s%s%s_%d", f.dt, f.isa, fl, v.rows)
}

// variants lists the functions of f, table by table: packed, strided,
// then (AVX-512) packed masked and strided masked for each vector count.
func (f family) variants() [][]variant {
	var out [][]variant
	table := func(strided, masked bool, nv int) {
		var t []variant
		for rows := 1; rows <= f.mr; rows++ {
			t = append(t, variant{rows: rows, strided: strided, masked: masked, nv: nv})
		}
		out = append(out, t)
	}
	table(false, false, f.nv())
	table(true, false, f.nv())
	if f.isa == "AVX512" {
		for nv := 1; nv <= f.nv(); nv++ {
			table(false, true, nv)
			table(true, true, nv)
		}
	}
	return out
}

func (f family) check() error {
	if f.nr*f.size()%f.vbytes() != 0 {
		return fmt.Errorf("%s%s: NR %d is not a whole number of vectors", f.dt, f.isa, f.nr)
	}
	if f.mr > 15 {
		return fmt.Errorf("%s%s: MR %d above the strided kernels' 15 rows", f.dt, f.isa, f.mr)
	}
	if f.unroll > 4 {
		return fmt.Errorf("%s%s: unrolling %d above the strided kernels' 4", f.dt, f.isa, f.unroll)
	}
	if f.nbc() < 1 {
		return fmt.Errorf("%s%s: %dx%d leaves no broadcast register", f.dt, f.isa, f.mr, f.nr)
	}
	return nil
}

type emitter struct{ b bytes.Buffer }

func (e *emitter) f(format string, args ...any) { fmt.Fprintf(&e.b, format+"\n", args...) }
func (e *emitter) i(format string, args ...any) { e.f("\t"+format, args...) }

// lines emits each of lines as an instruction.
func (e *emitter) lines(lines []string) {
	for _, l := range lines {
		e.i("%s", l)
	}
}

// loads loads a function's arguments, 8 bytes each from the frame's
// start, into registers: each of args is "name register".
func loads(args ...string) []string {
	lines := make([]string, len(args))
	for i, a := range args {
		name, reg, _ := strings.Cut(a, " ")
		lines[i] = fmt.Sprintf("MOVQ %s+%d(FP), %s", name, 8*i, reg)
	}
	return lines
}

// aRow is the address of row r of the strided A at the current step:
// rows 0-4 from SI, 5-9 from AX = SI + 5·ars, 10-14 from BX = SI + 10·ars,
// with R12 = ars and R13 = 3·ars.
func aRow(r int) string {
	base := [...]string{"SI", "AX", "BX"}[r/5]
	return "(" + base + ")" + [...]string{"", "(R12*1)", "(R12*2)", "(R13*1)", "(R12*4)"}[r%5]
}

// variant is one function of a family: the tile's row count, packed or
// strided operands, and for the masked ones (AVX-512 only) the vectors
// per row it computes, the columns it reads and writes given by a mask.
type variant struct {
	rows    int
	strided bool
	masked  bool
	nv      int
}

// args returns the Go signature's parameters after kc and the frame's
// argument size.
func (v variant) args() (string, int) {
	p, n := "a, b, c unsafe.Pointer, ldc, acc int", 48
	if v.strided {
		p, n = "a unsafe.Pointer, ars, acs int, b unsafe.Pointer, ldb int, c unsafe.Pointer, ldc, acc int", 72
	}
	if v.masked {
		p, n = strings.TrimSuffix(p, " int")+", mask int", n+8
	}
	return p, n
}

// transpose emits the packing transposes: out[k*w + l] = line l's
// element k for 4 lines at a time and 4 steps of k at a time, as 4×4
// blocks (float32 in XMM registers, float64 in YMM). Arguments: out, src,
// ld (bytes between lines), ow (bytes between out's rows: w·size),
// groups (of 4 lines), blocks (of 4 steps).
func (e *emitter) transpose(dt string) {
	name := "transpose" + dt
	e.f("// func %s(out, src unsafe.Pointer, ld, ow, groups, blocks int)", name)
	e.f("TEXT ·%s(SB), NOSPLIT, $0-48", name)
	e.lines(loads("out DI", "src SI", "ld R8", "ow R9", "groups CX", "blocks R10"))
	e.i("LEAQ (R8)(R8*2), R11") // 3 lines
	e.i("LEAQ (R9)(R9*2), R12") // 3 rows of out
	e.i("MOVQ R8, R13")
	e.i("SHLQ $2, R13") // 4 lines
	e.f("group:")
	e.i("MOVQ SI, AX")
	e.i("MOVQ DI, BX")
	e.i("MOVQ R10, DX")
	e.f("block:")
	// A 4×4 block in registers 0-3 of the type's width: load the lines,
	// interleave them pairwise into 4-7, combine those into the block's
	// columns, and store them as rows of out.
	reg, suf, step := "X", "PS", 16 // float32: 4 steps fill an XMM register
	if dt != "F32" {
		reg, suf, step = "Y", "PD", 32
	}
	for l, at := range []string{"(AX)", "(AX)(R8*1)", "(AX)(R8*2)", "(AX)(R11*1)"} {
		e.i("VMOVU%s %s, %s%d", suf, at, reg, l)
	}
	// Lines a..d hold 4 steps each. float32: t0 = [a0 b0 a1 b1],
	// t1 = [a2 b2 a3 b3], t2 = [c0 d0 c1 d1], t3 = [c2 d2 c3 d3].
	// float64: t0 = [a0 b0 a2 b2], t1 = [a1 b1 a3 b3], t2 = [c0 d0 c2 d2],
	// t3 = [c1 d1 c3 d3]; the 128-bit halves then pair up.
	e.i("VUNPCKL%s %s1, %s0, %s4", suf, reg, reg, reg)
	e.i("VUNPCKH%s %s1, %s0, %s5", suf, reg, reg, reg)
	e.i("VUNPCKL%s %s3, %s2, %s6", suf, reg, reg, reg)
	e.i("VUNPCKH%s %s3, %s2, %s7", suf, reg, reg, reg)
	if dt == "F32" {
		e.i("VMOVLHPS X6, X4, X0") // [a0 b0 c0 d0]
		e.i("VMOVHLPS X4, X6, X1") // [a1 b1 c1 d1]
		e.i("VMOVLHPS X7, X5, X2") // [a2 b2 c2 d2]
		e.i("VMOVHLPS X5, X7, X3") // [a3 b3 c3 d3]
	} else {
		e.i("VPERM2F128 $0x20, Y6, Y4, Y0") // [a0 b0 c0 d0]
		e.i("VPERM2F128 $0x20, Y7, Y5, Y1") // [a1 b1 c1 d1]
		e.i("VPERM2F128 $0x31, Y6, Y4, Y2") // [a2 b2 c2 d2]
		e.i("VPERM2F128 $0x31, Y7, Y5, Y3") // [a3 b3 c3 d3]
	}
	for l, at := range []string{"(BX)", "(BX)(R9*1)", "(BX)(R9*2)", "(BX)(R12*1)"} {
		e.i("VMOVU%s %s%d, %s", suf, reg, l, at)
	}
	e.i("ADDQ $%d, AX", step)
	e.i("LEAQ (BX)(R9*4), BX")
	e.i("DECQ DX")
	e.i("JNE block")
	e.i("ADDQ R13, SI")
	e.i("ADDQ $%d, DI", step)
	e.i("DECQ CX")
	e.i("JNE group")
	e.i("VZEROUPPER")
	e.i("RET")
	e.f("")
}

// copyBytes lists the row lengths in bytes that copyRows routines are
// written for: the widths of the families' tiles (MR and NR times the
// element size).
func copyBytes() []int {
	seen := map[int]bool{}
	var out []int
	for _, f := range families {
		for _, w := range []int{f.mr * f.size(), f.nr * f.size()} {
			if !seen[w] && w%8 == 0 {
				seen[w] = true
				out = append(out, w)
			}
		}
	}
	for _, w := range []int{goMR * 4, goMR * 8} { // the portable tiles
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	sort.Ints(out)
	return out
}

// goMR is the portable family's tile width (rows and columns).
const goMR = 4

// copyRows emits the packing copy of rows of n bytes: kc rows from src
// (ls bytes apart) to out (lo bytes apart), in 32-, 16- and 8-byte moves.
func (e *emitter) copyRows(n int) {
	name := fmt.Sprintf("copyRows%d", n)
	e.f("// func %s(out, src unsafe.Pointer, lo, ls, kc int)", name)
	e.f("TEXT ·%s(SB), NOSPLIT, $0-40", name)
	e.lines(loads("out DI", "src SI", "lo R8", "ls R9", "kc CX"))
	e.i("TESTQ CX, CX")
	e.i("JEQ done")
	e.f("loop:")
	type mv struct {
		off, size int
	}
	var mvs []mv
	for off := 0; off < n; {
		switch {
		case n-off >= 32:
			mvs = append(mvs, mv{off, 32})
			off += 32
		case n-off >= 16:
			mvs = append(mvs, mv{off, 16})
			off += 16
		default:
			mvs = append(mvs, mv{off, 8})
			off += 8
		}
	}
	for i, m := range mvs {
		switch m.size {
		case 32:
			e.i("VMOVUPS %d(SI), Y%d", m.off, i)
		case 16:
			e.i("VMOVUPS %d(SI), X%d", m.off, i)
		default:
			e.i("MOVQ %d(SI), R%d", m.off, 10+i%4)
		}
	}
	for i, m := range mvs {
		switch m.size {
		case 32:
			e.i("VMOVUPS Y%d, %d(DI)", i, m.off)
		case 16:
			e.i("VMOVUPS X%d, %d(DI)", i, m.off)
		default:
			e.i("MOVQ R%d, %d(DI)", 10+i%4, m.off)
		}
	}
	e.i("ADDQ R9, SI")
	e.i("ADDQ R8, DI")
	e.i("DECQ CX")
	e.i("JNE loop")
	e.f("done:")
	e.i("VZEROUPPER")
	e.i("RET")
	e.f("")
}

const header = "// Code generated by asmgen; DO NOT EDIT.\n\n"

// preamble writes the opening of a generated file: the header, the
// comment lines and the build constraint.
func (e *emitter) preamble(comment ...string) {
	e.b.WriteString(header)
	for _, c := range comment {
		e.f("// %s", c)
	}
	e.f("")
	e.f("//go:build amd64 && !purego")
	e.f("")
}

// eachKernel calls fn for every micro-kernel: the variants of each
// family, table by table, in the order of the family's tables.
func eachKernel(fn func(f family, v variant)) {
	for _, f := range families {
		for _, t := range f.variants() {
			for _, v := range t {
				fn(f, v)
			}
		}
	}
}

// asm returns the text of kern_amd64.s.
func asm() []byte {
	var e emitter
	e.preamble("Micro-kernels of internal/gemm (see asmgen for what they compute).")
	e.f("#include \"textflag.h\"")
	e.f("")
	m := newMacros(&e)
	names := map[family]map[variant]kernelNames{}
	for _, f := range families {
		names[f] = m.family(f)
	}
	eachKernel(func(f family, v variant) { e.kernel(f, v, names[f][v]) })
	e.transpose("F32")
	e.transpose("F64")
	for _, n := range copyBytes() {
		e.copyRows(n)
	}
	return e.b.Bytes()
}

// decls returns the text of kern_amd64.go.
func decls() ([]byte, error) {
	var e emitter
	e.preamble("Declarations of the assembly micro-kernels (kern_amd64.s) and their",
		"tables, one per family, indexed by row count minus one.")
	e.f("package gemm")
	e.f("")
	e.f("import \"unsafe\"")
	e.f("")
	eachKernel(func(f family, v variant) {
		params, _ := v.args()
		e.f("//go:noescape")
		e.f("func %s(kc int, %s)", f.name(v), params)
		e.f("")
	})
	e.f("// transposeF32 and transposeF64 write out[k*w + l] = element k of line l")
	e.f("// (at src + l·ld bytes) for lines l in [0, 4·groups) and steps k in")
	e.f("// [0, 4·blocks), ow = w·size bytes; they need AVX.")
	e.f("//")
	e.f("//go:noescape")
	e.f("func transposeF32(out, src unsafe.Pointer, ld, ow, groups, blocks int)")
	e.f("")
	e.f("//go:noescape")
	e.f("func transposeF64(out, src unsafe.Pointer, ld, ow, groups, blocks int)")
	e.f("")
	e.f("// copyRowsN copies kc rows of N bytes from src (ls bytes apart) to out")
	e.f("// (lo bytes apart); they need AVX.")
	for _, n := range copyBytes() {
		e.f("//")
		e.f("//go:noescape")
		e.f("func copyRows%d(out, src unsafe.Pointer, lo, ls, kc int)", n)
		e.f("")
	}
	e.f("// copyRowsAsm maps a row length in bytes to its copy.")
	e.f("var copyRowsAsm = map[int]func(out, src unsafe.Pointer, lo, ls, kc int){")
	for _, n := range copyBytes() {
		e.i("%d: copyRows%d,", n, n)
	}
	e.f("}")
	e.f("")
	for _, f := range families {
		e.f("// kern%s%s computes up to %d×%d tiles of %s.", f.dt, f.isa, f.mr, f.nr, strings.ToLower(f.dt))
		e.f("var kern%s%s = family{name: %q, mr: %d, nr: %d, lanes: %d,", f.dt, f.isa, strings.ToLower(f.isa), f.mr, f.nr, f.vbytes()/f.size())
		vs := f.variants()
		list := func(t []variant) {
			for _, v := range t {
				e.i("%s,", f.name(v))
			}
		}
		e.f("rows: []microFn{")
		list(vs[0])
		e.f("}, strided: []stridedFn{")
		list(vs[1])
		if len(vs) > 2 {
			e.f("}, masked: [][]maskedFn{")
			for x := 2; x < len(vs); x += 2 {
				e.f("{")
				list(vs[x])
				e.f("},")
			}
			e.f("}, stridedMasked: [][]stridedMaskedFn{")
			for x := 3; x < len(vs); x += 2 {
				e.f("{")
				list(vs[x])
				e.f("},")
			}
		}
		e.f("}}")
		e.f("")
	}
	return format.Source(e.b.Bytes())
}

// files returns the generated files by name.
func files() (map[string][]byte, error) {
	for _, f := range families {
		if err := f.check(); err != nil {
			return nil, err
		}
	}
	d, err := decls()
	if err != nil {
		return nil, err
	}
	return map[string][]byte{"kern_amd64.s": asm(), "kern_amd64.go": d}, nil
}

func main() {
	out := flag.String("o", ".", "directory to write kern_amd64.s and kern_amd64.go into")
	flag.Parse()
	fs, err := files()
	if err != nil {
		log.Fatal(err)
	}
	for name, b := range fs {
		if err := os.WriteFile(filepath.Join(*out, name), b, 0o644); err != nil {
			log.Fatal(err)
		}
	}
}
