// Test helpers shared by the command's tests: running a command line and
// checking an expression's parse error.

package main

import (
	"bytes"
	"strings"
	"testing"
)

// runCase is a command line with the exit code it must end with and a
// text its output (stdout and stderr together) must contain.
type runCase struct {
	args []string
	code int
	want string
}

// checkRuns runs every case and reports those whose exit code or output
// differ.
func checkRuns(t *testing.T, cases []runCase) {
	t.Helper()
	for _, tt := range cases {
		var out, errOut bytes.Buffer
		code := run(tt.args, &out, &errOut)
		all := out.String() + errOut.String()
		if code != tt.code || !strings.Contains(all, tt.want) {
			t.Errorf("run(%q) got:%d %q want:%d containing %q", tt.args, code, all, tt.code, tt.want)
		}
	}
}

// parseFailed checks the parse error err of src: it must contain want
// when want is set and be nil otherwise. It returns true when the parse
// failed or was meant to, so that the caller checks no result.
func parseFailed(t *testing.T, src string, err error, want string) bool {
	t.Helper()
	if want != "" {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q got:%v want error containing %q", src, err, want)
		}
		return true
	}
	if err != nil {
		t.Errorf("%q got:%v want:nil", src, err)
		return true
	}
	return false
}
