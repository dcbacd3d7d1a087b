package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fuseflow/fuseflow/internal/cuda"
	fakedrv "github.com/fuseflow/fuseflow/internal/cuda/fake"
)

func TestDevicesWithoutDriver(t *testing.T) {
	var out bytes.Buffer
	err := devices(&out, func() (*cuda.Driver, error) { return cuda.Open("/nonexistent/libcuda.so.1") })
	if err != nil {
		t.Fatalf("devices got:%v want:nil", err)
	}
	for _, want := range []string{"cpu:", "cuda: no NVIDIA driver found"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output got:%q want it to contain %q", out.String(), want)
		}
	}
}

func TestRunUsage(t *testing.T) {
	tests := []runCase{
		{nil, 2, "usage"},
		{[]string{"bogus"}, 2, `unknown command "bogus"`},
		{[]string{"help"}, 0, "devices"},
	}
	checkRuns(t, tests)
}

func Example_usage() {
	var out bytes.Buffer
	usage(&out)
	fmt.Print(out.String())
	// Output:
	// usage: fuseflow <command>
	// commands:
	//   devices         list backends and CUDA devices
	//   explain EXPR    print the fused plan of an expression (-shape, -dtype, -device, -dot)
	//   eval EXPR       evaluate an expression over random inputs (-shape, -dtype, -device, -seed)
	//   eval -e EXPR FILE     column expressions over a Parquet or Arrow IPC file, streamed in batches
	//                         (-e repeatable, NAME=EXPR names a result; -filter, -by KEY, -o, -budget, -batch, -device, -progress)
	//   explain -e EXPR FILE  the plan of one batch (-dot FILE writes DOT and an SVG, -ptx prints the kernels)
	//   bench           Parquet scans by fuseflow and the peers of bench/, as a table and an SVG chart
	// EXPR is a Go expression over named arrays, such as 'exp(-a*a)*b + sqrt(c)' or 'sum(a, 1)':
	//   operators + - * / % == != < <= > >= & | ^ && || !; functions exp, log, sqrt, tanh, sigmoid, ...,
	//   maximum, minimum, pow, atan2, mod, floordiv, where, sum, prod, mean, max, min, argmax, argmin,
	//   any, all, matmul, transpose. '//' starts a Go comment and is an error: floor division is floordiv(a, b).
	// Over a file, names are columns and nulls propagate; functions abs, exp, log, sqrt, where, fill_null,
	//   is_null, ... and the aggregates sum, mean, min, max, count, variance, which skip nulls.
}

func TestDevicesWithFakeDriver(t *testing.T) {
	lib := filepath.Join(t.TempDir(), "libcuda.so.1")
	if err := fakedrv.Build(lib); err != nil {
		if fakedrv.Skippable(err) {
			t.Skip(err)
		}
		t.Fatalf("building the fake driver: %v", err)
	}
	var out bytes.Buffer
	if err := devices(&out, func() (*cuda.Driver, error) { return cuda.Open(lib) }); err != nil {
		t.Fatalf("devices got:%v want:nil", err)
	}
	for _, want := range []string{"device(s)", "cuda:0: Fake GPU", "compute capability 9.0 (sm_90)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output got:%q want it to contain %q", out.String(), want)
		}
	}
}
