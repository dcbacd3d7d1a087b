// Tests of the warp-level instructions: shfl.sync (PTX ISA 9.7.8.6),
// vote.sync (9.7.12.7), activemask (9.7.12.9), and their rendezvous.

package ptxsim_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fuseflow/fuseflow/internal/ptxsim"
)

// warpKernel runs body for every thread with %r1 = %laneid, %r2 = lane*10,
// and stores %r3 (and %p1 as 0/1) to out[tid] (out[32+tid]).
func warpKernel(decls, body string) string {
	return header + `.visible .entry w(.param .u64 out)
{
	.reg .pred %p<4>;
	.reg .b32 %r<10>;
	.reg .b64 %rd<5>;
	` + decls + `
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %laneid;
	mul.lo.u32 %r2, %r1, 10;
	mov.u32 %r3, 0;
	setp.ne.u32 %p1, %r1, %r1;
	` + body + `
	mov.u32 %r9, %tid.x;
	mul.wide.u32 %rd2, %r9, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r3;
	selp.u32 %r8, 1, 0, %p1;
	st.global.u32 [%rd3+128], %r8;
	ret;
}
`
}

// runWarp runs a warpKernel with n threads and returns out (values, then
// predicates).
func runWarp(t *testing.T, text string, n int) ([]uint32, error) {
	t.Helper()
	k := mustKernel(t, text, "w")
	out := buffer("out", 0x1000, 4*64)
	_, err := k.Run(ptxsim.Config{Grid: [3]int{1}, Block: [3]int{n}, Params: []uint64{out.Addr}, Global: []ptxsim.Region{out}})
	res := make([]uint32, 64)
	for i := range res {
		res[i] = u32at(out.Data, i)
	}
	return res, err
}

// PTX ISA 9.7.8.6: the source lane j per mode, clamped by c (c[4:0] the
// clamp, c[12:8] the segment mask); out of range copies the own value with
// p false.
func TestShflModes(t *testing.T) {
	for _, c := range []struct {
		instr string
		want  func(l int) (int, bool) // source lane and p
	}{
		{"shfl.sync.up.b32 %r3|%p1, %r2, 1, 0, 0xffffffff;", func(l int) (int, bool) {
			if l < 1 {
				return l, false
			}
			return l - 1, true
		}},
		{"shfl.sync.down.b32 %r3|%p1, %r2, 3, 31, 0xffffffff;", func(l int) (int, bool) {
			if l+3 > 31 {
				return l, false
			}
			return l + 3, true
		}},
		{"shfl.sync.bfly.b32 %r3|%p1, %r2, 5, 31, 0xffffffff;", func(l int) (int, bool) { return l ^ 5, true }},
		{"shfl.sync.idx.b32 %r3|%p1, %r2, 7, 31, 0xffffffff;", func(l int) (int, bool) { return 7, true }},
		// Segments of 8 lanes: c = (32-8)<<8 | 31 - idx 2 is lane 2 of the segment.
		{"shfl.sync.idx.b32 %r3|%p1, %r2, 2, 0x181f, 0xffffffff;", func(l int) (int, bool) { return l&^7 | 2, true }},
		// Segments of 8 for down: clamp at the segment's last lane.
		{"shfl.sync.down.b32 %r3|%p1, %r2, 4, 0x1807, 0xffffffff;", func(l int) (int, bool) {
			if l&7+4 > 7 {
				return l, false
			}
			return l + 4, true
		}},
		// Segments of 16 for up: clamp at the segment's first lane.
		{"shfl.sync.up.b32 %r3|%p1, %r2, 2, 0x1000, 0xffffffff;", func(l int) (int, bool) {
			if l&15 < 2 {
				return l, false
			}
			return l - 2, true
		}},
	} {
		got, err := runWarp(t, warpKernel("", c.instr), 32)
		if err != nil {
			t.Fatalf("%s: %v", c.instr, err)
		}
		for l := range 32 {
			src, p := c.want(l)
			wp := uint32(0)
			if p {
				wp = 1
			}
			if got[l] != uint32(10*src) || got[32+l] != wp {
				t.Errorf("%s lane %d got:%d p=%d want:%d p=%d", c.instr, l, got[l], got[32+l], 10*src, wp)
			}
		}
	}
}

// Reading a lane that did not execute the shuffle, or is not in the
// member mask, is unpredictable: a fault.
func TestShflInactiveSource(t *testing.T) {
	// Only lanes 0-15 shuffle, with the matching member mask; lane 15
	// reads lane 16.
	body := `setp.lt.u32 %p2, %r1, 16;
	@!%p2 bra $skip;
	shfl.sync.down.b32 %r3, %r2, 1, 31, 0xffff;
$skip:`
	_, err := runWarp(t, warpKernel("", body), 32)
	if err == nil || !strings.Contains(err.Error(), "reads lane 16") {
		t.Errorf("got %v, want a fault reading lane 16", err)
	}
	// A block of 48 threads: the second warp has 16 lanes; with the full
	// mask the shuffle runs (missing lanes count as exited) but lane 15
	// reading lane 16 faults.
	_, err = runWarp(t, warpKernel("", "shfl.sync.down.b32 %r3, %r2, 1, 31, 0xffffffff;"), 48)
	if err == nil || !strings.Contains(err.Error(), "reads lane 16") || !strings.Contains(err.Error(), "thread (47,0,0)") {
		t.Errorf("got %v", err)
	}
	// The executing lane must be in the member mask.
	_, err = runWarp(t, warpKernel("", "shfl.sync.idx.b32 %r3, %r2, 0, 31, 0xfffffffe;"), 32)
	if err == nil || !strings.Contains(err.Error(), "not in the member mask") {
		t.Errorf("got %v", err)
	}
}

