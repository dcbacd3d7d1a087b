// Tests of the memory instructions (PTX ISA 9.7.8.8 - 9.7.8.11, 9.7.12.4)
// and of the checks on every access: bounds, alignment, read-only
// memory, uninitialized and racing shared memory, and ld.global.nc of
// memory the kernel writes.

package ptxsim_test

import (
	"encoding/binary"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/fuseflow/fuseflow/internal/ptxsim"
)

// copyKernel copies in to out with one access of type ty (and vector vec)
// per thread, stride bytes apart.
func copyKernel(ty, vec string, stride int, regs string, dst string) string {
	return header + `.visible .entry copy(.param .u64 in, .param .u64 out)
{
	.reg .b32 %r<3>;
	.reg .b64 %rd<6>;
	` + regs + `
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd2, [out];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd3, %r1, ` + strconv.Itoa(stride) + `;
	add.s64 %rd4, %rd1, %rd3;
	add.s64 %rd5, %rd2, %rd3;
	ld.global` + vec + `.` + ty + ` ` + dst + `, [%rd4];
	st.global` + vec + `.` + ty + ` [%rd5], ` + dst + `;
	ret;
}
`
}

// PTX ISA 9.7.8.8, 9.7.8.11: ld and st of scalars and .v2/.v4 vectors;
// a narrower value loads into a wider register sign-extended for .s
// types and zero-extended otherwise (9.4.1).
func TestLdStVectors(t *testing.T) {
	for _, c := range []struct {
		ty, vec string
		stride  int
		regs    string
		dst     string
	}{
		{"f32", ".v4", 16, ".reg .f32 %f<5>;", "{%f1, %f2, %f3, %f4}"},
		{"f64", ".v2", 16, ".reg .f64 %fd<3>;", "{%fd1, %fd2}"},
		{"u8", ".v4", 4, ".reg .b16 %rs<5>;", "{%rs1, %rs2, %rs3, %rs4}"},
		{"b64", "", 8, ".reg .b64 %x;", "%x"},
	} {
		k := mustKernel(t, copyKernel(c.ty, c.vec, c.stride, c.regs, c.dst), "copy")
		in, out := buffer("in", 0x1000, 64*c.stride), buffer("out", 0x100000, 64*c.stride)
		for i := range in.Data {
			in.Data[i] = byte(i*7 + 3)
		}
		if _, err := k.Run(ptxsim.Config{Grid: [3]int{1}, Block: [3]int{64}, Params: []uint64{in.Addr, out.Addr}, Global: []ptxsim.Region{in, out}}); err != nil {
			t.Fatalf("%s%s: %v", c.vec, c.ty, err)
		}
		if string(in.Data) != string(out.Data) {
			t.Errorf("%s%s: the copy differs", c.vec, c.ty)
		}
	}
	// ld.s8 into a 16-bit register sign-extends, ld.u8 zero-extends.
	text := header + `.visible .entry ext(.param .u64 in, .param .u64 out)
{
	.reg .b16 %rs<3>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [in];
	ld.param.u64 %rd2, [out];
	ld.global.s8 %rs1, [%rd1];
	ld.global.u8 %rs2, [%rd1];
	st.global.b16 [%rd2], %rs1;
	st.global.b16 [%rd2+2], %rs2;
	ret;
}
`
	k := mustKernel(t, text, "ext")
	in, out := buffer("in", 0x1000, 4), buffer("out", 0x2000, 4)
	in.Data[0] = 0x80
	if _, err := k.Run(ptxsim.Config{Grid: [3]int{1}, Block: [3]int{1}, Params: []uint64{in.Addr, out.Addr}, Global: []ptxsim.Region{in, out}}); err != nil {
		t.Fatal(err)
	}
	if s, u := binary.LittleEndian.Uint16(out.Data), binary.LittleEndian.Uint16(out.Data[2:]); s != 0xff80 || u != 0x0080 {
		t.Errorf("ld.s8 got:%#x want:0xff80; ld.u8 got:%#x want:0x80", s, u)
	}
}

