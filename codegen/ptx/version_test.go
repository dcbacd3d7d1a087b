// This file tests the PTX ISA version tables and the module header.

package ptx

import (
	"fmt"
	"strings"
	"testing"
)

func TestISAVersion(t *testing.T) {
	tests := []struct {
		arch    Capability
		cuda    Version
		want    Version
		wantErr string
	}{
		{Capability{8, 0}, Version{11, 8}, Version{7, 8}, ""},
		{Capability{9, 0}, Version{11, 8}, Version{7, 8}, ""},
		{Capability{8, 6}, Version{11, 1}, Version{7, 1}, ""},
		{Capability{8, 0}, Version{12, 4}, Version{8, 4}, ""},
		{Capability{8, 9}, Version{12, 6}, Version{8, 5}, ""},
		{Capability{10, 0}, Version{12, 8}, Version{8, 7}, ""},
		{Capability{7, 5}, Version{10, 0}, Version{6, 3}, ""},
		{Capability{8, 0}, Version{13, 5}, Version{9, 0}, ""},
		{Capability{9, 0}, Version{11, 7}, Version{}, "sm_90 needs PTX ISA 7.8"},
		{Capability{8, 0}, Version{8, 0}, Version{}, "CUDA 8.0 is too old"},
		{Capability{3, 5}, Version{11, 8}, Version{}, "sm_35 is not supported"},
	}
	for _, tc := range tests {
		got, err := ISAVersion(tc.arch, tc.cuda)
		checkVersion(t, fmt.Sprintf("ISAVersion(%s, %s)", tc.arch, tc.cuda), got, err, tc.want, tc.wantErr)
	}
}

// checkVersion fails t unless a version-returning call (what) returned
// want and no error, or, when wantErr is not "", an error containing
// wantErr.
func checkVersion(t *testing.T, what string, got Version, err error, want Version, wantErr string) {
	t.Helper()
	if wantErr != "" {
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("%s: got:%v, %v want error %q", what, got, err, wantErr)
		}
		return
	}
	if err != nil || got != want {
		t.Errorf("%s: got:%v, %v want:%v", what, got, err, want)
	}
}

func TestHeader(t *testing.T) {
	tests := []struct {
		opts Options
		want []string
	}{
		{Options{}, []string{".version 7.8\n", ".target sm_80\n", ".address_size 64\n"}},
		{Options{Arch: Capability{9, 0}}, []string{".version 7.8\n", ".target sm_90\n"}},
		{Options{Arch: Capability{8, 6}, CUDA: Version{12, 2}}, []string{".version 8.2\n", ".target sm_86\n"}},
		{Options{PTX: Version{7, 0}}, []string{".version 7.0\n", ".target sm_80\n"}},
	}
	for _, tc := range tests {
		text, err := Emit(vaddKernel(), tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(text, w) {
				t.Errorf("options %+v: got:%q want:%q in the header", tc.opts, text[:120], w)
			}
		}
	}
}

func TestParseISA(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    Version
		wantErr string
	}{
		{"8.5", Version{8, 5}, ""},
		{"9.0", Version{9, 0}, ""},
		{"7.8", Version{7, 8}, ""},
		{"6.0", Version{6, 0}, ""},
		{"8.9", Version{}, "PTX ISA version 8.9 does not exist: versions go from 6.0 to 9.0"},
		{"5.0", Version{}, "does not exist"},
		{"10.0", Version{}, "does not exist"},
		{"8", Version{}, `"8": want major.minor`},
		{"8.", Version{}, "want major.minor"},
		{"v8.5", Version{}, "want major.minor"},
		{"8.5.1", Version{}, "want major.minor"},
		{"8.5x", Version{}, "want major.minor"},
		{"08.5", Version{}, "want major.minor"},
		{" 8.5", Version{}, "want major.minor"},
		{"", Version{}, "want major.minor"},
		{"sm_90", Version{}, "want major.minor"},
	} {
		got, err := ParseISA(tc.in)
		checkVersion(t, fmt.Sprintf("ParseISA(%q)", tc.in), got, err, tc.want, tc.wantErr)
	}
}

func TestCheckISA(t *testing.T) {
	for _, tc := range []struct {
		isa     Version
		arch    Capability
		cuda    Version
		wantErr string
	}{
		{Version{7, 8}, Capability{9, 0}, Version{13, 0}, ""},
		{Version{9, 0}, Capability{9, 0}, Version{13, 0}, ""},
		{Version{8, 8}, Capability{9, 0}, Version{12, 9}, ""},
		{Version{7, 0}, Capability{8, 0}, Version{11, 8}, ""},
		{Version{7, 0}, Capability{9, 0}, Version{13, 0}, "sm_90 needs PTX ISA 7.8 or newer, not 7.0"},
		{Version{9, 0}, Capability{9, 0}, Version{12, 8}, "CUDA 12.8 accepts PTX ISA 8.7 at most, not 9.0"},
		{Version{7, 8}, Capability{3, 5}, Version{12, 8}, "sm_35 is not supported"},
		{Version{7, 8}, Capability{8, 0}, Version{8, 0}, "CUDA 8.0 is too old"},
	} {
		err := CheckISA(tc.isa, tc.arch, tc.cuda)
		if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
			t.Errorf("CheckISA(%s, %s, %s) got:%v want:%q", tc.isa, tc.arch, tc.cuda, err, tc.wantErr)
		}
	}
}
