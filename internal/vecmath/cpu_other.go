// This file implements the CPU feature test elsewhere: the portable
// code only.

//go:build !amd64 || purego

package vecmath

func cpuPath() path { return pathPORTABLE }

func supported(p path) bool { return p == pathPORTABLE }
