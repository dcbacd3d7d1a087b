// The helper of the per-instruction tables: one instruction under test
// in a kernel where thread i reads its operands from row i of an input
// buffer (one 8-byte slot per operand) and writes the destination to
// slot i of an output buffer, so that every row of a table is one thread.

package ptxsim_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/fuseflow/fuseflow/internal/ptxsim"
)

// opSpec is an instruction under test: its text with the operands %d
// (destination), %q (a second destination), %a, %b, %c (sources), and
// their register types ("pred" for predicates).
type opSpec struct {
	instr string
	dst   string
	dst2  string // type of %q, "" when unused
	srcs  []string
}

// kernelText returns the PTX of the test kernel of s.
func kernelText(s opSpec) string {
	var b strings.Builder
	b.WriteString(".version 7.8\n.target sm_80\n.address_size 64\n\n.visible .entry t(.param .u64 in, .param .u64 out)\n{\n")
	b.WriteString("\t.reg .b32 %i, %t32;\n\t.reg .b64 %base, %ob, %off, %t64;\n\t.reg .pred %tp;\n")
	names := []string{"%a", "%b", "%c"}
	fmt.Fprintf(&b, "\t.reg .%s %%d;\n", s.dst)
	if s.dst2 != "" {
		fmt.Fprintf(&b, "\t.reg .%s %%q;\n", s.dst2)
	}
	for i, t := range s.srcs {
		fmt.Fprintf(&b, "\t.reg .%s %s;\n", t, names[i])
	}
	fmt.Fprintf(&b, "\tld.param.u64 %%base, [in];\n\tld.param.u64 %%ob, [out];\n\tmov.u32 %%i, %%tid.x;\n")
	fmt.Fprintf(&b, "\tmul.wide.u32 %%off, %%i, %d;\n\tadd.s64 %%base, %%base, %%off;\n", 8*len(s.srcs))
	for i, t := range s.srcs {
		switch {
		case t == "pred":
			fmt.Fprintf(&b, "\tld.global.u32 %%t32, [%%base+%d];\n\tsetp.ne.u32 %s, %%t32, 0;\n", 8*i, names[i])
		default:
			fmt.Fprintf(&b, "\tld.global.%s %s, [%%base+%d];\n", ldType(t), names[i], 8*i)
		}
	}
	fmt.Fprintf(&b, "\t%s;\n", s.instr)
	nout := 1
	if s.dst2 != "" {
		nout = 2
	}
	fmt.Fprintf(&b, "\tmul.wide.u32 %%off, %%i, %d;\n\tadd.s64 %%ob, %%ob, %%off;\n", 8*nout)
	for k, reg := range []string{"%d", "%q"}[:nout] {
		t := s.dst
		if k == 1 {
			t = s.dst2
		}
		if t == "pred" {
			fmt.Fprintf(&b, "\tselp.u32 %%t32, 1, 0, %s;\n\tst.global.u32 [%%ob+%d], %%t32;\n", reg, 8*k)
		} else {
			fmt.Fprintf(&b, "\tst.global.%s [%%ob+%d], %s;\n", ldType(t), 8*k, reg)
		}
	}
	b.WriteString("\tret;\n}\n")
	return b.String()
}

// ldType is the ld/st type moving a register of type t.
func ldType(t string) string {
	if t[0] == 's' || t[0] == 'u' {
		return "b" + t[1:]
	}
	return t
}

// run executes s once per row and returns the destination bits of each
// row (and of %q after them when dst2 is set), or the launch's error.
func (s opSpec) run(rows [][]uint64) ([]uint64, error) {
	m, err := ptxsim.Parse(kernelText(s))
	if err != nil {
		return nil, err
	}
	k, err := m.Kernel("t")
	if err != nil {
		return nil, err
	}
	in := make([]byte, 8*len(s.srcs)*len(rows)+8)
	for i, r := range rows {
		for j, v := range r {
			binary.LittleEndian.PutUint64(in[8*(i*len(s.srcs)+j):], v)
		}
	}
	nout := 1
	if s.dst2 != "" {
		nout = 2
	}
	out := make([]byte, 8*nout*len(rows))
	_, err = k.Run(ptxsim.Config{Grid: [3]int{1}, Block: [3]int{len(rows)}, Params: []uint64{0x10000, 0x100000},
		Global: []ptxsim.Region{{Name: "in", Addr: 0x10000, Data: in}, {Name: "out", Addr: 0x100000, Data: out}}})
	if err != nil {
		return nil, err
	}
	res := make([]uint64, nout*len(rows))
	for i := range rows {
		for k := range nout {
			res[k*len(rows)+i] = binary.LittleEndian.Uint64(out[8*(i*nout+k):]) & widthOf(s.dst, s.dst2, k)
		}
	}
	return res, nil
}

