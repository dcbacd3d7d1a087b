// Tests of the parsers: switches, debug topics, and the reports of
// malformed values.

package config

import (
	"bytes"
	"strings"
	"testing"
)

// captureWarnings sends reports to a buffer and forgets what was reported
// before, until the test ends.
func captureWarnings(t *testing.T) *bytes.Buffer {
	var buf bytes.Buffer
	warnMu.Lock()
	old, oldWarned := warnOut, warned
	warnOut, warned = &buf, map[string]bool{}
	warnMu.Unlock()
	t.Cleanup(func() {
		warnMu.Lock()
		warnOut, warned = old, oldWarned
		warnMu.Unlock()
	})
	return &buf
}

func TestFlag(t *testing.T) {
	tests := []struct {
		env     string
		on, set bool
		warn    string
	}{
		{"", false, false, ""},
		{"1", true, true, ""},
		{" TRUE ", true, true, ""},
		{"on", true, true, ""},
		{"Yes", true, true, ""},
		{"0", false, true, ""},
		{"false", false, true, ""},
		{"OFF", false, true, ""},
		{"no", false, true, ""},
		{"2", false, false, `fuseflow: FUSEFLOW_FASTMATH: "2": want 1 or 0`},
		{"fast", false, false, `fuseflow: FUSEFLOW_FASTMATH: "fast": want 1 or 0`},
	}
	for _, tc := range tests {
		buf := captureWarnings(t)
		t.Setenv(FastMath, tc.env)
		on, set := Flag(FastMath)
		if on != tc.on || set != tc.set {
			t.Errorf("%s=%q: got:%v,%v want:%v,%v", FastMath, tc.env, on, set, tc.on, tc.set)
		}
		if got := buf.String(); !strings.HasPrefix(got, tc.warn) || (tc.warn == "") != (got == "") {
			t.Errorf("%s=%q: report got:%q want:%q...", FastMath, tc.env, got, tc.warn)
		}
		if Enabled(FastMath) != tc.on {
			t.Errorf("Enabled(%s=%q) got:%v want:%v", FastMath, tc.env, !tc.on, tc.on)
		}
	}
}

func TestDebugging(t *testing.T) {
	tests := []struct {
		env       string
		plan, ptx bool
		warn      string
	}{
		{"", false, false, ""},
		{"plan", true, false, ""},
		{"PLAN", true, false, ""},
		{"ptx", false, true, ""},
		{"ptx,plan", true, true, ""},
		{"ptx, plan", true, true, ""},
		{" Plan  PTX ", true, true, ""},
		{"all", true, true, ""},
		{"ALL", true, true, ""},
		{",,plan,", true, false, ""},
		{"ptxas", false, false, `fuseflow: FUSEFLOW_DEBUG: "ptxas": unknown topic (want plan, ptx or all); ignored` + "\n"},
		{"plan,kernels", true, false, `fuseflow: FUSEFLOW_DEBUG: "kernels": unknown topic (want plan, ptx or all); ignored` + "\n"},
	}
	for _, tc := range tests {
		buf := captureWarnings(t)
		t.Setenv(Debug, tc.env)
		if got := Debugging(DebugPlan); got != tc.plan {
			t.Errorf("%s=%q: plan got:%v want:%v", Debug, tc.env, got, tc.plan)
		}
		if got := Debugging(DebugPTX); got != tc.ptx {
			t.Errorf("%s=%q: ptx got:%v want:%v", Debug, tc.env, got, tc.ptx)
		}
		if got := buf.String(); got != tc.warn {
			t.Errorf("%s=%q: report got:%q want:%q", Debug, tc.env, got, tc.warn)
		}
	}
}

// A malformed value is reported once, however often it is read, and a
// new malformed value is reported again.
func TestReportedOnce(t *testing.T) {
	buf := captureWarnings(t)
	for _, env := range []string{"plan,x", "x", "plan,x", "y"} {
		t.Setenv(Debug, env)
		for range 3 {
			Debugging(DebugPlan)
		}
	}
	for range 3 {
		t.Setenv(Profile, "maybe")
		Flag(Profile)
	}
	want := `fuseflow: FUSEFLOW_DEBUG: "x": unknown topic (want plan, ptx or all); ignored
fuseflow: FUSEFLOW_DEBUG: "y": unknown topic (want plan, ptx or all); ignored
fuseflow: FUSEFLOW_PROFILE: "maybe": want 1 or 0 (true or false, on or off, yes or no); ignored
`
	if got := buf.String(); got != want {
		t.Errorf("reports got:%q want:%q", got, want)
	}
}

func TestValue(t *testing.T) {
	t.Setenv(Device, " cuda:1 ")
	if got := Value(Device); got != " cuda:1 " {
		t.Errorf("Value(%s) got:%q want:%q", Device, got, " cuda:1 ")
	}
	t.Setenv(Device, "")
	if got := Value(Device); got != "" {
		t.Errorf("Value(%s) unset got:%q want:%q", Device, got, "")
	}
}

// Reading a variable that is not listed, or with the wrong accessor, is a
// broken invariant.
func TestUnlistedPanics(t *testing.T) {
	for name, read := range map[string]func(){
		"Value(FUSEFLOW_NOPE)":   func() { Value("FUSEFLOW_NOPE") },
		"Value(switch)":          func() { Value(FastMath) },
		"Flag(text)":             func() { Flag(Device) },
		"Flag(FUSEFLOW_NOPE)":    func() { Flag("FUSEFLOW_NOPE") },
		"Debugging(\"kernels\")": func() { Debugging("kernels") },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: got:no panic want:panic", name)
				}
			}()
			read()
		}()
	}
}

func TestVarsUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, v := range Vars {
		if seen[v.Name] || !strings.HasPrefix(v.Name, "FUSEFLOW_") {
			t.Errorf("variable %q: duplicate or without the FUSEFLOW_ prefix", v.Name)
		}
		seen[v.Name] = true
	}
}
