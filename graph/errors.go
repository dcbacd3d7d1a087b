// Sticky errors: a node built from invalid operands records an OpError,
// and every node built on it carries the same error.

package graph

import (
	"fmt"
	"strings"
)

// OpError describes why an op could not be built: the op, its operands'
// shapes and dtypes, and what is wrong.
type OpError struct {
	Op     Op
	Shapes []Shape
	DTypes []DType
	Msg    string
}

// Error formats the error as "Op(shape dtype, ...): message".
func (e *OpError) Error() string {
	var b strings.Builder
	b.WriteString(e.Op.String())
	if len(e.Shapes) > 0 {
		b.WriteString("(")
		for i := range e.Shapes {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%v %v", e.Shapes[i], e.DTypes[i])
		}
		b.WriteString(")")
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// errNode returns a node that carries an OpError for op over operands in.
func errNode(op Op, in []*Node, format string, args ...any) *Node {
	e := &OpError{Op: op, Msg: fmt.Sprintf(format, args...)}
	for _, x := range in {
		e.Shapes = append(e.Shapes, x.shape)
		e.DTypes = append(e.DTypes, x.dtype)
	}
	return &Node{op: op, err: e, id: nextID.Add(1)}
}

// ErrorNode returns a node that carries err, for callers (the array API)
// that detect a problem before any graph op is built. op names the
// operation for messages.
func ErrorNode(op Op, err error) *Node {
	return &Node{op: op, err: err, id: nextID.Add(1)}
}

// firstErr returns the first operand carrying an error, or nil.
func firstErr(in []*Node) *Node {
	for _, x := range in {
		if x == nil {
			return ErrorNode(OpInvalid, fmt.Errorf("nil operand"))
		}
		if x.err != nil {
			return x
		}
	}
	return nil
}
