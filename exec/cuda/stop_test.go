// Test support: a differential suite stops at the first fault that breaks
// the device (every later evaluation would fail the same way) and says
// which case caused it: its name (the seed), its graph and the PTX of the
// kernels that were running.

package cuda

import (
	"fmt"
	"strings"
)

// faultReport returns "" while b works, else the report of the fault
// that broke it, met while checking what (such as "seed 17") whose graph
// desc describes line by line.
func faultReport(b *Backend, what string, desc []string) string {
	f := b.Fault()
	if f == nil {
		return ""
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s broke the device; stopping at the first such fault:\n%v\n", what, f)
	if len(desc) > 0 {
		fmt.Fprintf(&sb, "graph of %s:\n%s\n", what, strings.Join(desc, "\n"))
	}
	if f.PTX == "" {
		sb.WriteString("PTX: unknown (the fault surfaced outside a kernel run)\n")
		return sb.String()
	}
	sb.WriteString("PTX of the kernels running when it surfaced:\n")
	for i, line := range strings.Split(strings.TrimRight(f.PTX, "\n"), "\n") {
		fmt.Fprintf(&sb, "%5d  %s\n", i+1, line)
	}
	return sb.String()
}
