// Tests of reading ahead on a device backend: a stand-in device (the CPU
// backend with uploads that copy and are logged) shows that batch i+1 is
// read and uploaded while batch i computes, that the results equal the
// CPU's, and that a failing upload or an early stop leaves nothing
// allocated.

package table

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
)

// stagedBackend is the CPU backend posing as a device: ToDevice copies a
// host tensor (as a device upload would) and logs it; Eval of a batch
// waits, up to a while, for an upload to begin before it returns, and
// logs whether one did.
type stagedBackend struct {
	exec.Backend
	alloc   memory.Allocator
	batches int // evaluations that are batches (the rest: the final one)

	mu       sync.Mutex
	uploads  int
	evals    int
	overlaps []bool // per batch evaluation: an upload began while it ran
	failAt   int    // the upload that fails (0: none)
	uploaded chan struct{}
}

func newStaged(t *testing.T, alloc memory.Allocator, batches int) *stagedBackend {
	be, err := exec.Open("cpu")
	if err != nil {
		t.Fatal(err)
	}
	return &stagedBackend{Backend: be, alloc: alloc, batches: batches, uploaded: make(chan struct{}, 64)}
}

func (b *stagedBackend) ToDevice(_ context.Context, t *exec.Tensor) (*exec.Tensor, error) {
	b.mu.Lock()
	b.uploads++
	fail := b.uploads == b.failAt
	b.mu.Unlock()
	if fail {
		return nil, errors.New("upload refused")
	}
	out, err := exec.NewTensorUninit(b.alloc, t.DType, t.Shape)
	if err != nil {
		return nil, err
	}
	copy(out.Bytes(), t.Bytes()[t.Offset*t.DType.Size():])
	b.uploaded <- struct{}{}
	return out, nil
}

func (b *stagedBackend) ToHost(_ context.Context, t *exec.Tensor, _ memory.Allocator) (*exec.Tensor, error) {
	return t.View(t.Shape, t.Strides, t.Offset), nil
}

func (b *stagedBackend) Eval(ctx context.Context, req *exec.Request) ([]*exec.Tensor, error) {
	b.mu.Lock()
	b.evals++
	i := b.evals
	b.mu.Unlock()
	res, err := b.Backend.Eval(ctx, req)
	if i < b.batches { // not the last batch: the next one uploads meanwhile
		select {
		case <-b.uploaded:
			b.mu.Lock()
			b.overlaps = append(b.overlaps, true)
			b.mu.Unlock()
		case <-time.After(5 * time.Second):
			b.mu.Lock()
			b.overlaps = append(b.overlaps, false)
			b.mu.Unlock()
		}
	}
	return res, err
}

func TestReadAheadOverlaps(t *testing.T) {
	alloc := checkedAlloc(t)
	path := genParquet(t, alloc, 1000, 21, 300)
	exprs := []*Expr{Sum(Col("x").Mul(Col("f"))), Count(Col("x")), Max(Col("i"))}
	cpu, err := exec.Open("cpu")
	if err != nil {
		t.Fatal(err)
	}
	want, err := ScanParquet(path, Options{Backend: cpu, Alloc: alloc, BatchRows: 250}).Aggregate(context.Background(), exprs...)
	if err != nil {
		t.Fatal(err)
	}
	defer want.Release()

	be := newStaged(t, alloc, 4)
	// Drain the uploads of batch 1 as they come, so that each batch's
	// Eval sees the next batch's.
	s := ScanParquet(path, Options{Backend: be, Alloc: alloc, BatchRows: 250})
	got, err := s.Aggregate(context.Background(), exprs...)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Release()
	for c := range exprs {
		g, gok := value1(got, c)
		w, wok := value1(want, c)
		if gok != wok || !close(g, w) {
			t.Errorf("%s got:%v %v want:%v %v", exprs[c].Name(), g, gok, w, wok)
		}
	}
	if st := s.Stats(); st.Batches != 4 {
		t.Fatalf("batches got:%d want:4", st.Batches)
	}
	// x, f, i per batch and x's validity (x has nulls in every batch).
	if be.uploads != 4*4 {
		t.Errorf("uploads got:%d want:16", be.uploads)
	}
	if fmt.Sprint(be.overlaps) != "[true true true]" {
		t.Errorf("batches whose successor uploaded while they computed got:%v want:[true true true]", be.overlaps)
	}
}

func TestReadAheadErrors(t *testing.T) {
	alloc := checkedAlloc(t)
	path := genParquet(t, alloc, 1000, 22, 300)
	// An upload of the third batch fails: the scan returns its error and
	// releases every batch read ahead.
	be := newStaged(t, alloc, 0)
	be.failAt = 9
	_, err := ScanParquet(path, Options{Backend: be, Alloc: alloc, BatchRows: 250}).Aggregate(context.Background(), Sum(Col("x").Mul(Col("f"))), Max(Col("i")))
	if err == nil || !strings.Contains(err.Error(), "upload refused") {
		t.Errorf("failing upload got:%v", err)
	}
	// The consumer stops early (a row query whose emit fails): the batch
	// read ahead is released.
	be = newStaged(t, alloc, 0)
	stop := errors.New("enough")
	err = ScanParquet(path, Options{Backend: be, Alloc: alloc, BatchRows: 250}).Each(context.Background(), func(r arrow.Record) error { return stop }, Col("x").Add(Col("f")))
	if !errors.Is(err, stop) {
		t.Errorf("early stop got:%v want:%v", err, stop)
	}
}
