// Tests of the backend registry and of the default device's resolution,
// with stub backends registered for the test.

package exec

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// stubBackend is a backend that evaluates nothing.
type stubBackend struct{ name string }

func (s *stubBackend) Name() string { return s.name }
func (s *stubBackend) Eval(context.Context, *Request) ([]*Tensor, error) {
	return nil, errors.New("stub")
}

// withRegistry runs the test with only the factories fs registered, and
// restores the registry afterwards.
func withRegistry(t *testing.T, fs map[string]Factory) {
	registry.Lock()
	old := registry.m
	registry.m = map[string]Factory{}
	registry.Unlock()
	t.Cleanup(func() {
		registry.Lock()
		registry.m = old
		registry.Unlock()
	})
	for n, f := range fs {
		Register(n, f)
	}
}

// stubs opens "one" (a single device), "multi" (numbered devices,
// preferred) and "broken" (fails to open; most preferred).
func stubs() map[string]Factory {
	return map[string]Factory{
		"one": {Open: func(n int) (Backend, error) { return &stubBackend{"one"}, nil }, Preference: 1},
		"multi": {Open: func(n int) (Backend, error) {
			if n > 3 {
				return nil, fmt.Errorf("no device %d", n)
			}
			return &stubBackend{fmt.Sprintf("multi:%d", n)}, nil
		}, Numbered: true, Preference: 2},
		"quiet":  {Open: func(int) (Backend, error) { return &stubBackend{"quiet"}, nil }},
		"broken": {Open: func(int) (Backend, error) { return nil, errors.New("no driver") }, Numbered: true, Preference: 3},
	}
}

func TestOpen(t *testing.T) {
	withRegistry(t, stubs())
	tests := []struct {
		device, name, err string
	}{
		{"one", "one", ""},
		{"quiet", "quiet", ""},
		{"multi", "multi:0", ""},
		{"multi:2", "multi:2", ""},
		{"multi:7", "", `exec: Open("multi:7"): no device 7`},
		{"multi:x", "", `exec: Open("multi:x"): want multi:N with a device number`},
		{"multi:-1", "", `exec: Open("multi:-1"): want multi:N with a device number`},
		{"one:0", "", `exec: Open("one:0"): unknown backend (want one, quiet, broken, broken:N, multi or multi:N)`},
		{"tpu", "", `exec: Open("tpu"): unknown backend (want one, quiet, broken, broken:N, multi or multi:N)`},
		{"", "", `exec: Open(""): unknown backend`},
		{"broken:1", "", `exec: Open("broken:1"): no driver`},
	}
	for _, tc := range tests {
		b, err := Open(tc.device)
		if tc.err != "" {
			if err == nil || !strings.HasPrefix(err.Error(), tc.err) || b != nil {
				t.Errorf("Open(%q) got:%v, %v want:nil, %s", tc.device, b, err, tc.err)
			}
			continue
		}
		if err != nil || b.Name() != tc.name {
			t.Errorf("Open(%q) got:%v, %v want:%s", tc.device, b, err, tc.name)
		}
	}
	if got, want := strings.Join(Backends(), " "), "broken multi one quiet"; got != want {
		t.Errorf("Backends got:%q want:%q", got, want)
	}
}

func TestOpenDefault(t *testing.T) {
	withRegistry(t, stubs())
	tests := []struct {
		env, name, err string
	}{
		// Unset: the most preferred backend that opens ("broken" fails).
		{"", "multi:0", ""},
		{"one", "one", ""},
		{"quiet", "quiet", ""},
		{"multi:3", "multi:3", ""},
		// Named: its failure is the error, with no fallback.
		{"broken", "", `FUSEFLOW_DEVICE="broken": no driver`},
		{"multi:9", "", `FUSEFLOW_DEVICE="multi:9": no device 9`},
		{"tpu", "", `FUSEFLOW_DEVICE="tpu": unknown backend (want one, quiet, broken, broken:N, multi or multi:N)`},
	}
	for _, tc := range tests {
		t.Setenv("FUSEFLOW_DEVICE", tc.env)
		if got := DefaultDevice(); got != tc.env {
			t.Errorf("DefaultDevice() got:%q want:%q", got, tc.env)
		}
		b, err := OpenDefault()
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("FUSEFLOW_DEVICE=%q: got:%v, %v want:%s", tc.env, b, err, tc.err)
			}
			continue
		}
		if err != nil || b.Name() != tc.name {
			t.Errorf("FUSEFLOW_DEVICE=%q: got:%v, %v want:%s", tc.env, b, err, tc.name)
		}
	}
}

func TestOpenDefaultNoneOpens(t *testing.T) {
	withRegistry(t, map[string]Factory{
		"a": {Open: func(int) (Backend, error) { return nil, errors.New("gone") }, Preference: 1},
		"b": {Open: func(int) (Backend, error) { return nil, nil }},
	})
	t.Setenv("FUSEFLOW_DEVICE", "")
	if _, err := OpenDefault(); err == nil || err.Error() != "exec: no default backend opens: a: gone" {
		t.Errorf("OpenDefault() got:%v want:exec: no default backend opens: a: gone", err)
	}
	if _, err := Open("b"); err == nil || err.Error() != `exec: Open("b"): backend b opened nothing` {
		t.Errorf(`Open("b") got:%v want:backend b opened nothing`, err)
	}
	withRegistry(t, nil)
	for _, open := range []func() (Backend, error){OpenDefault, func() (Backend, error) { return Open("cpu") }} {
		if _, err := open(); err == nil || !strings.Contains(err.Error(), "no backend is registered (import github.com/fuseflow/fuseflow/exec/all)") {
			t.Errorf("with nothing registered got:%v want:no backend is registered", err)
		}
	}
}

func TestRegisterPanics(t *testing.T) {
	withRegistry(t, stubs())
	ok := Factory{Open: func(int) (Backend, error) { return &stubBackend{}, nil }}
	for _, tc := range []struct {
		name string
		f    Factory
	}{{"", ok}, {"cuda:1", ok}, {"nil", Factory{}}, {"one", ok}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register(%q) got:no panic want:panic", tc.name)
				}
			}()
			Register(tc.name, tc.f)
		}()
	}
}
