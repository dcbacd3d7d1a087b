// This file holds helpers shared by the tests of package kernel.

package kernel_test

import (
	"math"
	"os"
	"testing"
)

// readFile returns the contents of path.
func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// mathFloat32bits returns the bits of f.
func mathFloat32bits(f float32) uint32 { return math.Float32bits(f) }
