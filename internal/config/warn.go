// Reporting malformed values: once per variable and value, on standard
// error.

package config

import (
	"fmt"
	"io"
	"os"
	"sync"
)

var (
	warnMu  sync.Mutex
	warnOut io.Writer = os.Stderr
	warned            = map[string]bool{}
)

// warnOnce writes "fuseflow: NAME: "value": why" to standard error the
// first time it is called with name and value.
func warnOnce(name, value, why string) {
	warnMu.Lock()
	defer warnMu.Unlock()
	key := name + "\x00" + value
	if warned[key] {
		return
	}
	warned[key] = true
	fmt.Fprintf(warnOut, "fuseflow: %s: %q: %s\n", name, value, why)
}