// An access outside every region faults naming the kernel, the PTX line
// and instruction, the thread and the address; misaligned accesses and
// stores to read-only memory fault too.
func TestGlobalAccessFaults(t *testing.T) {
	k := mustKernel(t, copyKernel("f32", "", 4, ".reg .f32 %f;", "%f"), "copy")
	in, out := buffer("in", 0x1000, 4*40), buffer("out", 0x100000, 4*64)
	_, err := k.Run(ptxsim.Config{Grid: [3]int{1}, Block: [3]int{64}, Params: []uint64{in.Addr, out.Addr}, Global: []ptxsim.Region{in, out}})
	var e *ptxsim.Error
	if !asError(err, &e) {
		t.Fatalf("got %v, want a *ptxsim.Error", err)
	}
	if e.Kind != ptxsim.FaultAddress || e.Thread != [3]int{40, 0, 0} || e.Addr != 0x1000+160 || e.Line != 16 || e.Kernel != "copy" {
		t.Errorf("got %+v", e)
	}
	for _, w := range []string{"kernel copy", "line 16 (ld.global.f32 %f, [%rd4];)", "thread (40,0,0)", "address 0x10a0", "0 bytes after the end of in [0x1000, 0x10a0)"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%q lacks %q", err, w)
		}
	}
	// Misaligned: the buffer starts 2 bytes off.
	in2 := buffer("in", 0x1002, 4*64)
	_, err = k.Run(ptxsim.Config{Grid: [3]int{1}, Block: [3]int{64}, Params: []uint64{in2.Addr, out.Addr}, Global: []ptxsim.Region{in2, out}})
	if !asError(err, &e) || e.Kind != ptxsim.FaultMisaligned {
		t.Errorf("misaligned access got:%v", err)
	}
	// A v4 access needs 16-byte alignment.
	k4 := mustKernel(t, copyKernel("f32", ".v4", 16, ".reg .f32 %f<5>;", "{%f1, %f2, %f3, %f4}"), "copy")
	in3 := buffer("in", 0x1004, 16*64)
	_, err = k4.Run(ptxsim.Config{Grid: [3]int{1}, Block: [3]int{64}, Params: []uint64{in3.Addr, out.Addr}, Global: []ptxsim.Region{in3, buffer("out", 0x100000, 16*64)}})
	if !asError(err, &e) || e.Kind != ptxsim.FaultMisaligned {
		t.Errorf("misaligned v4 access got:%v", err)
	}
	// Read-only memory.
	ro := buffer("out", 0x100000, 4*64)
	ro.ReadOnly = true
	_, err = k.Run(ptxsim.Config{Grid: [3]int{1}, Block: [3]int{64}, Params: []uint64{in.Addr, ro.Addr}, Global: []ptxsim.Region{buffer("in", 0x1000, 4*64), ro}})
	if err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Errorf("store to read-only memory got:%v", err)
	}
}

// PTX ISA 9.7.8.9: ld.global.nc is defined only for memory the kernel
// does not write; reading memory it also writes is reported.
func TestNonCoherentHazard(t *testing.T) {
	text := header + `.visible .entry inplace(.param .u64 buf)
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<4>;
	.reg .f32 %f<3>;
	ld.param.u64 %rd1, [buf];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	ld.global.nc.f32 %f1, [%rd3];
	add.f32 %f2, %f1, %f1;
	st.global.f32 [%rd3], %f2;
	ret;
}
`
	k := mustKernel(t, text, "inplace")
	buf := buffer("buf", 0x1000, 4*32)
	_, err := k.Run(ptxsim.Config{Grid: [3]int{1}, Block: [3]int{32}, Params: []uint64{buf.Addr}, Global: []ptxsim.Region{buf}})
	var e *ptxsim.Error
	if !asError(err, &e) || e.Kind != ptxsim.FaultHazard {
		t.Fatalf("got %v, want a hazard", err)
	}
	for _, w := range []string{"line 14 (ld.global.nc.f32", "ld.global.nc reads buf", "line 16: st.global.f32"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%q lacks %q", err, w)
		}
	}
	// The same kernel with ld.global is fine.
	k = mustKernel(t, strings.Replace(text, "ld.global.nc.f32", "ld.global.f32", 1), "inplace")
	if _, err := k.Run(ptxsim.Config{Grid: [3]int{1}, Block: [3]int{32}, Params: []uint64{buf.Addr}, Global: []ptxsim.Region{buf}}); err != nil {
		t.Error(err)
	}
}

