// This file implements the CPU feature test of amd64: AVX-512 (F, DQ,
// VL, BW) or AVX2 with FMA, each with BMI2 (the loops' lane masks).

//go:build amd64 && !purego

package vecmath

import "golang.org/x/sys/cpu"

// cpuPath returns the widest path the CPU supports.
func cpuPath() path {
	x := cpu.X86
	switch {
	case x.HasAVX512F && x.HasAVX512DQ && x.HasAVX512VL && x.HasAVX512BW && x.HasBMI2:
		return pathAVX512
	case x.HasAVX2 && x.HasFMA && x.HasBMI2:
		return pathAVX2
	}
	return pathPORTABLE
}

// supported reports whether the CPU runs path p.
func supported(p path) bool { return p <= cpuPath() }
