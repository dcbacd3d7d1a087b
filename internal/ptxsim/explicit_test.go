// Tests of what the emitter writes for explicit kernels: string literals
// and .file/.loc (PTX ISA 11.5.3, 11.5.4) naming the source line of a
// fault; module-scope .const arrays with initializers (5.1.3, 5.4.4);
// .extern .shared dynamic shared memory (5.1.5) with %dynamic_smem_size
// and %total_smem_size (chapter 10); bar.red.popc/and/or (9.7.12.1); trap
// (9.7.18.4); and explicit_lineinfo.ptx of codegen/ptx run end to end.

package ptxsim_test

import (
	"encoding/binary"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/fuseflow/fuseflow/internal/ptxsim"
)

// PTX ISA 4.2 and 11.5.3: .file takes a quoted name; a string ends on its
// line.
func TestStringsAndFiles(t *testing.T) {
	for _, c := range []struct {
		src, err string
	}{
		{header + ".file 1 \"a b.go\"\n.file 2 \"c\\\"d.go\", 0, 10\n", ""},
		{header + ".file 1 \"a.go\n\"\n", "unterminated string"},
		{header + ".file 1 a.go\n", "needs a file name in quotes"},
		{header + ".file 1 \"a.go\"\n.file 1 \"b.go\"\n", "declared twice"},
	} {
		_, err := ptxsim.Parse(c.src)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if c.err == "" && err != nil || c.err != "" && !strings.Contains(got, c.err) {
			t.Errorf("%q got:%v want:%q", c.src, err, c.err)
		}
	}
}

// PTX ISA 11.5.4: .loc gives the source position of the instructions
// after it; a fault names it, a trap (9.7.18.4) is FaultTrap.
func TestLocNamesFaults(t *testing.T) {
	text := header + `.file 1 "k.go"
.file 2 "dir/other.go"
.visible .entry b(.param .u64 out)
{
	.reg .pred %p<2>;
	.reg .b32 %r<2>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [out];
	.loc 1 7 3
	mov.u32 %r1, %tid.x;
	.loc 2 42 1
	setp.eq.u32 %p1, %r1, 3;
	@%p1 trap;
	ret;
}
`
	k := mustKernel(t, text, "b")
	_, err := k.Run(ptxsim.Config{Block: [3]int{32}, Params: []uint64{0}})
	var e *ptxsim.Error
	if !asError(err, &e) || e.Kind != ptxsim.FaultTrap || e.Source != "dir/other.go:42" || e.Thread != [3]int{3, 0, 0} ||
		!strings.Contains(err.Error(), "at dir/other.go:42") {
		t.Errorf("trap got:%v want: FaultTrap of thread 3 at dir/other.go:42", err)
	}
	// Without .loc, no source.
	k = mustKernel(t, barKernel("setp.eq.u32 %p1, %r1, 7;\n\t@%p1 trap;"), "b")
	_, err = k.Run(ptxsim.Config{Block: [3]int{32}, Params: []uint64{0}})
	if !asError(err, &e) || e.Source != "" || e.Kind != ptxsim.FaultTrap {
		t.Errorf("trap without .loc got:%v", err)
	}
}

