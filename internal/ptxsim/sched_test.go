// Tests of the execution model: special registers of multi-dimensional
// launches (PTX ISA chapter 10), barriers (9.7.12.1) with their
// divergence rule and exited threads (9.7.11.7), the step budget, trap,
// and deterministic fault reports.

package ptxsim_test

import (
	"strings"
	"testing"

	"github.com/fuseflow/fuseflow/internal/ptxsim"
)

// TestSpecialRegisters stores every special register of every thread of
// a 3-D grid of 3-D blocks.
func TestSpecialRegisters(t *testing.T) {
	regs := []string{"%tid.x", "%tid.y", "%tid.z", "%ntid.x", "%ntid.y", "%ntid.z", "%ctaid.x", "%ctaid.y", "%ctaid.z",
		"%nctaid.x", "%nctaid.y", "%nctaid.z", "%laneid", "%warpid", "%lanemask_lt"}
	var body strings.Builder
	for i, r := range regs {
		body.WriteString("\tmov.u32 %r1, " + r + ";\n\tst.global.u32 [%rd3+" + strings.TrimSpace(itoa4(i)) + "], %r1;\n")
	}
	text := header + `.visible .entry sr(.param .u64 out)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r2, %tid.x;
	mov.u32 %r3, %tid.y;
	mov.u32 %r4, %tid.z;
	mad.lo.u32 %r5, %r4, 4, %r3;
	mad.lo.u32 %r5, %r5, 8, %r2;
	mov.u32 %r6, %ctaid.x;
	mov.u32 %r7, %ctaid.y;
	mad.lo.u32 %r6, %r7, 2, %r6;
	mad.lo.u32 %r5, %r6, 64, %r5;
	mul.wide.u32 %rd2, %r5, 64;
	add.s64 %rd3, %rd1, %rd2;
` + body.String() + `	ret;
}
`
	k := mustKernel(t, text, "sr")
	out := buffer("out", 0x1000, 64*64*6)
	// Blocks write disjoint memory: several workers run them at once.
	if _, err := k.Run(ptxsim.Config{Grid: [3]int{2, 3}, Block: [3]int{8, 4, 2}, Params: []uint64{out.Addr}, Global: []ptxsim.Region{out}, Workers: 3}); err != nil {
		t.Fatal(err)
	}
	for by := range 3 {
		for bx := range 2 {
			for z := range 2 {
				for y := range 4 {
					for x := range 8 {
						lin := z*32 + y*8 + x
						row := (by*2+bx)*64 + lin
						want := []uint32{uint32(x), uint32(y), uint32(z), 8, 4, 2, uint32(bx), uint32(by), 0, 2, 3, 1,
							uint32(lin % 32), uint32(lin / 32), 1<<uint(lin%32) - 1}
						for i, w := range want {
							if g := u32at(out.Data, row*16+i); g != w {
								t.Fatalf("block (%d,%d) thread (%d,%d,%d) %s got:%d want:%d", bx, by, x, y, z, regs[i], g, w)
							}
						}
					}
				}
			}
		}
	}
}

func itoa4(i int) string {
	n := 4 * i
	s := ""
	for {
		s = string(rune('0'+n%10)) + s
		n /= 10
		if n == 0 {
			return s
		}
	}
}

// barKernel: threads with %tid.x < split take one path, the others
// another, as body says.
func barKernel(body string) string {
	return header + `.visible .entry b(.param .u64 out)
{
	.reg .pred %p<3>;
	.reg .b32 %r<6>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	` + body + `
	ret;
}
`
}

