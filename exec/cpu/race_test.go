//go:build race

// The race detector is on: long test variants shrink.

package cpu

const raceEnabled = true
