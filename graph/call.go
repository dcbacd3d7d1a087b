// Call: the node of an explicit kernel call — the kernel (opaque to the
// graph, compared by identity), its arguments and launch geometry, the
// canonical encoding of those attributes, and the constructor that
// returns one node per slice the kernel writes.

package graph

import (
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
)

// Callee is an explicit kernel as the graph knows it: a name for
// messages. The graph compares callees by identity, so a Callee must be a
// pointer (package kernel's *Kernel is); it is kept alive by the nodes
// that call it.
type Callee interface {
	Name() string
}

// CallArg is one argument of a call, for one kernel parameter after the
// Thread: an array (Input >= 0: the index of its node among the call's
// inputs) or a scalar (Input == -1, Value).
type CallArg struct {
	// Name is the parameter's name, for messages.
	Name string
	// Input indexes the call's inputs for an array argument, -1 for a
	// scalar.
	Input int
	// Written marks an array argument the kernel writes: its final
	// contents are an output of the call, its initial contents the input
	// array's (the input itself is never changed).
	Written bool
	// Value is a scalar argument: a Go bool, int, int32, int64, uint32,
	// uint64, float32 or float64, of exactly the parameter's type.
	Value any
}

// CallAttr describes an explicit kernel call: the kernel, one argument
// per parameter, and the launch geometry — Grid and Block in blocks and
// threads (a zero component means 1) with SharedBytes of dynamic shared
// memory per block, or with ForAll one thread per task for Tasks tasks
// and the block size the device prefers for the kernel. It is immutable
// once given to Call.
type CallAttr struct {
	Kernel      Callee
	Args        []CallArg
	Grid, Block [3]int
	SharedBytes int
	ForAll      bool
	Tasks       int
}

// Written returns the indices in Args of the written arguments, in
// order: output j of the call is argument Written()[j].
func (c *CallAttr) Written() []int {
	var out []int
	for i, a := range c.Args {
		if a.Written {
			out = append(out, i)
		}
	}
	return out
}

// Name returns the kernel's name ("" for a nil attribute).
func (c *CallAttr) Name() string {
	if c == nil || c.Kernel == nil {
		return ""
	}
	return c.Kernel.Name()
}

// Call returns the results of calling the explicit kernel c.Kernel with
// the array arguments in: one node per written argument, in parameter
// order, each of the dtype and shape of its input. The kernel sees each
// array flattened in row-major order (a slice of Size elements); a
// written argument starts with its input's values. The inputs are only
// read. Every returned node carries an error when c is malformed (no
// kernel or not a pointer, an argument's input out of range or used
// twice, an input no argument uses, a written scalar, a scalar of a type
// kernels do not take, no written argument, a negative geometry) or an
// input carries one; then at least one node is returned.
func Call(c *CallAttr, in []*Node) []*Node {
	nw := 0
	if c != nil {
		nw = max(len(c.Written()), 1)
	}
	fail := func(e *Node) []*Node {
		out := make([]*Node, max(nw, 1))
		for i := range out {
			out[i] = e
		}
		return out
	}
	if e := firstErr(in); e != nil {
		return fail(e)
	}
	if err := checkCall(c, in); err != nil {
		return fail(errNode(OpCall, in, "%s%v", callPrefix(c), err))
	}
	a := *c
	a.Args = append([]CallArg(nil), c.Args...)
	out := make([]*Node, 0, nw)
	for j, i := range a.Written() {
		x := in[a.Args[i].Input]
		out = append(out, makeNode(OpCall, x.dtype, x.shape, in, Attr{Call: &a, Output: j}))
	}
	return out
}

// callPrefix names the kernel for messages: "kernel Saxpy: ".
func callPrefix(c *CallAttr) string {
	if n := c.Name(); n != "" {
		return "kernel " + n + ": "
	}
	return ""
}

