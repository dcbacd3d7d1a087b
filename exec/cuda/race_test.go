//go:build race

// raceEnabled reports whether the race detector is on (it makes sync.Pool
// drop items, so allocation counts are not checked).

package cuda

const raceEnabled = true