// sharedKernel has 64 threads (two warps): warp 0 writes s[tid], then
// (after the barrier when bar is set) every thread reads s[63-tid].
func sharedKernel(bar bool) string {
	b := ""
	if bar {
		b = "bar.sync 0;"
	}
	return header + `.visible .entry sh(.param .u64 out)
{
	.reg .pred %p;
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	.shared .align 4 .b8 s[256];
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, s;
	mad.lo.s32 %r3, %r1, 4, %r2;
	st.shared.u32 [%r3], %r1;
	` + b + `
	mov.u32 %r4, 63;
	sub.s32 %r5, %r4, %r1;
	mad.lo.s32 %r6, %r5, 4, %r2;
	ld.shared.u32 %r7, [%r6];
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r7;
	ret;
}
`
}

// Shared memory: reading what another warp wrote needs a barrier in
// between (a data race otherwise, PTX ISA 8.7.1); reading bytes nobody
// wrote is a fault; bounds are the declared shared memory.
func TestSharedMemory(t *testing.T) {
	out := buffer("out", 0x1000, 4*64)
	k := mustKernel(t, sharedKernel(true), "sh")
	if _, err := k.Run(ptxsim.Config{Grid: [3]int{3}, Block: [3]int{64}, Params: []uint64{out.Addr}, Global: []ptxsim.Region{out}}); err != nil {
		t.Fatal(err)
	}
	for i := range 64 {
		if g := u32at(out.Data, i); g != uint32(63-i) {
			t.Fatalf("out[%d] got:%d want:%d", i, g, 63-i)
		}
	}
	k = mustKernel(t, sharedKernel(false), "sh")
	_, err := k.Run(ptxsim.Config{Grid: [3]int{1}, Block: [3]int{64}, Params: []uint64{out.Addr}, Global: []ptxsim.Region{out}})
	var e *ptxsim.Error
	if !asError(err, &e) {
		t.Fatalf("without the barrier got:%v, want a fault", err)
	}
	// Warp 0 runs first: it reads s[63..32], which warp 1 has not written.
	if !strings.Contains(err.Error(), "no thread of the block has written") || !strings.Contains(err.Error(), "(in s, byte 252 of 256)") {
		t.Errorf("got %v", err)
	}
	// Warp 1 reading what warp 0 wrote, without a barrier: a race.
	text := strings.Replace(sharedKernel(false), "st.shared.u32 [%r3], %r1;", "st.shared.u32 [%r3], %r1;\n\tbar.sync 0;\n\tst.shared.u32 [%r3], %r1;", 1)
	k = mustKernel(t, text, "sh")
	_, err = k.Run(ptxsim.Config{Grid: [3]int{1}, Block: [3]int{64}, Params: []uint64{out.Addr}, Global: []ptxsim.Region{out}})
	if err == nil || !strings.Contains(err.Error(), "data race on shared memory") {
		t.Errorf("got %v, want a data race", err)
	}
	// Out of the declared shared memory.
	text = strings.Replace(sharedKernel(true), "mov.u32 %r4, 63;", "mov.u32 %r4, 64;", 1)
	k = mustKernel(t, text, "sh")
	_, err = k.Run(ptxsim.Config{Grid: [3]int{1}, Block: [3]int{64}, Params: []uint64{out.Addr}, Global: []ptxsim.Region{out}})
	if !asError(err, &e) || e.Kind != ptxsim.FaultAddress || !strings.Contains(err.Error(), "256 bytes of shared memory") {
		t.Errorf("got %v, want an out-of-bounds shared read", err)
	}
}

// Local memory is per thread; reading bytes the thread did not write is
// a fault.
func TestLocalMemory(t *testing.T) {
	text := header + `.visible .entry loc(.param .u64 out)
{
	.reg .b32 %r<5>;
	.reg .b64 %rd<4>;
	.local .align 8 .b8 l[16];
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, l;
	st.local.u32 [%r2+4], %r1;
	ld.local.u32 %r3, [%r2+4];
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r3;
	ret;
}
`
	out := buffer("out", 0x1000, 4*96)
	k := mustKernel(t, text, "loc")
	if _, err := k.Run(ptxsim.Config{Grid: [3]int{1}, Block: [3]int{96}, Params: []uint64{out.Addr}, Global: []ptxsim.Region{out}}); err != nil {
		t.Fatal(err)
	}
	for i := range 96 {
		if g := u32at(out.Data, i); g != uint32(i) {
			t.Fatalf("out[%d] got:%d", i, g)
		}
	}
	k = mustKernel(t, strings.Replace(text, "ld.local.u32 %r3, [%r2+4]", "ld.local.u32 %r3, [%r2+8]", 1), "loc")
	if _, err := k.Run(ptxsim.Config{Grid: [3]int{1}, Block: [3]int{32}, Params: []uint64{out.Addr}, Global: []ptxsim.Region{out}}); err == nil || !strings.Contains(err.Error(), "never wrote") {
		t.Errorf("got %v, want an uninitialized local read", err)
	}
}

