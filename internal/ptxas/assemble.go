// assemble.go implements running ptxas on PTX text for one architecture and
// turning its output into an Info or an *AssembleError.

package ptxas

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// sourceName is the file name ptxas sees, and so the one its messages name.
const sourceName = "kernel.ptx"

// archRE accepts the names ptxas takes for -arch: sm_80, sm_90a, compute_80.
var archRE = regexp.MustCompile(`^(sm|compute|lto)_[0-9]+[af]?$`)

// AssembleError is the error of a module that ptxas rejected.
type AssembleError struct {
	Arch        string       // the architecture assembled for
	Log         string       // ptxas's output, verbatim
	Diagnostics []Diagnostic // ptxas's errors, warnings and fatal messages
	Source      string       // the PTX text assembled
}

// Error returns ptxas's output verbatim followed by the PTX lines its
// diagnostics point at, each with its line number.
func (e *AssembleError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "ptxas -arch=%s rejected the PTX:\n%s", e.Arch, strings.TrimRight(e.Log, "\n"))
	lines := strings.Split(e.Source, "\n")
	var cited []int
	seen := map[int]bool{}
	for _, d := range e.Diagnostics {
		if d.Line > 0 && d.Line <= len(lines) && !seen[d.Line] {
			seen[d.Line] = true
			cited = append(cited, d.Line)
		}
	}
	sort.Ints(cited)
	if len(cited) > 0 {
		fmt.Fprintf(&b, "\n%s:", sourceName)
		for _, n := range cited {
			fmt.Fprintf(&b, "\n%5d | %s", n, strings.TrimRight(lines[n-1], "\r"))
		}
	}
	return b.String()
}

// Errors returns the diagnostics of severity "error" and "fatal".
func (e *AssembleError) Errors() []Diagnostic {
	var ds []Diagnostic
	for _, d := range e.Diagnostics {
		if d.Severity != "warning" {
			ds = append(ds, d)
		}
	}
	return ds
}

// Assemble runs `ptxas -v -arch=ARCH` on the PTX text found by Find and
// returns what ptxas reported. A module that does not assemble returns an
// *AssembleError; a missing ptxas an error wrapping ErrNotFound; an arch
// that is not of the form sm_NN, sm_NNa or compute_NN an error naming it.
// The binary output is discarded. It is safe for concurrent use.
func Assemble(ptx, arch string) (Info, error) {
	return AssembleContext(context.Background(), ptx, arch)
}

// AssembleContext is Assemble with a context that can stop ptxas.
func AssembleContext(ctx context.Context, ptx, arch string) (Info, error) {
	if err := checkArch(arch); err != nil {
		return Info{}, err
	}
	path, err := Find()
	if err != nil {
		return Info{}, err
	}
	return assemble(ctx, path, ptx, arch)
}

// checkArch rejects what ptxas would not take for -arch, before running it.
func checkArch(arch string) error {
	if !archRE.MatchString(arch) {
		return fmt.Errorf("ptxas: architecture %q is not of the form sm_80, sm_90a or compute_80", arch)
	}
	return nil
}

// assemble runs the ptxas at path in a temporary folder of its own, so that
// its messages name kernel.ptx rather than a temporary path.
func assemble(ctx context.Context, path, ptx, arch string) (Info, error) {
	if err := checkArch(arch); err != nil {
		return Info{}, err
	}
	dir, err := os.MkdirTemp("", "fuseflow-ptxas-")
	if err != nil {
		return Info{}, fmt.Errorf("ptxas: %w", err)
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, sourceName), []byte(ptx), 0o600); err != nil {
		return Info{}, fmt.Errorf("ptxas: %w", err)
	}
	cmd := exec.CommandContext(ctx, path, "-v", "-arch="+arch, "-o", "kernel.cubin", sourceName)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	log := string(out)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return Info{}, fmt.Errorf("ptxas -arch=%s: %w", arch, ctxErr)
		}
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			return Info{}, fmt.Errorf("ptxas: running %s: %w", path, err)
		}
		return Info{}, &AssembleError{Arch: arch, Log: log, Diagnostics: parseDiagnostics(log), Source: ptx}
	}
	in := Info{Arch: arch, Log: log}
	for _, d := range parseDiagnostics(log) {
		if d.Severity == "warning" {
			in.Warnings = append(in.Warnings, d)
		}
	}
	parseInfo(&in, log)
	return in, nil
}
