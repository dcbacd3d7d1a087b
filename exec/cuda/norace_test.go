//go:build !race

// raceEnabled reports whether the race detector is on.

package cuda

const raceEnabled = false
