// Package all links every backend of fuseflow into a program: importing
// it for its side effects registers exec/cpu ("cpu"), exec/cuda ("cuda",
// "cuda:N") and exec/ref ("ref") with exec.Register, so that exec.Open
// and exec.OpenDefault find them.
//
// The array package imports it, so programs that use array have every
// backend without an import of their own. A program that drives the exec
// layer directly imports it, or only the backend packages it wants:
//
//	import _ "github.com/fuseflow/fuseflow/exec/all"
package all

import (
	_ "github.com/fuseflow/fuseflow/exec/cpu"  // registers "cpu"
	_ "github.com/fuseflow/fuseflow/exec/cuda" // registers "cuda" and "cuda:N"
	_ "github.com/fuseflow/fuseflow/exec/ref"  // registers "ref"
)
