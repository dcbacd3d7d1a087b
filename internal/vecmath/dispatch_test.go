// Tests of the path choice: the environment variable's switch and
// SetASM's switch, seen through Path and through the exported functions'
// results.

package vecmath

import (
	"math"
	"testing"

	"github.com/fuseflow/fuseflow/internal/config"
)

// TestNoASM checks init's choice against the switch (whose spellings
// internal/config tests).
func TestNoASM(t *testing.T) {
	want := cpuPath()
	if config.Enabled(config.NoASM) {
		want = pathPORTABLE
	}
	if atInit != want {
		t.Errorf("FUSEFLOW_NOASM on: %v; path at init got:%v want:%v", config.Enabled(config.NoASM), atInit, want)
	}
}

func TestSetASM(t *testing.T) {
	was := SetASM(true)
	defer SetASM(was)
	// x holds a float32 argument of sin beyond the Cody-Waite range, so
	// the vector code hands its vector to the portable code: the results
	// are the same bits on every path.
	x := []float32{0.5, -3, 1e7, 100, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}
	for _, c := range []struct {
		on   bool
		want path
	}{{false, pathPORTABLE}, {true, cpuPath()}, {false, pathPORTABLE}} {
		SetASM(c.on)
		if got := Path(); got != c.want.String() {
			t.Errorf("SetASM(%v): Path() got:%v want:%v", c.on, got, c.want)
		}
		got, want := make([]float32, len(x)), make([]float32, len(x))
		SinF32(got, x)
		sinF32K.runOn(c.want, want, x)
		for i := range x {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Errorf("SetASM(%v): sin(%v) got:%v want:%v", c.on, x[i], got[i], want[i])
			}
		}
	}
	SetASM(true)
	if got := SetASM(false); got != (cpuPath() != pathPORTABLE) {
		t.Errorf("SetASM after vector code reported got:%v want:%v", got, cpuPath() != pathPORTABLE)
	}
}
