// Tests of the young list: every Array on it knows its place, Arrays
// leave it when released or given their finalizer, and it never grows
// past maxYoung.

package array

import (
	"math/rand/v2"
	"testing"

	"github.com/fuseflow/fuseflow/exec/cpu"
)

// checkYoung asserts c's young list invariants: each Array's index
// points back at it, and each holds a result without a finalizer.
func checkYoung(t *testing.T, c *Context) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.young) > maxYoung {
		t.Fatalf("young list length got:%d want:<= %d", len(c.young), maxYoung)
	}
	for i, a := range c.young {
		if int(a.young) != i+1 || a.final || a.e == nil || a.released {
			t.Fatalf("young[%d]: index got:%d want:%d, final %v, holds %v, released %v", i, a.young, i+1, a.final, a.e != nil, a.released)
		}
	}
}

func TestYoungList(t *testing.T) {
	c := MustContext(WithBackend(cpu.New(cpu.Options{})))
	r := rand.New(rand.NewPCG(3, 4))
	var live []*Array
	for i := range 3 * maxYoung {
		a := FromSlice(c, []float32{float32(i)}, 1)
		live = append(live, a)
		if r.IntN(3) == 0 {
			k := r.IntN(len(live))
			live[k].Release()
			if live[k].young != 0 || live[k].final {
				t.Fatalf("released Array still young (%d) or finalized (%v)", live[k].young, live[k].final)
			}
			live = append(live[:k], live[k+1:]...)
		}
		checkYoung(t, c)
	}
	if got := c.Live(); got != len(live) {
		t.Errorf("live results got:%d want:%d", got, len(live))
	}
	finals := 0
	for _, a := range live {
		if a.final {
			finals++
		}
	}
	if finals == 0 {
		t.Errorf("no Array got its finalizer after %d were held", 3*maxYoung)
	}
	for _, a := range live {
		a.Release()
		checkYoung(t, c)
	}
	if len(c.young) != 0 || c.Live() != 0 {
		t.Errorf("after releasing all: young got:%d live got:%d want:0 0", len(c.young), c.Live())
	}
}
