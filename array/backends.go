// Backends: the array package links every backend, so that Default and
// NewContext find them by name without an import in the user's program.

package array

// exec/all registers exec/cpu, exec/cuda and exec/ref with exec.Register;
// the default backend is resolved by exec.OpenDefault, not here.
import _ "github.com/fuseflow/fuseflow/exec/all"
