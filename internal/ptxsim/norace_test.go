//go:build !race

// raceEnabled reports whether the race detector is on.

package ptxsim_test

const raceEnabled = false
