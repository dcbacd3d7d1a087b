// bufTree: the free temp buffers of one element size ordered by size,
// for best-fit reuse in O(log n) per value.

package fuse

// bufTree is a treap of (elems, buf) pairs ordered by elems, then buf.
// Priorities come from the buffer index, so the shape of the tree (and
// everything else) is deterministic.
type bufTree struct {
	root   *bufNode
	visits int // tree nodes visited, the work done
}

type bufNode struct {
	elems, buf  int
	prio        uint64
	left, right *bufNode
}

func less(ae, ab, be, bb int) bool { return ae < be || ae == be && ab < bb }

func prio(buf int) uint64 {
	x := uint64(buf) + 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// split divides t into the pairs before (e, b) and the others.
func (bt *bufTree) split(t *bufNode, e, b int) (*bufNode, *bufNode) {
	bt.visits++
	if t == nil {
		return nil, nil
	}
	if less(t.elems, t.buf, e, b) {
		l, r := bt.split(t.right, e, b)
		t.right = l
		return t, r
	}
	l, r := bt.split(t.left, e, b)
	t.left = r
	return l, t
}

func (bt *bufTree) merge(l, r *bufNode) *bufNode {
	bt.visits++
	switch {
	case l == nil:
		return r
	case r == nil:
		return l
	case l.prio > r.prio:
		l.right = bt.merge(l.right, r)
		return l
	}
	r.left = bt.merge(l, r.left)
	return r
}

func (t *bufTree) insert(elems, buf int) {
	l, r := t.split(t.root, elems, buf)
	t.root = t.merge(t.merge(l, &bufNode{elems: elems, buf: buf, prio: prio(buf)}), r)
}

func (t *bufTree) remove(elems, buf int) {
	l, r := t.split(t.root, elems, buf)
	_, r = t.split(r, elems, buf+1)
	t.root = t.merge(l, r)
}

// bestFit returns the buffer with the fewest elements >= n (the lowest
// index among equals) or, when none holds n, the one with the most
// elements (the lowest index among equals).
func (t *bufTree) bestFit(n int) (int, bool) {
	if fit := t.ceil(n); fit != nil {
		return fit.buf, true
	}
	var big *bufNode
	for c := t.root; c != nil; c = c.right {
		t.visits++
		big = c
	}
	if big == nil {
		return 0, false
	}
	return t.ceil(big.elems).buf, true // the first of the largest size
}

// ceil returns the first node in order with at least n elements, nil
// when none has.
func (t *bufTree) ceil(n int) *bufNode {
	var fit *bufNode
	for c := t.root; c != nil; {
		t.visits++
		if c.elems >= n {
			fit = c
			c = c.left
		} else {
			c = c.right
		}
	}
	return fit
}
