package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// The committed kernels are what the generator writes: run
// `go generate ./internal/gemm` after changing it.
func TestGeneratedFilesCurrent(t *testing.T) {
	fs, err := files()
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range fs {
		got, err := os.ReadFile(filepath.Join("..", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not what asmgen writes: run go generate ./internal/gemm", name)
		}
	}
}
