// Philox4x32-10 and the conversions of its words to uniform and normal floats.

package philox

import "math"

const (
	mul0 = 0xD2511F53
	mul1 = 0xCD9E8D57
	key0 = 0x9E3779B9 // golden ratio
	key1 = 0xBB67AE85 // sqrt(3) - 1
)

// Block returns the four output words of Philox4x32-10 for counter ctr
// and key k.
func Block(ctr [4]uint32, k [2]uint32) [4]uint32 {
	c0, c1, c2, c3 := ctr[0], ctr[1], ctr[2], ctr[3]
	k0, k1 := k[0], k[1]
	for range 10 {
		p0 := uint64(mul0) * uint64(c0)
		p1 := uint64(mul1) * uint64(c2)
		hi0, lo0 := uint32(p0>>32), uint32(p0)
		hi1, lo1 := uint32(p1>>32), uint32(p1)
		c0, c1, c2, c3 = hi1^c1^k0, lo1, hi0^c3^k1, lo0
		k0 += key0
		k1 += key1
	}
	return [4]uint32{c0, c1, c2, c3}
}

// Words returns the four words for element index i of the stream seed.
func Words(seed uint64, i uint64) [4]uint32 {
	return Block([4]uint32{uint32(i), uint32(i >> 32), 0, 0}, [2]uint32{uint32(seed), uint32(seed >> 32)})
}

// Uniform32 maps a word to [0, 1) with 24 random bits.
func Uniform32(w uint32) float32 { return float32(w>>8) * (1.0 / (1 << 24)) }

// Uniform64 maps two words to [0, 1) with 53 random bits.
func Uniform64(w0, w1 uint32) float64 {
	return float64((uint64(w0)<<32|uint64(w1))>>11) * (1.0 / (1 << 53))
}

// Float32 returns the uniform float32 of element i.
func Float32(seed, i uint64) float32 { return Uniform32(Words(seed, i)[0]) }

// Float64 returns the uniform float64 of element i.
func Float64(seed, i uint64) float64 {
	w := Words(seed, i)
	return Uniform64(w[0], w[1])
}

// Normal64 returns the standard normal float64 of element i: Box-Muller
// on two uniforms from the element's words, u1 in (0, 1] so the log is
// finite.
func Normal64(seed, i uint64) float64 {
	w := Words(seed, i)
	u1 := 1 - Uniform64(w[0], w[1])
	u2 := Uniform64(w[2], w[3])
	return math.Sqrt(-2*math.Log(u1)) * math.Cos(2*math.Pi*u2)
}

// Normal32 returns the standard normal float32 of element i, computed in
// float64 and rounded, so every backend agrees to the last bit when its
// float64 log, sqrt and cos are correctly rounded (documented tolerance:
// 1 ulp of float32 otherwise).
func Normal32(seed, i uint64) float32 {
	w := Words(seed, i)
	u1 := 1 - float64(Uniform32(w[0]))
	u2 := float64(Uniform32(w[1]))
	return float32(math.Sqrt(-2*math.Log(u1)) * math.Cos(2*math.Pi*u2))
}
