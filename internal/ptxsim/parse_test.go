// Tests of parsing and decoding: what the simulator rejects it names,
// with the line; launches the kernel cannot take are errors.

package ptxsim_test

import (
	"strings"
	"testing"

	"github.com/fuseflow/fuseflow/internal/ptxsim"
)

func TestParseErrors(t *testing.T) {
	kernel := func(body string) string {
		return header + ".visible .entry k(.param .u64 p)\n{\n\t.reg .b32 %r<4>;\n\t.reg .f32 %f<2>;\n\t.reg .pred %p;\n\t" + body + "\n\tret;\n}\n"
	}
	for _, c := range []struct {
		text string
		want []string
	}{
		{kernel("frobnicate.b32 %r1, %r2;"), []string{"line 10", "unknown instruction frobnicate.b32"}},
		{kernel("add.xyz.u32 %r1, %r2, %r3;"), []string{"modifier .xyz is not supported"}},
		{kernel("add.f16x2 %r1, %r2, %r3;"), []string{"type .f16x2 is not supported"}},
		{kernel("add.u32 %r1, %r2, %r9;"), []string{"%r9 is not a declared register"}},
		{kernel("add.u32 %r1, %r2;"), []string{"add.u32 takes [3] operands, has 2"}},
		{kernel("add.u32 %f1, %r2, %r3;"), []string{"register %f1 (.f32) cannot hold a .u32 result"}},
		{kernel("add.f32 %f1, %f0, 1;"), []string{"integer literal 1 used as a .f32 operand"}},
		{kernel("bra $nowhere;"), []string{"$nowhere is not a label"}},
		{kernel("mul.u32 %r1, %r2, %r3;"), []string{"integer mul needs .lo, .hi or .wide"}},
		{kernel("div.f32 %f1, %f0, %f0;"), []string{"exactly one of .approx, .full or a rounding modifier"}},
		{kernel("fma.f32 %f1, %f0, %f0, %f0;"), []string{"needs a rounding modifier"}},
		{kernel("cvt.s32.f32 %r1, %f0;"), []string{"needs an integer rounding modifier"}},
		{kernel("cvt.f32.s32 %f1, %r0;"), []string{"needs a float rounding modifier"}},
		{kernel("shfl.down.b32 %r1, %r2, 1, 31;"), []string{"shfl without .sync"}},
		{kernel("ld.u32 %r1, [%r2];"), []string{"generic addressing is not supported"}},
		{kernel("mov.u32 %r1, %nope;"), []string{"%nope is not a declared register"}},
		{kernel("setp.lt.b32 %p, %r1, %r2;"), []string{"bit-size types compare only with eq and ne"}},
		{kernel("@%r1 bra $x;\n$x:"), []string{"guard %r1 is not a declared predicate register"}},
		{kernel("{ ret; }"), []string{"nested { } scopes are not supported"}},
		{".version 7.8\n.target sm_80\n.func f() { ret; }", []string{".func is not supported"}},
		{".target sm_80\n", []string{"no .version"}},
		{kernel("add.u32 %r1, %r2, %r3 /* unterminated"), []string{"unterminated /* comment"}},
		{kernel("mov.u32 %r1, 1;\n\tadd.u32 %r2, %r1, %r3;"), []string{"line 11", "%r3 may be read before any instruction writes it"}},
		{kernel("mov.u32 %r1, %tid.x;\n\tsetp.eq.u32 %p, %r1, 0;\n\t@%p bra $x;\n\tmov.u32 %r2, 1;\n$x:\n\tadd.u32 %r3, %r2, 1;"), []string{"%r2 may be read before"}},
	} {
		_, err := ptxsim.Parse(c.text)
		if err == nil {
			t.Errorf("%q parsed, want an error mentioning %q", c.text, c.want)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("error %q lacks %q", err, w)
			}
		}
	}
}

func TestLaunchErrors(t *testing.T) {
	text := header + ".visible .entry k(.param .u64 p)\n.maxntid 64, 1, 1\n{\n\tret;\n}\n"
	k := mustKernel(t, text, "k")
	for _, c := range []struct {
		cfg  ptxsim.Config
		want string
	}{
		{ptxsim.Config{Grid: [3]int{1}, Block: [3]int{32}}, "launched with 0 parameters, it has 1"},
		{ptxsim.Config{Grid: [3]int{1}, Block: [3]int{128}, Params: []uint64{0}}, "exceeds its .maxntid"},
		{ptxsim.Config{Grid: [3]int{1}, Block: [3]int{2048}, Params: []uint64{0}}, "exceeds the 1024"},
		{ptxsim.Config{Grid: [3]int{-1}, Block: [3]int{1}, Params: []uint64{0}}, "grid dimension 0 is -1"},
	} {
		if _, err := k.Run(c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v got:%v want:%q", c.cfg, err, c.want)
		}
	}
	m, err := ptxsim.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Kernel("other"); err == nil || !strings.Contains(err.Error(), "[k]") {
		t.Errorf("missing kernel got:%v", err)
	}
}

// PTX ISA 9.7.8.3, 9.7.8.4 mov: registers, immediates (WARP_SZ too), the
// address of a variable, and packing and unpacking of vectors.
func TestMov(t *testing.T) {
	text := header + `.visible .entry mv(.param .u64 out)
{
	.reg .b16 %rs<3>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	.reg .f64 %fd1;
	.shared .align 8 .b8 a[8];
	.shared .align 16 .b8 b[4];
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, WARP_SZ;
	mov.u32 %r2, b;
	mov.b32 %r3, 0x12345678;
	mov.b32 {%rs1, %rs2}, %r3;
	mov.b32 %r4, {%rs2, %rs1};
	mov.f64 %fd1, 0d4000000000000000;
	mov.b64 {%r5, %r6}, %fd1;
	mov.b64 %rd2, {%r6, %r5};
	st.global.u32 [%rd1], %r1;
	st.global.u32 [%rd1+4], %r2;
	st.global.u32 [%rd1+8], %r4;
	st.global.u32 [%rd1+12], %r6;
	st.global.u64 [%rd1+16], %rd2;
	ret;
}
`
	k := mustKernel(t, text, "mv")
	out := buffer("out", 0x1000, 24)
	if _, err := k.Run(ptxsim.Config{Grid: [3]int{1}, Block: [3]int{1}, Params: []uint64{out.Addr}, Global: []ptxsim.Region{out}}); err != nil {
		t.Fatal(err)
	}
	want := []uint32{32, 16, 0x56781234, 0x40000000, 0x40000000, 0}
	for i, w := range want {
		if g := u32at(out.Data, i); g != w {
			t.Errorf("word %d got:%#x want:%#x", i, g, w)
		}
	}
}
