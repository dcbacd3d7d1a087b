// Test hooks of the sorting networks for the external tests.

package cpu

// SetNet64Wide picks the AVX-512 loop (on) or the AVX2 loop of the
// network of 8-byte keys and returns the previous choice; on needs a
// CPU with AVX-512.
func SetNet64Wide(on bool) bool {
	was := net64Wide
	net64Wide = on
	return was
}

// NetRows64 returns how many rows the network of 8-byte keys sorted so
// far.
func NetRows64() int64 { return netRows64.Load() }

// Net64On reports whether the network of 8-byte keys runs: a CPU with
// its loops and the vector loops on.
func Net64On() bool { return net64On && vecOn }
