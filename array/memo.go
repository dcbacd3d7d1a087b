// Memoized node building: the node graph.Unary, graph.Binary,
// graph.BinaryWeak, graph.Reduce or graph.Slice returned for an op and
// its operand nodes (and Var's whole expression), kept per Context in a
// small two-way set-associative table keyed by the operands' IDs and
// held weakly. Building the same expression again (a
// loop that builds and evaluates it each iteration) then skips graph's
// structural hashing and interning, and gets the very node it would have
// got: graph hash-conses nodes, and the memo returns only a node still
// alive. A collected node, or a set two other builds took since, is a miss
// that builds through graph again.

package array

import (
	"math"
	"sync/atomic"
	"weak"

	"github.com/fuseflow/fuseflow/graph"
)

// memoSlots is the size of a Context's memo table (a power of two).
const memoSlots = 256

// memoForm says which graph builder a memo key stands for.
type memoForm uint8

const (
	formUnary memoForm = iota + 1
	formBinary
	formWeak // BinaryWeak, the scalar on the right
	formReduce
	formSlice // a Slice whose ranges are whole axes but the last
	formVar   // the variance's whole expression (buildVariance)
)

// memoKey is what a built node depends on: the builder, the op, the
// operand IDs (unique in the process and never reused, so equal IDs are
// the same nodes), and the scalar or the reduction's axis. Floats are
// compared by their bits, so that 0 and -0 differ and NaN matches NaN.
type memoKey struct {
	form  memoForm
	op    graph.Op
	x, y  uint64
	kind  graph.Kind // formWeak: the scalar
	i     int64      // formWeak: the integer; formReduce, formVar: the axis; formSlice: the start
	f     uint64     // formWeak: the float's bits; formSlice: the stop
	b     bool       // formWeak: the bool; formReduce, formVar: keep dims; formSlice: no start
	b2    bool       // formSlice: no stop
	nAxes int        // formReduce, formVar: 0 (all axes) or 1; formSlice: the number of ranges
}

// memoRec is one memoized build; immutable once stored.
type memoRec struct {
	key memoKey
	n   weak.Pointer[graph.Node]
}

// memo is a Context's table of recent builds. Safe for concurrent use.
type memo struct {
	slots [memoSlots]atomic.Pointer[memoRec]
}

// set returns the index of k's set of two slots (even; the set is that
// slot and the next).
func (m *memo) set(k *memoKey) int {
	h := k.x*0x9e3779b97f4a7c15 ^ k.y*0xc2b2ae3d27d4eb4f ^ (uint64(k.op)<<8|uint64(k.form))*0x165667b19e3779f9 ^ uint64(k.i) ^ k.f
	h ^= h >> 29
	return int((h*0xbf58476d1ce4e5b9)>>(64-8)) &^ 1
}

// build returns the node for k: the memoized one while it is alive,
// else mk's, memoized when it carries no error. Each key has a set of
// two slots, so that two builds of a loop whose keys share a set do not
// evict each other: a new record takes the first slot and moves a live
// one there to the second (concurrent builds may lose a record
// meanwhile, which costs a build through graph, never a wrong node).
func (m *memo) build(k *memoKey, mk func() *graph.Node) *graph.Node {
	i := m.set(k)
	s, t := &m.slots[i], &m.slots[i+1]
	first := s.Load()
	if r := first; r != nil && r.key == *k {
		if n := r.n.Value(); n != nil {
			return n
		}
	}
	if r := t.Load(); r != nil && r.key == *k {
		if n := r.n.Value(); n != nil {
			return n
		}
	}
	n := mk()
	if n.Err() == nil {
		if first != nil && first.key != *k && first.n.Value() != nil {
			t.Store(first)
		}
		s.Store(&memoRec{key: *k, n: weak.Make(n)})
	}
	return n
}

// memoOK reports whether c has a memo and the operands are valid nodes
// (an error node is built through graph, which passes it on).
func memoOK(c *Context, ops ...*graph.Node) bool {
	if c == nil {
		return false
	}
	for _, n := range ops {
		if n == nil || n.Err() != nil {
			return false
		}
	}
	return true
}

