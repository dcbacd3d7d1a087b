// The portable loops of NumPy's float floor division and modulo
// (graph.OpFloorDiv and graph.OpMod on float32 and float64): fmath's
// DivModFloat with fmath.Fmod inlined for operands in the fast domain
// (|a|/|b| rounded below 2^50, both finite, b nonzero), the call
// elsewhere. They compute in float64 and round float32 results at the
// end, as opdef.Wide2's loop does, and store DivModFloat's bits. The
// amd64 vector loops (divmod_amd64.go) compute the same per lane; the
// comment there says why the quotient needs no second division.

package cpu

import (
	"math"

	"github.com/fuseflow/fuseflow/internal/fmath"
)

// floorDivFL stores NumPy's a // b of each pair in d.
func floorDivFL[T floats](d, a, b []T) { divModFL(d, a, b, false) }

// modFL stores NumPy's a % b of each pair in d.
func modFL[T floats](d, a, b []T) { divModFL(d, a, b, true) }

// divModFL stores the quotients (or, mod true, the remainders) of
// fmath.DivModFloat of each pair in d.
func divModFL[T floats](d, a, b []T, mod bool) {
	d, b = d[:len(a)], b[:len(a)]
	for i, v := range a {
		u, w := float64(v), float64(b[i])
		x, y := math.Abs(u), math.Abs(w)
		q := x / y
		if !(q < 0x1p50) || y-y != 0 { // outside the fast domain
			q, m := fmath.DivModFloat(u, w)
			if mod {
				q = m
			}
			d[i] = T(q)
			continue
		}
		n := math.Trunc(q)
		r := math.FMA(-n, y, x)
		if r < 0 { // n one too large
			n--
			r = math.FMA(-n, y, x)
		}
		neg := math.Signbit(u) != math.Signbit(w)
		if mod {
			m := math.Copysign(r, u)
			switch {
			case r == 0:
				m = math.Copysign(0, w)
			case neg: // the remainder moves into b's sign
				m += w
			}
			d[i] = T(m)
			continue
		}
		if r != 0 && neg {
			n++
		}
		if neg {
			n = -n
		}
		d[i] = T(n)
	}
}
