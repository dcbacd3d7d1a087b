// info_test.go tests parsing of ptxas's -v statistics and diagnostics.

package ptxas

import (
	"reflect"
	"testing"
)

func TestParseInfo(t *testing.T) {
	// The shape of `ptxas -v` output: an entry that calls a device function
	// (which keeps its own frame), constant data in two banks, spills.
	log := `ptxas info    : 16 bytes gmem, 8 bytes cmem[4]
ptxas info    : Function properties for helper
    24 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads
ptxas info    : Compiling entry function 'main_k' for 'sm_80'
ptxas info    : Function properties for main_k
    32 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 40 registers, 2048 bytes smem, 16 bytes lmem, 380 bytes cmem[0], 12 bytes cmem[2]
ptxas info    : Compiling entry function 'second' for 'sm_80'
ptxas info    : Function properties for second
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 6 registers, used 1 barriers, 360 bytes cmem[0]
`
	var got Info
	parseInfo(&got, log)
	want := []Function{
		{Name: "helper", StackBytes: 24, SpillStoreBytes: 8, SpillLoadBytes: 4},
		{Name: "main_k", Entry: true, Registers: 40, SharedBytes: 2048, LocalBytes: 16, ConstBytes: 392, StackBytes: 32},
		{Name: "second", Entry: true, Registers: 6, ConstBytes: 360},
	}
	if !reflect.DeepEqual(got.Functions, want) {
		t.Errorf("functions got:%+v want:%+v", got.Functions, want)
	}
	if got.GlobalBytes != 16 {
		t.Errorf("gmem got:%v want:16", got.GlobalBytes)
	}
	if _, ok := got.Function("absent"); ok {
		t.Errorf("Function(absent) found one")
	}
}

func TestParseDiagnostics(t *testing.T) {
	log := "ptxas info    : 0 bytes gmem\n" +
		"ptxas kernel.ptx, line 37; error   : Arguments mismatch for instruction 'add'\n" +
		"ptxas kernel.ptx, line 5; warning : Unresolved extern function 'f'\n" +
		"ptxas warning : Registers are spilled to local memory in function 'k', 8 bytes spill stores\n" +
		"ptxas fatal   : Ptx assembly aborted due to errors\n"
	got := parseDiagnostics(log)
	want := []Diagnostic{
		{Line: 37, Severity: "error", Message: "Arguments mismatch for instruction 'add'",
			Text: "ptxas kernel.ptx, line 37; error   : Arguments mismatch for instruction 'add'"},
		{Line: 5, Severity: "warning", Message: "Unresolved extern function 'f'",
			Text: "ptxas kernel.ptx, line 5; warning : Unresolved extern function 'f'"},
		{Severity: "warning", Message: "Registers are spilled to local memory in function 'k', 8 bytes spill stores",
			Text: "ptxas warning : Registers are spilled to local memory in function 'k', 8 bytes spill stores"},
		{Severity: "fatal", Message: "Ptx assembly aborted due to errors",
			Text: "ptxas fatal   : Ptx assembly aborted due to errors"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got:%+v\nwant:%+v", got, want)
	}
	e := &AssembleError{Diagnostics: got}
	if n := len(e.Errors()); n != 2 {
		t.Errorf("Errors() count got:%v want:2", n)
	}
}