// PTX ISA 5.1.3 and 5.4.4: a module-scope .const array with an
// initializer (missing elements zero), read through its address in the
// constant space; out-of-bounds reads fault.
func TestConstArrays(t *testing.T) {
	text := header + `.const .align 4 .b32 tab[4] = {0x3F800000, 7, -2};
.const .align 8 .b64 big[2] = {0x123456789ABCDEF0, 0xFFFFFFFFFFFFFFFF};
.const .align 2 .b16 one = 0x1234;

.visible .entry c(.param .u64 out, .param .u32 i)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<8>;
	.reg .b16 %h<2>;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [i];
	mov.u64 %rd2, tab;
	mul.wide.u32 %rd3, %r1, 4;
	add.s64 %rd4, %rd2, %rd3;
	ld.const.b32 %r2, [%rd4];
	st.global.b32 [%rd1], %r2;
	mov.u64 %rd5, big;
	ld.const.b64 %rd6, [%rd5+8];
	st.global.b64 [%rd1+8], %rd6;
	ld.const.b64 %rd6, [big];
	st.global.b64 [%rd1+16], %rd6;
	ld.const.b16 %h1, [one];
	st.global.b16 [%rd1+24], %h1;
	ret;
}
`
	k := mustKernel(t, text, "c")
	for i, want := range []uint32{0x3F800000, 7, 0xFFFFFFFE, 0} {
		out := buffer("out", 0x1000, 32)
		if _, err := k.Run(ptxsim.Config{Params: []uint64{out.Addr, uint64(i)}, Global: []ptxsim.Region{out}}); err != nil {
			t.Fatalf("tab[%d]: %v", i, err)
		}
		if got := u32at(out.Data, 0); got != want {
			t.Errorf("tab[%d] got:%#x want:%#x", i, got, want)
		}
		b1, b0 := binary.LittleEndian.Uint64(out.Data[8:]), binary.LittleEndian.Uint64(out.Data[16:])
		if b1 != math.MaxUint64 || b0 != 0x123456789ABCDEF0 || binary.LittleEndian.Uint16(out.Data[24:]) != 0x1234 {
			t.Errorf("big and one got:%#x %#x %#x", b0, b1, binary.LittleEndian.Uint16(out.Data[24:]))
		}
	}
	out := buffer("out", 0x1000, 32)
	_, err := k.Run(ptxsim.Config{Params: []uint64{out.Addr, 4}, Global: []ptxsim.Region{out}})
	var e *ptxsim.Error
	if !asError(err, &e) || e.Kind != ptxsim.FaultAddress || !strings.Contains(err.Error(), "0 bytes after the end of const tab") {
		t.Errorf("tab[4] got:%v want: an out-of-bounds const read past tab", err)
	}
	// A launch's const regions may not overlap the module's bank.
	_, err = k.Run(ptxsim.Config{Params: []uint64{out.Addr, 0}, Global: []ptxsim.Region{out},
		Const: []ptxsim.Region{{Name: "c0", Addr: ptxsim.ConstBankAddr + 300, Data: make([]byte, 8)}}})
	if err == nil || !strings.Contains(err.Error(), "overlaps the module's constant bank") {
		t.Errorf("overlapping const region got:%v", err)
	}
	for _, c := range []struct{ decl, err string }{
		{".const .align 4 .b32 x[2] = {1, 2, 3};", "2 elements and 3 initializers"},
		{".const .align 4 .f32 x[1] = {1};", "integer literal"},
		{".const .align 4 .b32 x[2] = {1, %r1};", "takes numbers"},
		{".const .b32 x[1];\n.const .b32 x[1];", "declared twice"},
		{".global .b32 g[1];", "not supported"},
		{".extern .shared .align 16 .b8 d[4];", "unsized"},
	} {
		if _, err := ptxsim.Parse(header + c.decl + "\n"); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s got:%v want:%q", c.decl, err, c.err)
		}
	}
}

// dynKernel has static shared memory s[12] and dynamic shared memory d:
// thread i stores i+1 at d[i] and reads d[i^1] after a barrier, and writes
// %dynamic_smem_size and %total_smem_size.
const dynKernel = header + `.extern .shared .align 16 .b8 d[];

.visible .entry dyn(.param .u64 out)
{
	.reg .b32 %r<10>;
	.reg .b64 %rd<4>;
	.shared .align 4 .b8 s[12];
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, d;
	mad.lo.s32 %r3, %r1, 4, %r2;
	add.u32 %r4, %r1, 1;
	st.shared.u32 [%r3], %r4;
	bar.sync 0;
	xor.b32 %r5, %r1, 1;
	mad.lo.s32 %r6, %r5, 4, %r2;
	ld.shared.u32 %r7, [%r6];
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3+8], %r7;
	mov.u32 %r8, %dynamic_smem_size;
	mov.u32 %r9, %total_smem_size;
	st.global.u32 [%rd1], %r8;
	st.global.u32 [%rd1+4], %r9;
	st.global.u32 [%rd1+264], %r2;
	ret;
}
`

