package ir

import "testing"

func BenchmarkRunAxpy(b *testing.B) {
	for _, n := range []int{4096, 65536} {
		b.Run(itoa(n), func(b *testing.B) {
			p, err := Compile(vaddKernel(S32))
			if err != nil {
				b.Fatal(err)
			}
			xs := make([]float32, n)
			mx, my := MemOf(xs), MemOf(xs)
			b.SetBytes(int64(12 * n))
			b.ResetTimer()
			for range b.N {
				if err := p.Run(launch(8, 256), mx, my, float32(2), n); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkRunBlockSum(b *testing.B) {
	const n = 4096
	p, err := Compile(blockSumKernel(256))
	if err != nil {
		b.Fatal(err)
	}
	xs := MemOf(make([]float32, n))
	out := NewMem(4 * 8)
	b.SetBytes(4 * n)
	b.ResetTimer()
	for range b.N {
		if err := p.Run(launch(8, 256), xs, out, n); err != nil {
			b.Fatal(err)
		}
	}
}

func itoa(n int) string {
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}