// unaryNode is graph.Unary(op, x) through c's memo.
func unaryNode(c *Context, op graph.Op, x *graph.Node) *graph.Node {
	if !memoOK(c, x) {
		return graph.Unary(op, x)
	}
	k := memoKey{form: formUnary, op: op, x: x.ID()}
	return c.memo.build(&k, func() *graph.Node { return graph.Unary(op, x) })
}

// binaryNode is graph.Binary(op, x, y) through c's memo.
func binaryNode(c *Context, op graph.Op, x, y *graph.Node) *graph.Node {
	if !memoOK(c, x, y) {
		return graph.Binary(op, x, y)
	}
	k := memoKey{form: formBinary, op: op, x: x.ID(), y: y.ID()}
	return c.memo.build(&k, func() *graph.Node { return graph.Binary(op, x, y) })
}

// weakNode is graph.BinaryWeak(op, x, w, false) through c's memo.
func weakNode(c *Context, op graph.Op, x *graph.Node, w graph.Weak) *graph.Node {
	if !memoOK(c, x) {
		return graph.BinaryWeak(op, x, w, false)
	}
	k := memoKey{form: formWeak, op: op, x: x.ID(), kind: w.Kind, i: w.Int, f: math.Float64bits(w.Float), b: w.Bool}
	return c.memo.build(&k, func() *graph.Node { return graph.BinaryWeak(op, x, w, false) })
}

// sliceNode is graph.Slice(x, ranges) through c's memo, for ranges that
// are whole axes but the last (a step or a reversal of one axis, as
// views built in a loop take); others go to graph directly. The step
// goes in y, which for this form holds no node ID.
func sliceNode(c *Context, x *graph.Node, ranges []graph.Range) *graph.Node {
	n := len(ranges)
	if n == 0 || !memoOK(c, x) {
		return graph.Slice(x, ranges)
	}
	for _, r := range ranges[:n-1] {
		if r != graph.All {
			return graph.Slice(x, ranges)
		}
	}
	r := ranges[n-1]
	k := memoKey{form: formSlice, op: graph.OpSlice, x: x.ID(), y: uint64(r.Step), i: int64(r.Start), f: uint64(r.Stop), b: r.NoStart, b2: r.NoStop, nAxes: n}
	return c.memo.build(&k, func() *graph.Node { return graph.Slice(x, ranges) })
}

// reduceNode is graph.Reduce(op, x, axes, keep) through c's memo, for no
// axis or one (more go to graph directly).
func reduceNode(c *Context, op graph.Op, x *graph.Node, axes []int, keep bool) *graph.Node {
	if len(axes) > 1 || !memoOK(c, x) {
		return graph.Reduce(op, x, axes, keep)
	}
	k := memoKey{form: formReduce, op: op, x: x.ID(), b: keep, nAxes: len(axes)}
	if len(axes) == 1 {
		k.i = int64(axes[0])
	}
	return c.memo.build(&k, func() *graph.Node { return graph.Reduce(op, x, axes, keep) })
}

// variance is buildVariance through a's Context's memo, for no axis or
// one: the node of the whole expression (a dozen ops, each an Array) is
// memoized, so that building Var of the same array again makes one
// Array. ddof goes in y, which for this form holds no node ID; name only
// names errors, which are not memoized.
func (a *Array) variance(name string, ddof int, axes []int, keep bool) *Array {
	c, x := ctxOf(a), nodeFor(a, name)
	if len(axes) > 1 || !memoOK(c, x) {
		return a.buildVariance(name, ddof, axes, keep)
	}
	k := memoKey{form: formVar, op: graph.OpSum, x: x.ID(), y: uint64(ddof), b: keep, nAxes: len(axes)}
	if len(axes) == 1 {
		k.i = int64(axes[0])
	}
	var built *Array
	n := c.memo.build(&k, func() *graph.Node {
		built = a.buildVariance(name, ddof, axes, keep)
		return built.node
	})
	if built != nil {
		return built
	}
	return a.derive(n)
}
