// Architectures without the vector gathers of gather_amd64.s.

//go:build !amd64 || purego

package cpu

// hasGatherVector reports false: no vector gathers here.
func hasGatherVector() bool { return false }
