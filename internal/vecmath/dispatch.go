// This file implements the choice of the code path at start-up: the
// widest vector code the CPU supports (cpuPath, per architecture), or
// the portable code when FUSEFLOW_NOASM is set to anything but "" or
// "0".

package vecmath

import "os"

// noASM reports whether the environment asks for the portable code.
func noASM(v string) bool { return v != "" && v != "0" }

func init() {
	active = cpuPath()
	if noASM(os.Getenv("FUSEFLOW_NOASM")) {
		active = pathPORTABLE
	}
}

// Path returns the name of the code path in use: "avx512", "avx2" or
// "portable".
func Path() string { return active.String() }
