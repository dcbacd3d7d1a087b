//go:build !race

// This file records that the race detector is off: see Config.Workers.

package ptxsim

const raceEnabled = false
