package fake

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestBuild(t *testing.T) {
	src, err := Source()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(src); err != nil {
		t.Fatalf("Source() = %s: %v", src, err)
	}
	out := filepath.Join(t.TempDir(), "libcuda.so.1")
	err = Build(out, "FAKE_OMIT_LAUNCH")
	if Skippable(err) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(out); err != nil || st.Size() == 0 {
		t.Fatalf("built library got:%v, %v want a file", st, err)
	}
}

// Without gcc Build says so, and the tests may skip unless
// FUSEFLOW_REQUIRE_GCC is on.
func TestMissingGCC(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	err := Build(filepath.Join(t.TempDir(), "libcuda.so.1"))
	if !errors.Is(err, ErrNoGCC) {
		t.Fatalf("Build without gcc got:%v want:%v", err, ErrNoGCC)
	}
	for _, tc := range []struct {
		env  string
		skip bool
	}{{"", true}, {"0", true}, {"1", false}, {"true", false}} {
		t.Setenv("FUSEFLOW_REQUIRE_GCC", tc.env)
		if got := Skippable(err); got != tc.skip {
			t.Errorf("FUSEFLOW_REQUIRE_GCC=%q: skippable got:%v want:%v", tc.env, got, tc.skip)
		}
	}
	if Skippable(errors.New("gcc: syntax error")) {
		t.Errorf("a failed compilation got:skippable want:not")
	}
}

// Skip skips for want of gcc, and fails when gcc is required or the
// build failed otherwise.
func TestSkip(t *testing.T) {
	for _, tc := range []struct {
		env     string
		err     error
		skipped bool
	}{
		{"", ErrNoGCC, true},
		{"1", ErrNoGCC, false},
		{"", errors.New("gcc: syntax error"), false},
	} {
		t.Setenv("FUSEFLOW_REQUIRE_GCC", tc.env)
		var skipped, failed bool
		done := make(chan struct{})
		go func() {
			defer close(done)
			r := &recorder{}
			defer func() { skipped, failed = r.skipped, r.failed }()
			Skip(r, tc.err)
		}()
		<-done
		if skipped != tc.skipped || failed == tc.skipped {
			t.Errorf("FUSEFLOW_REQUIRE_GCC=%q err=%v: skipped got:%v want:%v (failed %v)", tc.env, tc.err, skipped, tc.skipped, failed)
		}
	}
}

// recorder is a testing.TB that records Skip and Fatal and stops the
// goroutine, as testing.T does.
type recorder struct {
	testing.TB
	skipped, failed bool
}

func (r *recorder) Helper()               {}
func (r *recorder) Skip(...any)           { r.skipped = true; runtime.Goexit() }
func (r *recorder) Fatalf(string, ...any) { r.failed = true; runtime.Goexit() }

// Open binds every control of a built fake; a fresh library has launched
// nothing and allocated nothing, and its limit can be set and read back
// through an allocation-free query.
func TestOpen(t *testing.T) {
	out := filepath.Join(t.TempDir(), "libcuda.so.1")
	if err := Build(out); err != nil {
		Skip(t, err)
	}
	c, lib, err := Open(out)
	if err != nil {
		t.Fatal(err)
	}
	if lib == 0 {
		t.Fatalf("library handle got:0 want:non-zero")
	}
	if got := c.LaunchCount(); got != 0 {
		t.Errorf("LaunchCount got:%d want:0", got)
	}
	if got := c.MemUsed(); got != 0 {
		t.Errorf("MemUsed got:%d want:0", got)
	}
	if got := c.ModuleCount(); got != 0 {
		t.Errorf("ModuleCount got:%d want:0", got)
	}
	if got := c.LastLaunch(); got.Name != "" || len(got.Params) != 0 {
		t.Errorf("LastLaunch before any launch got:%+v want:none", got)
	}
	if got := c.SetAttr(-12345, 1); got != 0 {
		t.Errorf("SetAttr of an unknown attribute got:%d want:0", got)
	}
	missing := filepath.Join(t.TempDir(), "none.so")
	if _, _, err := Open(missing); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("Open of a missing library got:%v want an error naming %s", err, missing)
	}
}
