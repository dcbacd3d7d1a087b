//go:build race

// raceEnabled reports whether the race detector is on: the long
// generated-kernel tests then run a sample of their cases.

package ptxsim_test

const raceEnabled = true