// Lanes that reach a shuffle at different times (after divergent loops)
// meet there: the shuffle waits for every lane of the mask.
func TestShflAfterDivergence(t *testing.T) {
	// Lane l loops l times adding 1 to %r4; then all shuffle %r4 down by 1.
	body := `mov.u32 %r4, 0;
	mov.u32 %r5, 0;
$loop:
	setp.ge.u32 %p2, %r5, %r1;
	@%p2 bra $done;
	add.u32 %r4, %r4, 1;
	add.u32 %r5, %r5, 1;
	bra $loop;
$done:
	shfl.sync.down.b32 %r3, %r4, 1, 31, 0xffffffff;`
	got, err := runWarp(t, warpKernel("", body), 32)
	if err != nil {
		t.Fatal(err)
	}
	for l := range 32 {
		want := uint32(min(l+1, 31))
		if l == 31 {
			want = 31
		}
		if got[l] != want {
			t.Errorf("lane %d got:%d want:%d", l, got[l], want)
		}
	}
	// Halves of the warp at two different shuffles with the full mask
	// wait for each other forever: a deadlock naming both.
	body = `setp.lt.u32 %p2, %r1, 16;
	@%p2 bra $a;
	shfl.sync.down.b32 %r3, %r2, 1, 31, 0xffffffff;
	bra $end;
$a:
	shfl.sync.up.b32 %r3, %r2, 1, 0, 0xffffffff;
$end:`
	_, err = runWarp(t, warpKernel("", body), 32)
	var e *ptxsim.Error
	if !asError(err, &e) || e.Kind != ptxsim.FaultSync || !strings.Contains(err.Error(), "deadlock") || !strings.Contains(err.Error(), "lanes 0xffff ") || !strings.Contains(err.Error(), "lanes 0xffff0000") {
		t.Errorf("got %v", err)
	}
}

// PTX ISA 9.7.12.7 vote.sync: all, any and uni over the member mask's
// lanes, with the source predicate optionally negated; ballot collects
// the predicates by lane.
func TestVote(t *testing.T) {
	for _, c := range []struct {
		setup, instr string
		want         func(l int) uint32
	}{
		{"setp.lt.u32 %p2, %r1, 32;", "vote.sync.all.pred %p1, %p2, 0xffffffff;", func(int) uint32 { return 1 }},
		{"setp.lt.u32 %p2, %r1, 31;", "vote.sync.all.pred %p1, %p2, 0xffffffff;", func(int) uint32 { return 0 }},
		// Only lanes 0-30 vote, over their own mask.
		{"setp.lt.u32 %p2, %r1, 31;\n\t@!%p2 bra $s;", "vote.sync.all.pred %p1, %p2, 0x7fffffff;\n$s:", func(l int) uint32 {
			if l < 31 {
				return 1
			}
			return 0
		}},
		{"setp.eq.u32 %p2, %r1, 5;", "vote.sync.any.pred %p1, %p2, 0xffffffff;", func(int) uint32 { return 1 }},
		{"setp.eq.u32 %p2, %r1, 5;", "vote.sync.any.pred %p1, !%p2, 0xffffffff;", func(int) uint32 { return 1 }},
		{"setp.gt.u32 %p2, %r1, 40;", "vote.sync.any.pred %p1, %p2, 0xffffffff;", func(int) uint32 { return 0 }},
		{"setp.gt.u32 %p2, %r1, 40;", "vote.sync.uni.pred %p1, %p2, 0xffffffff;", func(int) uint32 { return 1 }},
		{"setp.gt.u32 %p2, %r1, 3;", "vote.sync.uni.pred %p1, %p2, 0xffffffff;", func(int) uint32 { return 0 }},
	} {
		got, err := runWarp(t, warpKernel("", c.setup+"\n\t"+c.instr), 32)
		if err != nil {
			t.Fatalf("%s: %v", c.instr, err)
		}
		for l := range 32 {
			if got[32+l] != c.want(l) {
				t.Errorf("%s (%s) lane %d got:%d want:%d", c.instr, c.setup, l, got[32+l], c.want(l))
			}
		}
	}
	got, err := runWarp(t, warpKernel("", "and.b32 %r4, %r1, 1;\n\tsetp.eq.u32 %p2, %r4, 1;\n\tvote.sync.ballot.b32 %r3, %p2, 0xffffffff;"), 32)
	if err != nil {
		t.Fatal(err)
	}
	for l := range 32 {
		if got[l] != 0xaaaaaaaa {
			t.Errorf("ballot lane %d got:%#x want:0xaaaaaaaa", l, got[l])
		}
	}
}

// PTX ISA 9.7.12.9 activemask: the lanes executing it together.
func TestActivemask(t *testing.T) {
	body := `setp.lt.u32 %p2, %r1, 12;
	@%p2 bra $a;
	activemask.b32 %r3;
	bra $end;
$a:
	activemask.b32 %r3;
$end:`
	got, err := runWarp(t, warpKernel("", body), 32)
	if err != nil {
		t.Fatal(err)
	}
	for l := range 32 {
		want := uint32(0xfffff000)
		if l < 12 {
			want = 0xfff
		}
		if got[l] != want {
			t.Errorf("lane %d got:%#x want:%#x", l, got[l], want)
		}
	}
	_ = fmt.Sprint()
}
