// Package barrier holds a kernel whose barrier only some threads reach.
package barrier

import "github.com/fuseflow/fuseflow/kernel"

//fuseflow:kernel
func Barrier(t kernel.Thread, out []float32) {
	i := t.Grid1()
	if i >= len(out) { // the branch the message names
		return
	}
	out[i] = 1
	t.SyncThreads() // want "this barrier is not reached by every thread of the block.*\\(the branch is at barrier.go:9:"
}
