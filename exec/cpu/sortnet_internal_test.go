// The comparator networks of sortnet.go sort: every 0/1 input of up to
// 14 elements (the 0-1 principle: a network that sorts all of them
// sorts everything) and random rows of every length up to 256 and some
// up to netMax.

package cpu

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// applyPairs runs the comparators over x.
func applyPairs(x []uint32, pairs [][2]int) {
	for _, p := range pairs {
		if x[p[0]] > x[p[1]] {
			x[p[0]], x[p[1]] = x[p[1]], x[p[0]]
		}
	}
}

func TestBatcherPairsSort(t *testing.T) {
	for n := 0; n <= 14; n++ {
		pairs := batcherPairs(n)
		x := make([]uint32, n)
		for bits := range 1 << n {
			for i := range x {
				x[i] = uint32(bits>>i) & 1
			}
			applyPairs(x, pairs)
			if !slices.IsSorted(x) {
				t.Fatalf("n %d input %b: got:%v", n, bits, x)
			}
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	lengths := []int{300, 511, 512, 513, 1000, netMax - 1, netMax}
	for n := 255; n >= 15; n-- {
		lengths = append(lengths, n)
	}
	for _, n := range lengths {
		x := make([]uint32, n)
		pairs := batcherPairs(n)
		for range 20 {
			for i := range x {
				x[i] = r.Uint32N(50)
			}
			want := slices.Sorted(slices.Values(x))
			applyPairs(x, pairs)
			if !slices.Equal(x, want) {
				t.Fatalf("n %d: got:%v want:%v", n, x, want)
			}
		}
	}
	if got := len(batcherPairs(8)); got != 19 {
		t.Errorf("comparators for 8: got:%d want:19", got)
	}
}

// TestNetCmp32 checks the vector network of a block (the groups of 16
// in registers, then the comparators left) against applyPairs.
func TestNetCmp32(t *testing.T) {
	if netLanes32 == 0 {
		t.Skip("no vector network loop on this CPU")
	}
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{2, 8, 9, 15, 16, 17, 31, 32, 33, 128, 200, 256, 1000, 4096} {
		block := make([]uint32, n*netLanes32)
		for i := range block {
			block[i] = r.Uint32()
		}
		want := make([][]uint32, netLanes32)
		for l := range want {
			for j := range n {
				want[l] = append(want[l], block[j*netLanes32+l])
			}
			applyPairs(want[l], batcherPairs(n))
		}
		netPlanOf(n).sort(block)
		for l := range want {
			for j := range n {
				if got := block[j*netLanes32+l]; got != want[l][j] {
					t.Fatalf("n %d lane %d element %d: got:%d want:%d", n, l, j, got, want[l][j])
				}
			}
		}
	}
}
