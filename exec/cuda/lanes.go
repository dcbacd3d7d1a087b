// Lanes: the backend's streams, each with its staging ring and timing
// events, handed to one evaluation at a time.

package cuda

import (
	"context"
	"sync"

	drv "github.com/fuseflow/fuseflow/internal/cuda"
)

// lane is one stream and what is used with it. An evaluation holds a lane
// for its whole duration, so nothing in it needs a lock.
type lane struct {
	stream drv.Stream
	ring   *stagingRing
	// timing holds events for per-kernel timing, grown on demand.
	timing []drv.Event
}

// lanes hands out at most max lanes, creating them on first demand.
type lanes struct {
	ctx   *drv.Context
	chunk int
	idle  chan *lane
	mu    sync.Mutex
	all   []*lane
	max   int
}

func newLanes(ctx *drv.Context, n, chunk int) *lanes {
	return &lanes{ctx: ctx, chunk: chunk, idle: make(chan *lane, n), max: n}
}

// acquire returns an idle lane, creating one while fewer than max exist,
// else waiting for one (or for ctx to end).
func (l *lanes) acquire(ctx context.Context) (*lane, error) {
	select {
	case ln := <-l.idle:
		return ln, nil
	default:
	}
	l.mu.Lock()
	if len(l.all) < l.max {
		s, err := l.ctx.StreamCreate(drv.StreamNonBlocking)
		if err != nil {
			l.mu.Unlock()
			return nil, err
		}
		ln := &lane{stream: s}
		l.all = append(l.all, ln)
		l.mu.Unlock()
		return ln, nil
	}
	l.mu.Unlock()
	select {
	case ln := <-l.idle:
		return ln, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// release makes ln idle again.
func (l *lanes) release(ln *lane) { l.idle <- ln }

// staging returns ln's staging ring, allocating it on first use.
func (l *lanes) staging(ln *lane) (*stagingRing, error) {
	if ln.ring == nil {
		r, err := newStagingRing(l.ctx, l.chunk)
		if err != nil {
			return nil, err
		}
		ln.ring = r
	}
	return ln.ring, nil
}

// events returns n timing events of ln, creating the missing ones.
func (l *lanes) events(ln *lane, n int) ([]drv.Event, error) {
	for len(ln.timing) < n {
		e, err := l.ctx.EventCreate(drv.EventDefault)
		if err != nil {
			return nil, err
		}
		ln.timing = append(ln.timing, e)
	}
	return ln.timing[:n], nil
}

// close synchronizes and destroys every lane; none may be in use.
func (l *lanes) close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	var first error
	for _, ln := range l.all {
		if err := l.ctx.StreamSynchronize(ln.stream); err != nil && first == nil {
			first = err
		}
		if ln.ring != nil {
			ln.ring.close()
		}
		for _, e := range ln.timing {
			_ = l.ctx.EventDestroy(e)
		}
		if err := l.ctx.StreamDestroy(ln.stream); err != nil && first == nil {
			first = err
		}
	}
	l.all = nil
	return first
}