// PTX ISA 5.1.5: an .extern .shared unsized array is the launch's dynamic
// shared memory, after the static shared memory; the launch sizes it.
func TestDynamicShared(t *testing.T) {
	k := mustKernel(t, dynKernel, "dyn")
	if !k.DynamicShared || k.DynamicSharedOffset != 16 || k.SharedBytes != 12 {
		t.Fatalf("got:dynamic %v at %d static %d want:true 16 12", k.DynamicShared, k.DynamicSharedOffset, k.SharedBytes)
	}
	// Launches of different sizes reuse the kernel's blocks.
	for _, c := range []struct{ threads, dyn int }{{32, 128}, {64, 256}, {32, 160}, {64, 1000}} {
		out := buffer("out", 0x1000, 272)
		if _, err := k.Run(ptxsim.Config{Block: [3]int{c.threads}, DynamicSharedBytes: c.dyn, Params: []uint64{out.Addr},
			Global: []ptxsim.Region{out}}); err != nil {
			t.Fatalf("%d threads, %d bytes: %v", c.threads, c.dyn, err)
		}
		if got := [3]uint32{u32at(out.Data, 0), u32at(out.Data, 1), u32at(out.Data, 66)}; got != [3]uint32{uint32(c.dyn), uint32(16 + c.dyn), 16} {
			t.Errorf("%d bytes: dynamic, total, address got:%v want:[%d %d 16]", c.dyn, got, c.dyn, 16+c.dyn)
		}
		for i := range c.threads {
			if got := u32at(out.Data, 2+i); got != uint32(i^1)+1 {
				t.Errorf("thread %d got:%d want:%d", i, got, i^1+1)
			}
		}
	}
	// Too little dynamic shared memory: the fault names the array.
	out := buffer("out", 0x1000, 272)
	_, err := k.Run(ptxsim.Config{Block: [3]int{32}, DynamicSharedBytes: 64, Params: []uint64{out.Addr}, Global: []ptxsim.Region{out}})
	var e *ptxsim.Error
	if !asError(err, &e) || e.Kind != ptxsim.FaultAddress || e.Thread != [3]int{16, 0, 0} || !strings.Contains(err.Error(), "in d, byte 64 of the dynamic shared memory") {
		t.Errorf("64 bytes for 32 threads got:%v", err)
	}
	for _, n := range []int{-1, ptxsim.MaxSharedBytes} {
		if _, err := k.Run(ptxsim.Config{Block: [3]int{32}, DynamicSharedBytes: n, Params: []uint64{out.Addr}, Global: []ptxsim.Region{out}}); err == nil || !strings.Contains(err.Error(), "dynamic shared memory") {
			t.Errorf("%d bytes got:%v", n, err)
		}
	}
}

// PTX ISA 9.7.12.1: bar.red.popc.u32 gives every thread the number of
// threads of the block whose predicate holds, bar.red.and.pred whether it
// holds for all, bar.red.or.pred for any; {!}c negates it.
func TestBarRed(t *testing.T) {
	text := barKernel(`.reg .pred %q<4>;
	.reg .b32 %s<4>;
	rem.u32 %r2, %r1, 5;
	setp.eq.u32 %p1, %r2, 0;
	bar.red.popc.u32 %r3, 0, %p1;
	bar.red.popc.u32 %r4, 0, !%p1;
	setp.lt.u32 %p2, %r1, 1000;
	bar.red.and.pred %q1, 0, %p2;
	bar.red.and.pred %q2, 0, %p1;
	bar.red.or.pred %q3, 0, %p1;
	barrier.red.or.pred %q0, 0, !%p2;
	selp.b32 %s1, 1, 0, %q1;
	selp.b32 %s2, 2, 0, %q2;
	selp.b32 %s3, 4, 0, %q3;
	selp.b32 %s0, 8, 0, %q0;
	or.b32 %r5, %s1, %s2;
	or.b32 %r5, %r5, %s3;
	or.b32 %r5, %r5, %s0;
	mul.wide.u32 %rd2, %r1, 12;
	add.s64 %rd2, %rd1, %rd2;
	st.global.u32 [%rd2], %r3;
	st.global.u32 [%rd2+4], %r4;
	st.global.u32 [%rd2+8], %r5;`)
	k := mustKernel(t, text, "b")
	for _, n := range []int{1, 5, 33, 100} {
		out := buffer("out", 0x1000, 12*n)
		// Both blocks store their (equal) results to the same bytes: one
		// worker runs them in turn (see Config.Workers).
		if _, err := k.Run(ptxsim.Config{Grid: [3]int{2}, Block: [3]int{n}, Params: []uint64{out.Addr}, Global: []ptxsim.Region{out}, Workers: 1}); err != nil {
			t.Fatalf("%d threads: %v", n, err)
		}
		pop := uint32((n + 4) / 5)
		flags := uint32(1 | 4) // all below 1000; some multiple of 5 (thread 0)
		if pop == uint32(n) {
			flags |= 2
		}
		for i := range n {
			got := [3]uint32{u32at(out.Data, 3*i), u32at(out.Data, 3*i+1), u32at(out.Data, 3*i+2)}
			if want := [3]uint32{pop, uint32(n) - pop, flags}; got != want {
				t.Fatalf("%d threads, thread %d got:%v want:%v", n, i, got, want)
			}
		}
	}
	// A reduction is a barrier: divergent, it faults.
	k = mustKernel(t, barKernel(`setp.lt.u32 %p1, %r1, 40;
	@%p1 bra $x;
	bar.red.popc.u32 %r2, 0, %p1;
	ret;
$x:
	bar.red.popc.u32 %r2, 0, %p1;`), "b")
	_, err := k.Run(ptxsim.Config{Block: [3]int{64}, Params: []uint64{0}})
	var e *ptxsim.Error
	if !asError(err, &e) || e.Kind != ptxsim.FaultSync {
		t.Errorf("divergent bar.red got:%v", err)
	}
	for _, c := range []struct{ instr, err string }{
		{"bar.red.popc.pred %p2, 0, %p1;", "takes .u32"},
		{"bar.red.and.u32 %r2, 0, %p1;", "takes .pred"},
		{"bar.red.xor.pred %p2, 0, %p1;", "needs .popc, .and or .or"},
		{"bar.red.popc.u32 %r2, %p1;", "operands"},
	} {
		if _, err := ptxsim.Parse(barKernel("setp.eq.u32 %p1, %r1, 0;\n\t" + c.instr)); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s got:%v want:%q", c.instr, err, c.err)
		}
	}
}

