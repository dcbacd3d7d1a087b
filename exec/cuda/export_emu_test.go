// Test helpers for the external test package: the emulated device.

package cuda

import "testing"

// EmuBackendForTest opens the small emulated device (generated PTX run
// on the IR interpreter behind the fake driver), or skips t without the
// fake driver; the checks of emuBackend run at the end of t.
func EmuBackendForTest(t testing.TB) *Backend { return emuBackend(t, emuSmall, Options{}) }
