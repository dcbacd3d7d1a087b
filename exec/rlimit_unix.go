// RLIMIT_AS on the systems whose syscall package reports it.

//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package exec

import "syscall"

// rlimitAS returns the soft RLIMIT_AS of the process (the most address
// space it may map), or ok false when it cannot be read.
func rlimitAS() (uint64, bool) {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &r); err != nil {
		return 0, false
	}
	return uint64(r.Cur), true
}
