// RLIMIT_AS where the syscall package has none (Windows, Plan 9, wasm):
// no such bound.

//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package exec

// rlimitAS is nil: there is no address-space limit to read.
var rlimitAS func() (uint64, bool)
