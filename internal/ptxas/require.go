// require.go implements the helpers that tests of other packages use to
// assemble the PTX they generate.

package ptxas

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/fuseflow/fuseflow/internal/config"
)

// defaultArchs are the architectures AssembleAll checks when given none.
var defaultArchs = []string{"sm_80", "sm_90"}

// versionCheck is the outcome of running `ptxas --version` once.
type versionCheck struct{ err error }

// checked holds a versionCheck per path, so each binary is run once.
var checked sync.Map

// usable returns the path Find gives once the binary has been seen to run.
func usable() (string, error) {
	path, err := Find()
	if err != nil {
		return "", err
	}
	v, ok := checked.Load(path)
	if !ok {
		_, verr := Version(path)
		v, _ = checked.LoadOrStore(path, versionCheck{verr})
	}
	if verr := v.(versionCheck).err; verr != nil {
		return "", fmt.Errorf("%w: %v; %s", ErrNotFound, verr, FetchHint)
	}
	return path, nil
}

// Require returns the path of a ptxas that runs. Without one it skips the
// test with a message saying how to fetch it, or fails it when
// the switch FUSEFLOW_REQUIRE_PTXAS is on. It is safe for concurrent use.
func Require(t testing.TB) string {
	t.Helper()
	path, err := usable()
	if err == nil {
		return path
	}
	if config.Enabled(EnvRequire) {
		t.Fatalf("%v (%s=1 makes this a failure)", err, EnvRequire)
		return ""
	}
	t.Skipf("%v (set %s=1 to fail instead of skip)", err, EnvRequire)
	return ""
}

// AssembleAll asserts that the PTX text assembles for each of archs, or for
// sm_80 and sm_90 when none are given, and returns the Info of each in the
// order of archs. Without ptxas it behaves as Require. Each failure is
// reported with ptxas's diagnostics and the PTX lines they cite, and the
// test stops after all archs were tried; warnings are logged.
func AssembleAll(t testing.TB, ptx string, archs ...string) []Info {
	t.Helper()
	path := Require(t)
	if path == "" {
		return nil
	}
	if len(archs) == 0 {
		archs = defaultArchs
	}
	infos := make([]Info, 0, len(archs))
	failed := false
	for _, arch := range archs {
		in, err := assemble(context.Background(), path, ptx, arch)
		if err != nil {
			failed = true
			var ae *AssembleError
			if errors.As(err, &ae) {
				t.Errorf("PTX does not assemble for %s:\n%v", arch, err)
			} else {
				t.Errorf("assembling for %s: %v", arch, err)
			}
			continue
		}
		for _, w := range in.Warnings {
			t.Logf("ptxas warning for %s: %s", arch, w.Text)
		}
		infos = append(infos, in)
	}
	if failed {
		t.FailNow()
	}
	return infos
}
