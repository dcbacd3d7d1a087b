package all_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/fuseflow/fuseflow/exec"
	_ "github.com/fuseflow/fuseflow/exec/all"
)

func TestRegistersEveryBackend(t *testing.T) {
	if got, want := exec.Backends(), []string{"cpu", "cuda", "ref"}; !slices.Equal(got, want) {
		t.Errorf("Backends() got:%v want:%v", got, want)
	}
	for _, d := range []string{"cpu", "ref"} {
		b, err := exec.Open(d)
		if err != nil || b.Name() != d {
			t.Errorf("Open(%q) got:%v, %v want:%s", d, b, err, d)
		}
	}
	if _, err := exec.Open("tpu"); err == nil || err.Error() != `exec: Open("tpu"): unknown backend (want cpu, ref, cuda or cuda:N)` {
		t.Errorf(`Open("tpu") got:%v`, err)
	}
}

// The backends a program can open once it imports exec/all.
func Example() {
	fmt.Println(exec.Backends())
	b, err := exec.Open("cpu")
	if err != nil {
		panic(err)
	}
	fmt.Println(b.Name())
	// Output:
	// [cpu cuda ref]
	// cpu
}
