// Test hooks for the external tests.

package cpu

// SetVector installs the vector inner loops (on) or the scalar ones and
// returns the previous setting; see setVector.
var SetVector = setVector

// SetTiles enables (on) or disables the tiled evaluation of programs with
// a transposed access and returns the previous setting; programs lowered
// while disabled run in flat chunks.
func SetTiles(on bool) bool {
	old := !noTiles
	noTiles = !on
	return old
}

// RaceEnabled reports whether the race detector is on: long test
// variants shrink.
const RaceEnabled = raceEnabled
