// The one-pass ArgMax and ArgMin of float rows (argIndex32, argIndex64)
// against a plain scan: rows of every length from argVecMin to 300 and
// some long ones, unaligned, random values, ties everywhere, signed
// zeros, infinities only, rising and falling rows (a new extreme in
// every block, none after the first), NaN only, and NaN at the first, a
// lane-boundary, a tail and the last position.

package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// argScanRef returns the first index of the extreme of r under ==
// (-0 == +0), or ok false when r holds a NaN.
func argScanRef[T floats](isMax bool, r []T) (int, bool) {
	k := 0
	for j, x := range r {
		if x != x {
			return 0, false
		}
		if (isMax && x > r[k]) || (!isMax && x < r[k]) {
			k = j
		}
	}
	return k, true
}

func TestArgIndexVector(t *testing.T) {
	was := setVector(true)
	defer setVector(was)
	if argIndex64[0] == nil {
		t.Skip("no one-pass vector ArgMax on this CPU")
	}
	r := rand.New(rand.NewPCG(5, 6))
	inf := math.Inf(1)
	gens := map[string]func(j int) float64{
		"rand":  func(int) float64 { return r.Float64() },
		"ties":  func(int) float64 { return float64(r.IntN(3) - 1) },
		"zeros": func(int) float64 { return []float64{0, math.Copysign(0, -1)}[r.IntN(2)] },
		"infs":  func(int) float64 { return []float64{inf, -inf}[r.IntN(2)] },
		"pinf":  func(int) float64 { return inf },
		"ninf":  func(int) float64 { return -inf },
		"mixed": func(int) float64 { return []float64{inf, -inf, 0, math.Copysign(0, -1), 1, -1}[r.IntN(6)] },
		"up":    func(j int) float64 { return float64(j) },
		"down":  func(j int) float64 { return -float64(j) },
		"steps": func(j int) float64 { return float64(j / 40) },
		"nans":  func(int) float64 { return math.NaN() },
	}
	lengths := []int{}
	for n := argVecMin; n <= 300; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 1000, 4099, 65536+17)
	for name, g := range gens {
		for _, n := range lengths {
			for _, nan := range []int{-1, 0, 5, 16, 31, 32, n - 17, n - 1} {
				if nan >= n || nan < -1 {
					continue
				}
				// Starts one element past a 32-byte boundary.
				v64 := make([]float64, n+1)[1:]
				v32 := make([]float32, n+1)[1:]
				for j := range v64 {
					v64[j] = g(j)
					v32[j] = float32(v64[j])
				}
				if nan >= 0 {
					v64[nan], v32[nan] = math.NaN(), float32(math.NaN())
				}
				for w, isMax := range []bool{true, false} {
					gk, gok := argIndex64[w](v64)
					wk, wok := argScanRef(isMax, v64)
					if gok != wok || (wok && gk != wk) {
						t.Fatalf("float64 %s n=%d nan=%d max=%v: got:%d,%v want:%d,%v", name, n, nan, isMax, gk, gok, wk, wok)
					}
					gk, gok = argIndex32[w](v32)
					wk, wok = argScanRef(isMax, v32)
					if gok != wok || (wok && gk != wk) {
						t.Fatalf("float32 %s n=%d nan=%d max=%v: got:%d,%v want:%d,%v", name, n, nan, isMax, gk, gok, wk, wok)
					}
				}
			}
		}
	}
}
