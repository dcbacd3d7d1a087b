// This file implements FUSEFLOW_DEBUG=ptx: every emitted module printed
// with line numbers to stderr (internal/config parses the variable).

package ptx

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/fuseflow/fuseflow/internal/config"
)

// EnvDebug is the environment variable read for debug output.
const EnvDebug = config.Debug

// debugOut is where debug output goes; tests replace it.
var (
	debugMu  sync.Mutex
	debugOut io.Writer = os.Stderr
)

// debugPrint writes text with line numbers when FUSEFLOW_DEBUG turns on
// the topic what (config.DebugPTX).
func debugPrint(what, text string) {
	if !config.Debugging(what) {
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
