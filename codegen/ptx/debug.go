// This file implements FUSEFLOW_DEBUG: a comma-separated list of what to
// print while generating code ("ptx" prints every emitted module with line
// numbers to stderr; "plan" belongs to the planner).

package ptx

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
)

// EnvDebug is the environment variable read for debug output.
const EnvDebug = "FUSEFLOW_DEBUG"

// debugOut is where debug output goes; tests replace it.
var (
	debugMu  sync.Mutex
	debugOut io.Writer = os.Stderr
)

// DebugEnabled reports whether FUSEFLOW_DEBUG lists what (case-insensitive,
// entries separated by commas, spaces ignored; "all" enables everything).
func DebugEnabled(what string) bool {
	v := os.Getenv(EnvDebug)
	if v == "" {
		return false
	}
	for f := range strings.SplitSeq(v, ",") {
		f = strings.TrimSpace(f)
		if strings.EqualFold(f, what) || strings.EqualFold(f, "all") {
			return true
		}
	}
	return false
}

// debugPrint writes text with line numbers when FUSEFLOW_DEBUG lists what.
func debugPrint(what, text string) {
	if !DebugEnabled(what) {
		return
	}
	debugMu.Lock()
	defer debugMu.Unlock()
	writeNumbered(debugOut, text)
}

// writeNumbered writes each line of text prefixed with its number, the
// numbers ptxas's messages use.
func writeNumbered(w io.Writer, text string) {
	var b strings.Builder
	n := 0
	for line := range strings.SplitSeq(strings.TrimSuffix(text, "\n"), "\n") {
		n++
		fmt.Fprintf(&b, "%5d | %s\n", n, line)
	}
	io.WriteString(w, b.String())
}
