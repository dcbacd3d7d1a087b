// Architectures without vector inner loops: the scalar loops only.

//go:build !amd64 || purego

package cpu

// registerVector registers no vector loops.
func registerVector() {}
