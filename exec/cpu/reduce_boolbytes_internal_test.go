// boolBytes, the word loop that turns column states into bool results,
// against a byte-at-a-time loop: every length from 0 to 40 and some long
// ones, any byte values, each way of combining.

package cpu

import (
	"math/rand/v2"
	"testing"
)

func TestBoolBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	for n := range 300 {
		if n > 40 && n%37 != 0 {
			continue
		}
		for comb := range 3 {
			s, d := make([]byte, n), make([]byte, n)
			for k := range s {
				s[k] = []byte{0, 0, 1, 2, 0x80, 0xff, 0x7f}[r.IntN(7)]
				d[k] = byte(r.IntN(2))
			}
			want := make([]byte, n)
			for k, v := range s {
				x := b2u(v != 0)
				switch comb {
				case 1:
					x |= d[k]
				case 2:
					x &= d[k]
				}
				want[k] = x
			}
			boolBytes(d, s, comb)
			for k := range want {
				if d[k] != want[k] {
					t.Fatalf("n=%d comb=%d byte %d (source %#x): got:%d want:%d", n, comb, k, s[k], d[k], want[k])
				}
			}
		}
	}
}
