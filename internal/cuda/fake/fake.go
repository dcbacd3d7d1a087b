// Package fake builds the fake CUDA driver the tests run against without
// a GPU (internal/cuda/testdata/fakecuda.c, a libcuda.so.1 that records
// launches and keeps device memory on the host) with the system's gcc,
// for the tests of internal/cuda, exec/cuda and cmd/fuseflow, and binds
// its test-only controls (Open, Controls).
//
// Without gcc those suites skip, unless the switch FUSEFLOW_REQUIRE_GCC
// is on (CI sets it): then a missing gcc fails them, so that a machine
// without it cannot pass the CUDA executor's tests by running none.
package fake

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fuseflow/fuseflow/internal/config"
)

// ErrNoGCC is wrapped by Build's error when gcc is not on PATH.
var ErrNoGCC = errors.New("gcc not found: the fake CUDA driver cannot be built")

// Source returns the path of fakecuda.c, found from the working
// directory (a package of the module, where go test runs) up to the
// module's root.
func Source() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "internal", "cuda", "testdata", "fakecuda.c"), nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", errors.New("fake: no go.mod above the working directory: run from the module")
		}
		dir = up
	}
}

// Build compiles the fake driver into the shared library out, with the
// C macros defines (such as "FAKE_OMIT_LAUNCH") defined. Without gcc the
// error wraps ErrNoGCC; a failed compilation names the command and
// carries gcc's output.
func Build(out string, defines ...string) error {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		return fmt.Errorf("%w (%v)", ErrNoGCC, err)
	}
	src, err := Source()
	if err != nil {
		return err
	}
	args := []string{"-shared", "-fPIC", "-O1", "-o", out}
	for _, d := range defines {
		args = append(args, "-D"+d)
	}
	args = append(args, src, "-lpthread")
	if msg, err := exec.Command(gcc, args...).CombinedOutput(); err != nil {
		return fmt.Errorf("gcc %s: %v\n%s", strings.Join(args, " "), err, msg)
	}
	return nil
}

// Skip skips t, a test that needs the fake driver Build failed to make
// with err, or fails it when Skippable says it may not skip. It reads
// FUSEFLOW_REQUIRE_GCC while t runs, so that go test's cache keys a
// skipped run on the variable.
func Skip(t testing.TB, err error) {
	t.Helper()
	if Skippable(err) {
		t.Skip(err)
	}
	t.Fatalf("the fake CUDA driver: %v", err)
}

// Skippable reports whether err, from Build, lets the fake-driver tests
// skip: it is the want of gcc, and FUSEFLOW_REQUIRE_GCC is not on. Any
// other error, or a missing gcc that is required, must fail the tests.
func Skippable(err error) bool {
	return errors.Is(err, ErrNoGCC) && !config.Enabled(config.RequireGCC)
}
