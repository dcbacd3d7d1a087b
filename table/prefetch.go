// Batches ready to evaluate: a record batch's columns checked against
// the schema, its GroupBy key codes, and, on a device backend, its
// columns already uploaded. On a device backend (one whose results stay
// in device memory: exec.HostCopier, with ToDevice) a goroutine reads and
// uploads batch i+1 while batch i computes: the upload runs on a stream
// of its own (the backend hands each call its own stream, through pinned
// staging buffers used in turn, or by direct DMA from pinned batches), so
// the transfer of the next batch overlaps the kernels of the current one.
// The host holds one batch being read at a time; the device holds the
// batch computing and the one uploaded ahead.

package table

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fuseflow/fuseflow/exec"
)

// uploader is a backend that copies host tensors to its device
// (exec/cuda's Backend).
type uploader interface {
	exec.HostCopier
	ToDevice(ctx context.Context, t *exec.Tensor) (*exec.Tensor, error)
}

// prepared is one batch ready to evaluate.
type prepared struct {
	n      int
	key    string          // the plan key of its rows and null columns
	nulls  map[string]bool // the columns with nulls in it
	rec    arrow.Record    // the batch (nil once uploaded)
	cols   map[string]arrow.Array
	dev    map[string][2]*exec.Tensor // uploaded columns: values, validity (nil: none)
	codes  *exec.Tensor               // GroupBy's key codes (host)
	groups int                        // distinct keys so far
}

// release drops what the batch holds.
func (pb *prepared) release() {
	if pb == nil {
		return
	}
	if pb.rec != nil {
		pb.rec.Release()
		pb.rec = nil
	}
	for _, d := range pb.dev {
		d[0].Release()
		d[1].Release()
	}
	pb.dev = nil
	pb.codes.Release()
	pb.codes = nil
}

// prepare checks rec's columns against the schema and encodes its
// GroupBy keys (giving new keys codes: batches are prepared in order, by
// one goroutine at a time). It takes over rec.
func (r *runner) prepare(rec arrow.Record, batch int) (*prepared, error) {
	pb := &prepared{n: int(rec.NumRows()), rec: rec, nulls: map[string]bool{}, cols: make(map[string]arrow.Array, len(r.q.cols))}
	if pb.n == 0 {
		return pb, nil
	}
	var key strings.Builder
	fmt.Fprintf(&key, "%d", pb.n)
	for _, name := range r.q.cols {
		idx := rec.Schema().FieldIndices(name)
		if len(idx) != 1 {
			pb.release()
			return nil, fmt.Errorf("%s: batch %d has no column %q", r.si.from, batch, name)
		}
		a := rec.Column(idx[0])
		if want := r.si.s.Field(r.si.s.FieldIndices(name)[0]).Type; !arrow.TypeEqual(a.DataType(), want) && !dictOf(a.DataType(), want) {
			pb.release()
			return nil, fmt.Errorf("%s: batch %d: column %q has type %v, the schema says %v", r.si.from, batch, name, a.DataType(), want)
		}
		pb.cols[name] = a
		if a.NullN() > 0 {
			pb.nulls[name] = true
			key.WriteString("," + name)
		}
	}
	pb.key = key.String()
	pb.groups = 1
	if r.grp != nil {
		var err error
		if pb.codes, err = r.grp.encode(pb.cols[r.grp.key], r.alloc); err != nil {
			pb.release()
			return nil, fmt.Errorf("%s: %w", r.si.from, err)
		}
		pb.groups = len(r.grp.keys)
	}
	return pb, nil
}

// upload copies the batch's numeric columns (values, and validity where
// they have nulls) to up's device and lets go of the host batch.
func (r *runner) upload(ctx context.Context, up uploader, pb *prepared) error {
	if pb.n == 0 {
		return nil
	}
	pb.dev = map[string][2]*exec.Tensor{}
	for name, a := range pb.cols {
		_, d, err := r.si.lookup(name)
		if err != nil {
			continue // a string GroupBy key: only its codes are computed with
		}
		var pair [2]*exec.Tensor
		host, err := valuesTensor(a, d, r.alloc)
		if err != nil {
			return fmt.Errorf("%s: column %q: %w", r.si.from, name, err)
		}
		pair[0], err = up.ToDevice(ctx, host)
		host.Release()
		if err != nil {
			return fmt.Errorf("%s: uploading column %q: %w", r.si.from, name, err)
		}
		pb.dev[name] = pair
		if pb.nulls[name] {
			if host, err = validTensor(a, r.alloc); err != nil {
				return err
			}
			pair[1], err = up.ToDevice(ctx, host)
			host.Release()
			if err != nil {
				return fmt.Errorf("%s: uploading the validity of column %q: %w", r.si.from, name, err)
			}
			pb.dev[name] = pair
		}
	}
	pb.cols = nil
	pb.rec.Release()
	pb.rec = nil
	return nil
}

// batchSource yields prepared batches in order; next returns io.EOF at
// the end. stop ends any reading ahead and releases what was read.
type batchSource interface {
	next() (*prepared, error)
	stop()
}

// batches returns the prepared batches of br: read ahead and uploaded
// by a goroutine on a device backend, read in turn otherwise.
func (r *runner) batches(ctx context.Context, br batchReader) batchSource {
	up, ok := r.be.(uploader)
	if !ok {
		return &inOrder{r: r, br: br}
	}
	ctx, cancel := context.WithCancel(ctx)
	a := &ahead{out: make(chan result, 1), cancel: cancel}
	a.wg.Add(1)
	go a.run(ctx, r, up, br)
	return a
}

// inOrder reads and prepares each batch when it is asked for.
type inOrder struct {
	r  *runner
	br batchReader
	i  int
}

func (o *inOrder) next() (*prepared, error) {
	rec, err := o.br.next()
	if err != nil {
		return nil, err
	}
	o.i++
	return o.r.prepare(rec, o.i)
}

func (o *inOrder) stop() {}

// result is one batch read ahead, or the error that ended reading.
type result struct {
	pb  *prepared
	err error
}

// ahead reads, prepares and uploads batches on a goroutine, one ahead
// of the batch being computed.
type ahead struct {
	out    chan result // the last result sent is an error (io.EOF at the end)
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

func (a *ahead) run(ctx context.Context, r *runner, up uploader, br batchReader) {
	defer a.wg.Done()
	for i := 1; ; i++ {
		rec, err := br.next()
		var pb *prepared
		if err == nil {
			pb, err = r.prepare(rec, i)
		}
		if err == nil {
			if err = r.upload(ctx, up, pb); err != nil {
				pb.release()
				pb = nil
			}
		}
		select {
		case a.out <- result{pb, err}:
		case <-ctx.Done():
			pb.release()
			return
		}
		if err != nil {
			return
		}
	}
}

func (a *ahead) next() (*prepared, error) {
	res := <-a.out
	return res.pb, res.err
}

// stop cancels reading ahead, waits for the goroutine and releases the
// batch it had read.
func (a *ahead) stop() {
	a.cancel()
	a.wg.Wait()
	select {
	case res := <-a.out:
		res.pb.release()
	default:
	}
}
