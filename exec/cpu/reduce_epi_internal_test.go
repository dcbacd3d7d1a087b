// The chunk a Reduce kernel's epilogue runs in: no longer than its
// outputs rounded up to 64, so that a full reduction does not fill a
// whole chunk of constant registers to finish one value.

package cpu

import "testing"

func TestEpiChunk(t *testing.T) {
	cases := []struct{ chunk, outer, want int }{
		{30016, 1, 64}, {30016, 0, 64}, {30016, 64, 64}, {30016, 65, 128},
		{30016, 40000, 30016}, {30016, 30000, 30016}, {7, 1, 7}, {64, 3, 64}, {512, 300, 320},
	}
	for _, c := range cases {
		if got := epiChunk(c.chunk, c.outer); got != c.want {
			t.Errorf("epiChunk(%d, %d) got:%d want:%d", c.chunk, c.outer, got, c.want)
		}
	}
}
