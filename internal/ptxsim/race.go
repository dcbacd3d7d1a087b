//go:build race

// This file records that the race detector is on: see Config.Workers.

package ptxsim

const raceEnabled = true