// explicit_lineinfo.ptx, what the emitter writes for an explicit kernel
// with line info, constant and dynamic shared arrays, barrier reductions,
// warp sync, counting atomics and a checked trap, runs with the results
// its instructions define: thread t of n stores u32(coef[(t^1)%3]) + 7 +
// 100 + the dynamic bytes at out[t+3] (coef = {1, 2, -3}, which cvt.rzi.u32
// saturates to 0; 7 threads have tid < 7; the and-reduction of true is
// true), atom.inc bound 9 counts out[1] modulo 10 and atom.dec bound 9
// counts out[2] down modulo 10; a thread at or past n sets out[0] to 5 and
// traps at line 11 of its file.
func TestExplicitLineinfoRuns(t *testing.T) {
	b, err := os.ReadFile("../../codegen/ptx/testdata/explicit_lineinfo.ptx")
	if err != nil {
		t.Fatal(err)
	}
	m, err := ptxsim.Parse(string(b))
	if err != nil {
		t.Fatal(err)
	}
	coef := []uint32{1, 2, 0}
	for _, name := range []string{"first", "second"} {
		k, err := m.Kernel(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct{ grid, threads int }{{1, 32}, {1, 64}, {3, 96}} {
			dyn := 4 * c.threads
			out := buffer("out", 0x1000, 4*(c.threads+3))
			// Every block stores the same values to out[3:] with plain
			// stores, a write-write race between blocks on a GPU too:
			// one worker runs the blocks one after another, so that the
			// race is not one between the simulator's goroutines.
			if _, err := k.Run(ptxsim.Config{Grid: [3]int{c.grid}, Block: [3]int{c.threads}, DynamicSharedBytes: dyn,
				Params: []uint64{out.Addr, uint64(c.threads)}, Global: []ptxsim.Region{out}, Workers: 1}); err != nil {
				t.Fatalf("%s %v: %v", name, c, err)
			}
			calls := c.grid * c.threads
			inc, dec := uint32(calls%10), uint32((10-calls%10)%10)
			if got := [3]uint32{u32at(out.Data, 0), u32at(out.Data, 1), u32at(out.Data, 2)}; got != [3]uint32{0, inc, dec} {
				t.Errorf("%s %v: out[0:3] got:%v want:[0 %d %d]", name, c, got, inc, dec)
			}
			for i := range c.threads {
				want := coef[(i^1)%3] + 7 + 100 + uint32(dyn)
				if got := u32at(out.Data, 3+i); got != want {
					t.Errorf("%s %v: out[%d] got:%d want:%d", name, c, 3+i, got, want)
				}
			}
		}
		// Threads at or past n trap, naming their source line.
		out := buffer("out", 0x1000, 4*(32+3))
		_, err = k.Run(ptxsim.Config{Block: [3]int{32}, DynamicSharedBytes: 128, Params: []uint64{out.Addr, 20}, Global: []ptxsim.Region{out}})
		var e *ptxsim.Error
		if !asError(err, &e) || e.Kind != ptxsim.FaultTrap || e.Source != name+".go:11" || e.Thread[0] < 20 || e.Kernel != name {
			t.Errorf("%s with n=20 got:%v want: a trap at %s.go:11 of a thread >= 20", name, err, name)
		}
		if got := u32at(out.Data, 0); got != 5 {
			t.Errorf("%s: the check flag got:%d want:5", name, got)
		}
	}
}