// widthOf masks destination k to its register width.
func widthOf(d, q string, k int) uint64 {
	t := d
	if k == 1 {
		t = q
	}
	var n int
	switch {
	case t == "pred":
		n = 32
	default:
		fmt.Sscanf(t[1:], "%d", &n)
	}
	if n >= 64 {
		return math.MaxUint64
	}
	return 1<<uint(n) - 1
}

// row is one table row: operands and the expected destination bits.
type row struct {
	in   []uint64
	want uint64
}

// check runs s over rows and reports every row whose result differs.
func check(t *testing.T, s opSpec, rows []row) {
	t.Helper()
	in := make([][]uint64, len(rows))
	for i, r := range rows {
		in[i] = r.in
	}
	got, err := s.run(in)
	if err != nil {
		t.Errorf("%s: %v", s.instr, err)
		return
	}
	for i, r := range rows {
		if got[i] != r.want && !(isNaNBits(got[i], s.dst) && isNaNBits(r.want, s.dst)) {
			t.Errorf("%s with %s got:%s want:%s", s.instr, showIn(r.in, s.srcs), showBits(got[i], s.dst), showBits(r.want, s.dst))
		}
	}
}

func showIn(in []uint64, ts []string) string {
	parts := make([]string, len(in))
	for i, v := range in {
		parts[i] = showBits(v, ts[i])
	}
	return strings.Join(parts, ", ")
}

func showBits(v uint64, t string) string {
	switch t {
	case "f32":
		return fmt.Sprintf("%v(%#x)", math.Float32frombits(uint32(v)), uint32(v))
	case "f64":
		return fmt.Sprintf("%v(%#x)", math.Float64frombits(v), v)
	case "s16":
		return fmt.Sprint(int16(v))
	case "s32":
		return fmt.Sprint(int32(v))
	case "s64":
		return fmt.Sprint(int64(v))
	}
	return fmt.Sprintf("%#x", v)
}

// Operand helpers: bits of typed values.
func f32b(f float32) uint64 { return uint64(math.Float32bits(f)) }
func f64b(f float64) uint64 { return math.Float64bits(f) }
func s32b(v int32) uint64   { return uint64(uint32(v)) }
func s16b(v int16) uint64   { return uint64(uint16(v)) }
func s64b(v int64) uint64   { return uint64(v) }

var (
	nan32  = f32b(float32(math.NaN()))
	inf32  = f32b(float32(math.Inf(1)))
	ninf32 = f32b(float32(math.Inf(-1)))
	nzero  = f32b(float32(math.Copysign(0, -1)))
	nan64  = f64b(math.NaN())
)

// expectFault runs s over rows and requires a fault whose message holds
// every want.
func expectFault(t *testing.T, s opSpec, rows [][]uint64, want ...string) *ptxsim.Error {
	t.Helper()
	_, err := s.run(rows)
	if err == nil {
		t.Fatalf("%s: no fault, want one mentioning %q", s.instr, want)
	}
	var e *ptxsim.Error
	if !asError(err, &e) {
		t.Fatalf("%s: error %v is not a *ptxsim.Error", s.instr, err)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%s: error %q does not mention %q", s.instr, err, w)
		}
	}
	return e
}

func asError(err error, e **ptxsim.Error) bool { return errors.As(err, e) }

// isNaNBits reports whether v is a NaN of float type t (the ISA leaves
// the payload of most NaN results unspecified).
func isNaNBits(v uint64, t string) bool {
	switch t {
	case "f32":
		return math.IsNaN(float64(math.Float32frombits(uint32(v))))
	case "f64":
		return math.IsNaN(math.Float64frombits(v))
	}
	return false
}

// header is the module header of hand-written test kernels.
const header = ".version 7.8\n.target sm_80\n.address_size 64\n\n"

// mustKernel parses text and returns its kernel named name.
func mustKernel(t *testing.T, text, name string) *ptxsim.Kernel {
	t.Helper()
	m, err := ptxsim.Parse(text)
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, text)
	}
	k, err := m.Kernel(name)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// buffer returns a region of n bytes at addr.
func buffer(name string, addr uint64, n int) ptxsim.Region {
	return ptxsim.Region{Name: name, Addr: addr, Data: make([]byte, n)}
}

func u32at(b []byte, i int) uint32 { return binary.LittleEndian.Uint32(b[4*i:]) }
