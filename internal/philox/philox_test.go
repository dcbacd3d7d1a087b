package philox

import (
	"math"
	"testing"
)

// The known-answer vectors published with the Random123 library for
// philox4x32-10.
func TestBlockKnownAnswers(t *testing.T) {
	tests := []struct {
		ctr  [4]uint32
		key  [2]uint32
		want [4]uint32
	}{
		{[4]uint32{0, 0, 0, 0}, [2]uint32{0, 0}, [4]uint32{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
		{[4]uint32{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, [2]uint32{0xffffffff, 0xffffffff}, [4]uint32{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
		{[4]uint32{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, [2]uint32{0xa4093822, 0x299f31d0}, [4]uint32{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
	}
	for _, tt := range tests {
		if got := Block(tt.ctr, tt.key); got != tt.want {
			t.Errorf("Block(%x, %x) got:%x want:%x", tt.ctr, tt.key, got, tt.want)
		}
	}
}

func TestUniformRangeAndMean(t *testing.T) {
	const n = 1 << 16
	var s32, s64, sn float64
	for i := range uint64(n) {
		f := Float32(42, i)
		d := Float64(42, i)
		if f < 0 || f >= 1 || d < 0 || d >= 1 {
			t.Fatalf("element %d out of [0,1): %v %v", i, f, d)
		}
		s32 += float64(f)
		s64 += d
		z := Normal64(42, i)
		if math.IsNaN(z) || math.IsInf(z, 0) {
			t.Fatalf("normal %d not finite: %v", i, z)
		}
		sn += z
	}
	for _, m := range []float64{s32 / n, s64 / n} {
		if math.Abs(m-0.5) > 0.01 {
			t.Errorf("uniform mean got:%v want:0.5±0.01", m)
		}
	}
	if math.Abs(sn/n) > 0.02 {
		t.Errorf("normal mean got:%v want:0±0.02", sn/n)
	}
}
