package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestExamples runs every example: each must match its lazy-array
// equivalent.
func TestExamples(t *testing.T) {
	var out bytes.Buffer
	if err := runAll(&out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if got, want := strings.Count(out.String(), "matches the lazy arrays"), len(examples); got != want {
		t.Fatalf("got:%d checks want:%d\n%s", got, want, out.String())
	}
}
