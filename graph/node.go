// Node: the immutable, hash-consed vertex of an expression graph, its
// attributes and the intern table that makes identical subexpressions one
// node.

package graph

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"weak"
)

// SliceSpec is one axis of a Slice, normalized: element i of the result
// is element Start + i*Step of the input along that axis; Len elements.
type SliceSpec struct {
	Start, Step, Len int
}

// Attr holds the op-specific attributes of a node. Only the fields its op
// documents are set; the rest are zero.
type Attr struct {
	Value    Scalar      // OpConst
	Label    string      // OpInput: a name for messages and DOT output
	Start    float64     // OpIota
	Step     float64     // OpIota
	Stop     float64     // OpIota with HasStop: the exact last value (Linspace)
	HasStop  bool        // OpIota
	K        int         // OpEye: diagonal offset; OpSort, OpArgSort: elements kept per row
	Seed     uint64      // OpRandU, OpRandN
	Axes     []int       // reductions: sorted, normalized
	KeepDims bool        // reductions
	Flat     bool        // OpArgMax, OpArgMin over the flattened input
	Perm     []int       // OpPermute
	Slices   []SliceSpec // OpSlice, one per input axis
	Axis     int         // OpConcat; OpSort, OpArgSort: the sorted axis
	Call     *CallAttr   // OpCall: the call, shared by its outputs
	Output   int         // OpCall: which written argument (see CallAttr.Written)
	Desc     bool        // OpSort, OpArgSort: largest first (TopK)
}

// Node is one operation in an expression graph. Nodes are immutable and
// safe for concurrent use. Identical subexpressions built anywhere in the
// process are the same *Node (hash-consing), except Input leaves, which
// are unique. A node built from invalid operands carries an error (Err)
// instead of a result type, and so does every node built on it.
type Node struct {
	op     Op
	dtype  DType
	shape  Shape
	inputs []*Node
	attr   Attr
	err    error
	id     uint64
	hash   uint64
	// verified is set once Verify found the graph under the node
	// consistent.
	verified atomic.Bool
}

var nextID atomic.Uint64

// Op returns the operation.
func (n *Node) Op() Op { return n.op }

// DType returns the element type of the result.
func (n *Node) DType() DType { return n.dtype }

// Shape returns the result's shape. The caller must not modify it.
func (n *Node) Shape() Shape { return n.shape }

// Size returns the number of elements of the result.
func (n *Node) Size() int { return n.shape.Size() }

// Inputs returns the operands. The caller must not modify the slice.
func (n *Node) Inputs() []*Node { return n.inputs }

// Input returns operand i.
func (n *Node) Input(i int) *Node { return n.inputs[i] }

// Attr returns the op-specific attributes. Slices in it must not be
// modified.
func (n *Node) Attr() *Attr { return &n.attr }

// Err returns the error recorded when the node was built, or nil.
func (n *Node) Err() error { return n.err }

// ID returns a process-unique number for the node, in creation order (an
// input always has a smaller ID than the nodes built on it).
func (n *Node) ID() uint64 { return n.id }

// Hash returns the structural hash of the node: equal for nodes that
// compute the same thing from the same leaves.
func (n *Node) Hash() uint64 { return n.hash }

var hashSeed = maphash.MakeSeed()

// structHash hashes what makes two nodes the same computation: the op,
// the dtype, the shape, the operands' IDs and key, the attributes'
// canonical encoding (Attr.appendKey).
func structHash(op Op, d DType, s Shape, in []*Node, key []byte) uint64 {
	var buf [192]byte
	b := binary.AppendUvarint(buf[:0], uint64(op)<<8|uint64(d))
	b = binary.AppendUvarint(b, uint64(len(s)))
	for _, e := range s {
		b = binary.AppendUvarint(b, uint64(e))
	}
	b = binary.AppendUvarint(b, uint64(len(in)))
	for _, x := range in {
		b = binary.AppendUvarint(b, x.id)
	}
	b = append(b, key...)
	return maphash.Bytes(hashSeed, b)
}

// sameAs reports whether n computes (op, d, s, in) with the attributes
// whose canonical encoding is key.
func (n *Node) sameAs(op Op, d DType, s Shape, in []*Node, key []byte) bool {
	if n.op != op || n.dtype != d || !n.shape.Equal(s) || len(n.inputs) != len(in) {
		return false
	}
	for i := range in {
		if n.inputs[i] != in[i] {
			return false
		}
	}
	var buf [64]byte
	return bytes.Equal(n.attr.appendKey(buf[:0]), key)
}

// The intern table holds weak pointers, so interned nodes are collected
// when nothing else refers to them.
var intern = struct {
	sync.Mutex
	m map[uint64][]weak.Pointer[Node]
}{m: map[uint64][]weak.Pointer[Node]{}}

func prune(h uint64) {
	intern.Lock()
	defer intern.Unlock()
	b := intern.m[h]
	k := b[:0]
	for _, p := range b {
		if p.Value() != nil {
			k = append(k, p)
		}
	}
	if len(k) == 0 {
		delete(intern.m, h)
	} else {
		intern.m[h] = k
	}
}

// makeNode returns the interned node for (op, d, s, in, a), creating it
// when none exists, or a node carrying CheckShape's error when s of d is
// not a valid shape (constructors check their user-facing shapes first,
// for messages that name the operands as given; this is the backstop
// that no node escapes). s and a are owned by the callee afterwards; in
// is copied when a node is made (so that callers may pass a slice on
// their stack, and finding an existing node allocates nothing).
func makeNode(op Op, d DType, s Shape, in []*Node, a Attr) *Node {
	if err := CheckShape(s, d); err != nil {
		return errNode(op, in, "%v", err)
	}
	var kb [64]byte
	key := a.appendKey(kb[:0])
	h := structHash(op, d, s, in, key)
	intern.Lock()
	for _, p := range intern.m[h] {
		if n := p.Value(); n != nil && n.sameAs(op, d, s, in, key) {
			intern.Unlock()
			return n
		}
	}
	n := &Node{op: op, dtype: d, shape: s, inputs: slices.Clone(in), attr: a, id: nextID.Add(1), hash: h}
	intern.m[h] = append(intern.m[h], weak.Make(n))
	intern.Unlock()
	runtime.AddCleanup(n, prune, h)
	return n
}

// Input returns a new leaf for data of dtype d and shape s bound at
// evaluation time. Every call returns a distinct node; label names it in
// messages and DOT output.
func Input(d DType, s Shape, label string) *Node {
	if !d.Supported() {
		return errNode(OpInput, nil, "unsupported dtype %v", d)
	}
	if err := CheckShape(s, d); err != nil {
		return errNode(OpInput, nil, "%v", err)
	}
	id := nextID.Add(1)
	a := Attr{Label: label}
	n := &Node{op: OpInput, dtype: d, shape: s.Clone(), attr: a, id: id}
	var buf [8]byte
	binary.LittleEndian.PutUint64(buf[:], id)
	n.hash = maphash.Bytes(hashSeed, buf[:])
	return n
}