// Parameters: scalars at their offsets and arrays through ParamData.
func TestParams(t *testing.T) {
	text := header + `.visible .entry prm(.param .u64 out, .param .s32 a, .param .f64 b, .param .align 8 .b8 arr[16])
{
	.reg .b32 %r<3>;
	.reg .b64 %rd<3>;
	.reg .f64 %fd1;
	ld.param.u64 %rd1, [out];
	ld.param.s32 %r1, [a];
	ld.param.f64 %fd1, [b];
	ld.param.u32 %r2, [arr+12];
	st.global.s32 [%rd1], %r1;
	st.global.f64 [%rd1+8], %fd1;
	st.global.u32 [%rd1+16], %r2;
	ret;
}
`
	k := mustKernel(t, text, "prm")
	if len(k.Params) != 4 || k.Params[2].Offset != 16 || k.Params[3].Offset != 24 || k.Params[3].Size != 16 {
		t.Fatalf("layout %+v", k.Params)
	}
	pd := make([]byte, 40)
	binary.LittleEndian.PutUint64(pd, 0x1000)
	binary.LittleEndian.PutUint32(pd[8:], uint32(0xfffffff9))
	binary.LittleEndian.PutUint64(pd[16:], math.Float64bits(2.5))
	binary.LittleEndian.PutUint32(pd[36:], 77)
	out := buffer("out", 0x1000, 24)
	if _, err := k.Run(ptxsim.Config{Grid: [3]int{1}, Block: [3]int{1}, ParamData: pd, Global: []ptxsim.Region{out}}); err != nil {
		t.Fatal(err)
	}
	if int32(u32at(out.Data, 0)) != -7 || math.Float64frombits(binary.LittleEndian.Uint64(out.Data[8:])) != 2.5 || u32at(out.Data, 4) != 77 {
		t.Errorf("got %v", out.Data)
	}
	if _, err := k.Run(ptxsim.Config{Grid: [3]int{1}, Block: [3]int{1}, Params: []uint64{1, 2, 3, 4}}); err == nil || !strings.Contains(err.Error(), "ParamData") {
		t.Errorf("an array parameter through Params got:%v", err)
	}
}