// checkCall checks the structure of a call (see Call).
func checkCall(c *CallAttr, in []*Node) error {
	if c == nil || c.Kernel == nil {
		return fmt.Errorf("no kernel")
	}
	if v := reflect.ValueOf(c.Kernel); v.Kind() != reflect.Pointer || v.IsNil() {
		return fmt.Errorf("the callee %T is not a non-nil pointer", c.Kernel)
	}
	used := make([]bool, len(in))
	written := 0
	for _, a := range c.Args {
		if a.Input < 0 {
			if a.Written {
				return fmt.Errorf("parameter %s: a scalar cannot be written", a.Name)
			}
			if _, ok := scalarKey(a.Value); !ok {
				return fmt.Errorf("parameter %s: scalar %v of type %T (kernels take bool, int, int32, int64, uint32, uint64, float32 or float64)", a.Name, a.Value, a.Value)
			}
			continue
		}
		if a.Input >= len(in) {
			return fmt.Errorf("parameter %s: input %d of %d", a.Name, a.Input, len(in))
		}
		if used[a.Input] {
			return fmt.Errorf("parameter %s: input %d is given to two parameters", a.Name, a.Input)
		}
		used[a.Input] = true
		if !in[a.Input].dtype.Supported() {
			return fmt.Errorf("parameter %s: unsupported dtype %v", a.Name, in[a.Input].dtype)
		}
		if a.Written {
			written++
		}
	}
	for i, u := range used {
		if !u {
			return fmt.Errorf("input %d is no parameter's argument", i)
		}
	}
	if written == 0 {
		return fmt.Errorf("the kernel writes none of its array arguments, so the call has no result")
	}
	for k := range 3 {
		if c.Grid[k] < 0 || c.Block[k] < 0 {
			return fmt.Errorf("grid %v, block %v: a negative dimension", c.Grid, c.Block)
		}
	}
	switch {
	case c.SharedBytes < 0:
		return fmt.Errorf("%d bytes of dynamic shared memory", c.SharedBytes)
	case c.Tasks < 0:
		return fmt.Errorf("ForAll of %d tasks", c.Tasks)
	case c.ForAll && (c.Grid != [3]int{} || c.Block != [3]int{}):
		return fmt.Errorf("ForAll with a grid %v and block %v", c.Grid, c.Block)
	}
	return nil
}

// scalarKey returns a tag and the bits of a scalar argument, false for a
// type kernels do not take.
func scalarKey(v any) ([2]uint64, bool) {
	switch x := v.(type) {
	case bool:
		if x {
			return [2]uint64{1, 1}, true
		}
		return [2]uint64{1, 0}, true
	case int:
		return [2]uint64{2, uint64(x)}, true
	case int32:
		return [2]uint64{3, uint64(x)}, true
	case int64:
		return [2]uint64{4, uint64(x)}, true
	case uint32:
		return [2]uint64{5, uint64(x)}, true
	case uint64:
		return [2]uint64{6, x}, true
	case float32:
		return [2]uint64{7, uint64(math.Float32bits(x))}, true
	case float64:
		return [2]uint64{8, math.Float64bits(x)}, true
	}
	return [2]uint64{}, false
}

// AppendKey appends the canonical encoding of c to b: the kernel's
// identity, every argument (input index, written flag, a scalar's type
// and bits) and the geometry. Two attributes encode alike exactly when
// they describe the same call; nil encodes to nothing.
func (c *CallAttr) AppendKey(b []byte) []byte {
	if c == nil {
		return b
	}
	var id uintptr
	if c.Kernel != nil {
		id = reflect.ValueOf(c.Kernel).Pointer()
	}
	b = binary.AppendUvarint(b, uint64(id))
	b = binary.AppendUvarint(b, uint64(len(c.Args)))
	for _, a := range c.Args {
		b = binary.AppendVarint(b, int64(a.Input))
		if a.Written {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
		if a.Input < 0 {
			k, _ := scalarKey(a.Value)
			b = binary.AppendUvarint(b, k[0])
			b = binary.AppendUvarint(b, k[1])
		}
	}
	for _, v := range [...]int{c.Grid[0], c.Grid[1], c.Grid[2], c.Block[0], c.Block[1], c.Block[2], c.SharedBytes, c.Tasks} {
		b = binary.AppendVarint(b, int64(v))
	}
	if c.ForAll {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	return b
}

// CallKey returns a key equal for the OpCall nodes that are outputs of
// one call (the same kernel, arguments, geometry and inputs), and ""
// for other nodes.
func (n *Node) CallKey() string {
	if n.op != OpCall || n.attr.Call == nil {
		return ""
	}
	b := make([]byte, 0, 64)
	b = binary.AppendUvarint(b, uint64(len(n.inputs)))
	for _, x := range n.inputs {
		b = binary.AppendUvarint(b, x.id)
	}
	return string(n.attr.Call.AppendKey(b))
}
