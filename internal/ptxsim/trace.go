// This file implements the debugging aids of a launch: a trace of every
// instruction one thread executes with the values it writes, and a watch
// of the global stores and atomics that write an address. Tests use them
// to explain a disagreement (which thread wrote a wrong element, and how
// it computed it).

package ptxsim

import (
	"fmt"
	"strings"
	"sync"
)

// Trace asks Run to record the instructions one thread executes.
type Trace struct {
	CTA, Thread [3]int // the thread to follow
	// Limit bounds the lines kept (the last ones win); 0 means 2000.
	Limit int
	// Lines is filled by Run: "line 42: add.rn.f32 %f3, %f1, %f2; -> 1.5
	// (0x3fc00000)".
	Lines []string
}

// Watch asks Run to record every global store or atomic that writes the
// byte at Addr.
type Watch struct {
	Addr uint64
	// Hits is filled by Run, in the order the writes happened.
	Hits []WatchHit
	mu   sync.Mutex
}

// WatchHit is one write Watch saw.
type WatchHit struct {
	CTA, Thread [3]int
	Line        int
	Instr       string
	Addr        uint64 // of the access holding Watch.Addr
	Bytes       []byte // written
}

// String renders the hit.
func (h WatchHit) String() string {
	return fmt.Sprintf("block %v thread %v, line %d (%s): wrote %x at %#x", h.CTA, h.Thread, h.Line, h.Instr, h.Bytes, h.Addr)
}

// traceLane returns the lane of w that is traced, or -1.
func (w *warp) traceLane() int {
	t := w.b.rs.trace
	if t == nil || w.b.ctaid != t.CTA {
		return -1
	}
	bl := w.b.rs.block
	lin := t.Thread[0] + bl[0]*(t.Thread[1]+bl[1]*t.Thread[2])
	if lin/32 != w.id {
		return -1
	}
	return lin % 32
}

// record appends the trace line of in executed by lane l (when it ran:
// guard true).
func (w *warp) record(in *inst, l int, ran bool) {
	t := w.b.rs.trace
	var sb strings.Builder
	fmt.Fprintf(&sb, "line %d: %s", in.line, in.text)
	if !ran {
		sb.WriteString("  (guard false)")
	} else {
		for i := 0; i < int(in.nd); i++ {
			d := in.d[i]
			if d < 0 {
				continue
			}
			if isPredDef(in, i) {
				fmt.Fprintf(&sb, "  -> %v", w.preds[d]&(1<<uint(l)) != 0)
				continue
			}
			v := w.r(d)[l]
			switch in.t {
			case tF32:
				fmt.Fprintf(&sb, "  -> %v (%#x)", f32(v), uint32(v))
			case tF64:
				fmt.Fprintf(&sb, "  -> %v (%#x)", f64(v), v)
			default:
				fmt.Fprintf(&sb, "  -> %#x", v)
			}
		}
	}
	limit := t.Limit
	if limit <= 0 {
		limit = 2000
	}
	if len(t.Lines) >= limit {
		t.Lines = t.Lines[1:]
	}
	t.Lines = append(t.Lines, sb.String())
}

// isPredDef reports whether destination i of in is a predicate.
func isPredDef(in *inst, i int) bool { return in.pdst&(1<<uint(i)) != 0 }

// watchStore records a global write of size bytes at a by lane l.
func (w *warp) watchStore(in *inst, l int, a uint64, size int, p []byte) {
	wt := w.b.rs.watch
	if wt == nil || wt.Addr < a || wt.Addr >= a+uint64(size) {
		return
	}
	wt.mu.Lock()
	defer wt.mu.Unlock()
	wt.Hits = append(wt.Hits, WatchHit{CTA: w.b.ctaid, Thread: w.b.rs.tidOf(w.id*32 + l), Line: int(in.line),
		Instr: in.text, Addr: a, Bytes: append([]byte(nil), p...)})
}
