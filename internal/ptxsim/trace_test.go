// Tests of the debugging aids: Watch finds the thread that wrote an
// address, Trace lists what that thread executed with its values.

package ptxsim_test

import (
	"strings"
	"testing"

	"github.com/fuseflow/fuseflow/internal/ptxsim"
)

func TestWatchAndTrace(t *testing.T) {
	k := mustKernel(t, copyKernel("f32", "", 4, ".reg .f32 %f;", "%f"), "copy")
	in, out := buffer("in", 0x1000, 4*64), buffer("out", 0x100000, 4*64)
	cfg := ptxsim.Config{Grid: [3]int{2}, Block: [3]int{32}, Params: []uint64{in.Addr, out.Addr}, Global: []ptxsim.Region{in, out}}
	// The copy kernel indexes by %tid.x alone: element 5 is written by
	// thread 5 of each block.
	w := &ptxsim.Watch{Addr: out.Addr + 4*5 + 2}
	cfg.Watch = w
	if _, err := k.Run(cfg); err != nil {
		t.Fatal(err)
	}
	if len(w.Hits) != 2 || w.Hits[0].Thread != [3]int{5, 0, 0} || !strings.Contains(w.Hits[0].Instr, "st.global.f32") {
		t.Fatalf("hits %v", w.Hits)
	}
	tr := &ptxsim.Trace{CTA: [3]int{1, 0, 0}, Thread: [3]int{5, 0, 0}}
	cfg.Watch, cfg.Trace = nil, tr
	if _, err := k.Run(cfg); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(tr.Lines, "\n")
	for _, want := range []string{"line 12: mov.u32 %r1, %tid.x;  -> 0x5", "line 16: ld.global.f32 %f, [%rd4];  -> 0", "line 17: st.global.f32 [%rd5], %f;", "line 18: ret;"} {
		if !strings.Contains(got, want) {
			t.Errorf("trace lacks %q:\n%s", want, got)
		}
	}
}
