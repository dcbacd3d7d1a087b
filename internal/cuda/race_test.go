//go:build race

// raceEnabled reports a -race build, where sync.Pool drops items on purpose
// and allocation counts mean nothing.

package cuda

const raceEnabled = true
