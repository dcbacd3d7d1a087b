package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// The committed loops are what the generator writes: run
// `go generate ./exec/cpu` after changing it.
func TestGeneratedFileCurrent(t *testing.T) {
	want, err := generate()
	got, rerr := os.ReadFile(filepath.Join("..", "..", out))
	if err != nil || rerr != nil || !bytes.Equal(got, want) {
		t.Errorf("%s is not what scangen writes (%v, %v): run go generate ./exec/cpu", out, err, rerr)
	}
}