// PTX ISA 9.7.12.4 atom: atomic across the blocks running in parallel,
// returning the old value.
func TestAtomics(t *testing.T) {
	text := header + `.visible .entry count(.param .u64 c)
{
	.reg .b32 %r<3>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [c];
	atom.global.add.u32 %r1, [%rd1], 1;
	atom.global.max.s32 %r2, [%rd1+4], %r1;
	red.global.add.u64 [%rd1+8], 3;
	ret;
}
`
	k := mustKernel(t, text, "count")
	c := buffer("c", 0x1000, 16)
	if _, err := k.Run(ptxsim.Config{Grid: [3]int{64}, Block: [3]int{128}, Params: []uint64{c.Addr}, Global: []ptxsim.Region{c}, Workers: 4}); err != nil {
		t.Fatal(err)
	}
	if n, mx, r := u32at(c.Data, 0), u32at(c.Data, 1), binary.LittleEndian.Uint64(c.Data[8:]); n != 64*128 || mx != 64*128-1 || r != 3*64*128 {
		t.Errorf("count got:%d max:%d red:%d want:%d %d %d", n, mx, r, 64*128, 64*128-1, 3*64*128)
	}
	// Each operation on one thread: old value and new contents.
	ops := []struct {
		op, ty      string
		mem, b, c   uint64
		old, newMem uint64
		operands    string
	}{
		{"add", "f32", f32b(1.5), f32b(2.25), 0, f32b(1.5), f32b(3.75), "%b"},
		{"add", "f32", f32b(0x1p-130), f32b(0x1p-130), 0, f32b(0x1p-130), 0, "%b"}, // subnormals flushed
		{"add", "f64", f64b(0x1p-1070), f64b(0x1p-1070), 0, f64b(0x1p-1070), f64b(0x1p-1069), "%b"},
		{"exch", "b32", 5, 9, 0, 5, 9, "%b"},
		{"cas", "b32", 5, 5, 8, 5, 8, "%b, %c"},
		{"cas", "b64", 5, 6, 8, 5, 5, "%b, %c"},
		{"min", "s32", s32b(-3), 2, 0, s32b(-3), s32b(-3), "%b"},
		{"min", "u32", s32b(-3), 2, 0, s32b(-3), 2, "%b"},
		{"max", "s64", s64b(-3), 2, 0, s64b(-3), 2, "%b"},
		{"and", "b32", 0xf0, 0x3c, 0, 0xf0, 0x30, "%b"},
		{"or", "b64", 0xf0, 0x0f, 0, 0xf0, 0xff, "%b"},
		{"xor", "b32", 0xff, 0x0f, 0, 0xff, 0xf0, "%b"},
		{"inc", "u32", 7, 7, 0, 7, 0, "%b"},
		{"inc", "u32", 3, 7, 0, 3, 4, "%b"},
		{"dec", "u32", 0, 7, 0, 0, 7, "%b"},
		{"dec", "u32", 9, 7, 0, 9, 7, "%b"},
		{"dec", "u32", 5, 7, 0, 5, 4, "%b"},
	}
	for _, o := range ops {
		for _, sp := range []string{"global", "shared"} {
			rt := o.ty
			if rt[0] != 'f' {
				rt = "b" + rt[1:]
			}
			body := `
	ld.global.` + rt + ` %m, [%rd1];
	ld.global.` + rt + ` %b, [%rd1+8];
	ld.global.` + rt + ` %c, [%rd1+16];
	mov.u64 %rd2, %rd1;`
			if sp == "shared" {
				body += `
	mov.u32 %r1, s;
	st.shared.` + rt + ` [%r1], %m;
	atom.shared.` + o.op + `.` + o.ty + ` %d, [%r1], ` + o.operands + `;
	ld.shared.` + rt + ` %m, [%r1];`
			} else {
				body += `
	atom.global.` + o.op + `.` + o.ty + ` %d, [%rd1], ` + o.operands + `;
	ld.global.` + rt + ` %m, [%rd1];`
			}
			text := header + `.visible .entry at(.param .u64 p)
{
	.reg .b32 %r1;
	.reg .b64 %rd<3>;
	.reg .` + rt + ` %m, %b, %c, %d;
	.shared .align 8 .b8 s[8];
	ld.param.u64 %rd1, [p];` + body + `
	st.global.` + rt + ` [%rd1+24], %d;
	st.global.` + rt + ` [%rd1+32], %m;
	ret;
}
`
			k := mustKernel(t, text, "at")
			p := buffer("p", 0x1000, 40)
			binary.LittleEndian.PutUint64(p.Data, o.mem)
			binary.LittleEndian.PutUint64(p.Data[8:], o.b)
			binary.LittleEndian.PutUint64(p.Data[16:], o.c)
			if _, err := k.Run(ptxsim.Config{Grid: [3]int{1}, Block: [3]int{1}, Params: []uint64{p.Addr}, Global: []ptxsim.Region{p}}); err != nil {
				t.Fatalf("atom.%s.%s.%s: %v", sp, o.op, o.ty, err)
			}
			mask := uint64(math.MaxUint64)
			if o.ty[1:] == "32" {
				mask = 0xffffffff
			}
			old, nw := binary.LittleEndian.Uint64(p.Data[24:])&mask, binary.LittleEndian.Uint64(p.Data[32:])&mask
			if old != o.old&mask || nw != o.newMem&mask {
				t.Errorf("atom.%s.%s.%s(%#x, %#x, %#x) got:old %#x mem %#x want:old %#x mem %#x", sp, o.op, o.ty, o.mem, o.b, o.c, old, nw, o.old, o.newMem)
			}
		}
	}
}
