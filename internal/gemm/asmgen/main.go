// Command asmgen writes the amd64 micro-kernels of internal/gemm: Go
// assembly (kern_amd64.s) and the Go declarations and tables that name
// it (kern_amd64.go). `go generate ./internal/gemm` runs it; its test
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

// name is the function computing rows rows of a tile.
func (f family) name(rows int) string {
	return fmt.Sprintf("kern%s%s_%d", f.dt, f.isa, rows)
}

func (f family) check() error {
	if f.nr*f.size()%f.vbytes() != 0 {
		return fmt.Errorf("%s%s: NR %d is not a whole number of vectors", f.dt, f.isa, f.nr)
	}
	if f.nbc() < 1 {
		return fmt.Errorf("%s%s: %dx%d leaves no broadcast register", f.dt, f.isa, f.mr, f.nr)
	}
	return nil
}

type emitter struct{ b bytes.Buffer }

func (e *emitter) f(format string, args ...any) { fmt.Fprintf(&e.b, format+"\n", args...) }
func (e *emitter) i(format string, args ...any) { e.f("\t"+format, args...) }

// step emits one k step at k offset u of the unrolled loop.
func (e *emitter) step(f family, rows, u int) {
	sz := f.size()
	boff := u * f.nr * sz
	if f.pfB > 0 {
		for off := 0; off < f.nr*sz; off += 64 {
			e.i("PREFETCHT0 %d(DX)", boff+off+f.pfB)
		}
	}
	for v := range f.nv() {
		e.i("VMOVUP%s %d(DX), %s", f.suffix()[1:], boff+v*f.vbytes(), f.bv(v))
	}
	for r := range rows {
		bc := f.bc(r)
		e.i("%s %d(SI), %s", f.bcast(), (u*f.mr+r)*sz, bc)
		for v := range f.nv() {
			e.i("VFMADD231%s %s, %s, %s", f.suffix(), f.bv(v), bc, f.acc(r, v))
		}
	}
}

// kernel emits the function for rows rows.
func (e *emitter) kernel(f family, rows int) {
	sz := f.size()
	mov := "VMOVUP" + f.suffix()[1:]
	e.f("// func %s(kc int, a, b, c unsafe.Pointer, ldc, acc int)", f.name(rows))
	e.f("TEXT ·%s(SB), NOSPLIT, $0-48", f.name(rows))
	e.i("MOVQ kc+0(FP), CX")
	e.i("MOVQ a+8(FP), SI")
	e.i("MOVQ b+16(FP), DX")
	e.i("MOVQ c+24(FP), DI")
	e.i("MOVQ ldc+32(FP), R9")
	// Prefetch the tile of C: it is read or written once the loop ends.
	e.i("MOVQ DI, AX")
	for r := range rows {
		for off := 0; off < f.nr*sz; off += 64 {
			e.i("PREFETCHT0 %d(AX)", off)
		}
		if r < rows-1 {
			e.i("ADDQ R9, AX")
		}
	}
	for r := range rows {
		for v := range f.nv() {
			a := f.acc(r, v)
			e.i("%s %s, %s, %s", f.zero(), a, a, a)
		}
	}
	e.i("CMPQ CX, $%d", f.unroll)
	e.i("JLT tail")
	e.f("loop:")
	for u := range f.unroll {
		e.step(f, rows, u)
	}
	e.i("ADDQ $%d, SI", f.unroll*f.mr*sz)
	e.i("ADDQ $%d, DX", f.unroll*f.nr*sz)
	e.i("SUBQ $%d, CX", f.unroll)
	e.i("CMPQ CX, $%d", f.unroll)
	e.i("JGE loop")
	e.f("tail:")
	e.i("TESTQ CX, CX")
	e.i("JEQ done")
	e.f("one:")
	e.step(f, rows, 0)
	e.i("ADDQ $%d, SI", f.mr*sz)
	e.i("ADDQ $%d, DX", f.nr*sz)
	e.i("DECQ CX")
	e.i("JNE one")
	e.f("done:")
	e.i("MOVQ acc+40(FP), AX")
	e.i("TESTQ AX, AX")
	e.i("JEQ store")
	e.i("MOVQ DI, AX")
	for r := range rows {
		for v := range f.nv() {
			a := f.acc(r, v)
			e.i("VADD%s %d(AX), %s, %s", f.suffix(), v*f.vbytes(), a, a)
		}
		if r < rows-1 {
			e.i("ADDQ R9, AX")
		}
	}
	e.f("store:")
	for r := range rows {
		for v := range f.nv() {
			e.i("%s %s, %d(DI)", mov, f.acc(r, v), v*f.vbytes())
		}
		if r < rows-1 {
			e.i("ADDQ R9, DI")
		}
	}
	e.i("VZEROUPPER")
	e.i("RET")
	e.f("")
}

const header = "// Code generated by asmgen; DO NOT EDIT.\n\n"

// asm returns the text of kern_amd64.s.
func asm() []byte {
	var e emitter
	e.b.WriteString(header)
	e.f("// Micro-kernels of internal/gemm (see asmgen for what they compute).")
	e.f("")
	e.f("//go:build amd64 && !purego")
	e.f("")
	e.f("#include \"textflag.h\"")
	e.f("")
	for _, f := range families {
		for rows := 1; rows <= f.mr; rows++ {
			e.kernel(f, rows)
		}
	}
	return e.b.Bytes()
}

// decls returns the text of kern_amd64.go.
func decls() ([]byte, error) {
	var e emitter
	e.b.WriteString(header)
	e.f("// Declarations of the assembly micro-kernels (kern_amd64.s) and their")
	e.f("// tables, one per family, indexed by row count minus one.")
	e.f("")
	e.f("//go:build amd64 && !purego")
	e.f("")
	e.f("package gemm")
	e.f("")
	e.f("import \"unsafe\"")
	e.f("")
	for _, f := range families {
		for rows := 1; rows <= f.mr; rows++ {
			e.f("//go:noescape")
			e.f("func %s(kc int, a, b, c unsafe.Pointer, ldc, acc int)", f.name(rows))
			e.f("")
		}
	}
	for _, f := range families {
		e.f("// kern%s%s computes up to %d×%d tiles of %s.", f.dt, f.isa, f.mr, f.nr, strings.ToLower(f.dt))
		e.f("var kern%s%s = family{name: %q, mr: %d, nr: %d, rows: []microFn{", f.dt, f.isa, strings.ToLower(f.isa), f.mr, f.nr)
		for rows := 1; rows <= f.mr; rows++ {
			e.i("%s,", f.name(rows))
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