// PTX ISA 9.7.12.1: bar.sync is aligned - every thread of the block at
// the same instruction - so a barrier inside a branch some threads skip
// is an error; threads that exited release it (9.7.11.7).
func TestBarrierRules(t *testing.T) {
	run := func(body string, n int) error {
		k := mustKernel(t, barKernel(body), "b")
		out := buffer("out", 0x1000, 4096)
		_, err := k.Run(ptxsim.Config{Grid: [3]int{1}, Block: [3]int{n}, Params: []uint64{out.Addr}, Global: []ptxsim.Region{out}})
		return err
	}
	// Divergent: warp 0 at one bar.sync, warp 1 at another.
	err := run(`setp.lt.u32 %p1, %r1, 32;
	@%p1 bra $a;
	bar.sync 0;
	bra $end;
$a:
	bar.sync 0;
$end:`, 64)
	var e *ptxsim.Error
	if !asError(err, &e) || e.Kind != ptxsim.FaultSync || !strings.Contains(err.Error(), "divergent barrier") {
		t.Errorf("two barriers got:%v", err)
	}
	// Divergent inside a warp: the guard of bar.sync false for some lanes.
	err = run(`setp.lt.u32 %p1, %r1, 5;
	@%p1 bar.sync 0;`, 32)
	if !asError(err, &e) || !strings.Contains(err.Error(), "divergent barrier") {
		t.Errorf("guarded barrier got:%v", err)
	}
	// A barrier only some threads reach, the others having exited: fine.
	if err := run(`setp.ge.u32 %p1, %r1, 40;
	@%p1 ret;
	bar.sync 0;`, 64); err != nil {
		t.Errorf("exited threads got:%v", err)
	}
	// A barrier some threads wait at while the others wait at a shuffle
	// that needs them: a deadlock.
	err = run(`setp.lt.u32 %p1, %r1, 16;
	@%p1 bra $a;
	shfl.sync.idx.b32 %r2, %r1, 0, 31, 0xffffffff;
	bra $end;
$a:
	bar.sync 0;
$end:`, 32)
	if !asError(err, &e) || !strings.Contains(err.Error(), "deadlock") {
		t.Errorf("barrier against shuffle got:%v", err)
	}
	// Barriers in a loop, uniform trip count: fine.
	if err := run(`mov.u32 %r2, 0;
$loop:
	bar.sync 0;
	add.u32 %r2, %r2, 1;
	setp.lt.u32 %p1, %r2, 5;
	@%p1 bra $loop;`, 128); err != nil {
		t.Errorf("loop got:%v", err)
	}
}

// A runaway loop ends at the step budget; trap aborts; a fault is the
// lowest faulting block's, whatever the scheduling.
func TestBudgetTrapDeterminism(t *testing.T) {
	k := mustKernel(t, barKernel("$loop:\n\tbra $loop;"), "b")
	_, err := k.Run(ptxsim.Config{Grid: [3]int{1}, Block: [3]int{32}, Params: []uint64{0}, MaxSteps: 100000})
	var e *ptxsim.Error
	if !asError(err, &e) || e.Kind != ptxsim.FaultSteps {
		t.Errorf("runaway loop got:%v", err)
	}
	k = mustKernel(t, barKernel("setp.eq.u32 %p1, %r1, 7;\n\t@%p1 trap;"), "b")
	_, err = k.Run(ptxsim.Config{Grid: [3]int{1}, Block: [3]int{32}, Params: []uint64{0}})
	if !asError(err, &e) || e.Thread != [3]int{7, 0, 0} || !strings.Contains(err.Error(), "trap") {
		t.Errorf("trap got:%v", err)
	}
	// Every block from 5 on writes out of bounds: the fault reported is
	// block 5's, with any number of workers.
	text := barKernel(`mov.u32 %r2, %ctaid.x;
	mul.wide.u32 %rd2, %r2, 4;
	add.s64 %rd2, %rd1, %rd2;
	st.global.u32 [%rd2], %r1;`)
	k = mustKernel(t, text, "b")
	for _, w := range []int{1, 2, 7} {
		_, err = k.Run(ptxsim.Config{Grid: [3]int{40}, Block: [3]int{32}, Params: []uint64{0x1000},
			Global: []ptxsim.Region{buffer("out", 0x1000, 20)}, Workers: w})
		if !asError(err, &e) || e.CTA != [3]int{5, 0, 0} {
			t.Errorf("%d workers got:%v", w, err)
		}
	}
}
