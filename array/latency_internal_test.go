// Sizes of what a warm Eval allocates per call.

package array

import (
	"testing"
	"unsafe"
)

// TestArraySize keeps an Array within the collector's 48-byte size class:
// every op allocates one, and the bytes allocated per call set how often
// the collector runs (and turns on its write barriers) in a loop of small
// evaluations.
func TestArraySize(t *testing.T) {
	if got := unsafe.Sizeof(Array{}); got > 48 {
		t.Errorf("unsafe.Sizeof(Array{}) got:%d want:<= 48", got)
	}
}
