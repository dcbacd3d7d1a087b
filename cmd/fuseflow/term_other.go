//go:build !linux

// Terminal detection elsewhere: a character device is taken for a terminal.

package main

import "os"

// isTerminal reports whether f is a terminal (a character device).
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
