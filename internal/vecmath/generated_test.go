// This file tests that the committed generated files are what the
// generator writes now (go generate ./internal/vecmath rewrites them).

package vecmath

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fuseflow/fuseflow/internal/vecmath/vecgen"
)

func TestGeneratedFilesCurrent(t *testing.T) {
	files, err := vecgen.Generate()
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range files {
		got, err := os.ReadFile(name)
		if err != nil {
			t.Errorf("%s: %v (run go generate ./internal/vecmath)", name, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from what the generator writes: run go generate ./internal/vecmath", name)
		}
	}
	// No generated file is left over from an older generator.
	all, _ := filepath.Glob("z*")
	for _, name := range all {
		if _, ok := files[name]; !ok && strings.HasPrefix(name, "z") {
			t.Errorf("%s is not written by the generator any more: remove it", name)
		}
	}
}
