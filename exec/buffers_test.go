package exec_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
)

// TestReleaseSole checks that ReleaseSole reports a release that freed
// the buffer, and only that: a buffer another holder still references
// is not the caller's to reuse. It also fails when the reference count
// can no longer be read (a later arrow moved it), which turns header
// reuse off.
func TestReleaseSole(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, tc := range []struct {
		name   string
		others int // references held besides the caller's
		want   bool
	}{
		{"sole", 0, true},
		{"shared", 1, false},
		{"shared twice", 2, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := memory.NewResizableBuffer(mem)
			b.Resize(100)
			for range tc.others {
				b.Retain()
			}
			if got := exec.ReleaseSole(b); got != tc.want {
				t.Errorf("ReleaseSole got:%v want:%v", got, tc.want)
			}
			for range tc.others {
				b.Release()
			}
			if got := b.Len(); got != 0 {
				t.Errorf("Len after the last release got:%v want:0", got)
			}
		})
	}
}

// TestBufferListReuse checks that a BufferList hands out a header again
// only once Put took it back freed, in the state NewResizableBuffer
// gives (one reference, no memory, resizable), and that it ignores
// headers still referenced or holding memory.
func TestBufferListReuse(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	var l exec.BufferList
	l.Reset(mem)
	if l.Allocator() != mem {
		t.Fatalf("Allocator got:%v want:%v", l.Allocator(), mem)
	}
	a := l.New()
	a.Resize(64)
	if got := len(l.Given()); got != 1 {
		t.Fatalf("Given got:%d want:1", got)
	}
	l.Put(a) // still referenced: ignored
	b := l.New()
	if b == a {
		t.Fatal("New handed out a header still in use")
	}
	a.Release()
	l.Put(a)
	c := l.New()
	if c != a {
		t.Fatalf("New got:%p want the freed header %p", c, a)
	}
	if c.Len() != 0 || c.Buf() != nil || !c.Mutable() {
		t.Fatalf("reused header got: len %d, buf %v, mutable %v want: empty and resizable", c.Len(), c.Buf() != nil, c.Mutable())
	}
	c.Resize(200)
	c.Bytes()[199] = 7
	c.Retain()
	c.Release() // one reference left: the one New gave
	if exec.ReleaseSole(c) != true {
		t.Fatal("ReleaseSole of a reused header's only reference got:false want:true")
	}
	b.Release()
	// Take and Give move the kept headers between lists.
	l.Put(b)
	l.Put(c)
	kept := l.Take(nil)
	if len(kept) != 2 {
		t.Fatalf("Take got:%d headers want:2", len(kept))
	}
	var m exec.BufferList
	m.Reset(mem)
	if rest := m.Give(kept); len(rest) != 0 {
		t.Fatalf("Give left %d headers", len(rest))
	}
	d := m.New()
	if d != b && d != c {
		t.Fatal("New after Give made a new header")
	}
	d.Release()
	// Reset to another allocator drops the kept headers.
	m.Put(d)
	m.Reset(memory.NewGoAllocator())
	if e := m.New(); e == b || e == c {
		t.Fatal("New after Reset to another allocator reused a header of the old one")
	}
}
