// Streams and events: creation, ordering, synchronization and timing.

package cuda

import "time"

// StreamFlags are cuStreamCreate flags.
type StreamFlags uint32

// Stream flags.
const (
	StreamDefault     StreamFlags = 0
	StreamNonBlocking StreamFlags = 1 // no implicit sync with the default stream
)

// Event is a CUevent, a marker in a stream.
type Event uintptr

// EventFlags are cuEventCreate flags.
type EventFlags uint32

// Event flags.
const (
	EventDefault       EventFlags = 0
	EventBlockingSync  EventFlags = 1
	EventDisableTiming EventFlags = 2
)

// StreamCreate creates a stream (cuStreamCreate). The caller destroys it
// with StreamDestroy.
func (c *Context) StreamCreate(flags StreamFlags) (Stream, error) {
	return callCtxOut[Stream](c, fnStreamCreate, []uintptr{uintptr(flags)}, "%#x", uint32(flags))
}

// StreamDestroy destroys a stream (cuStreamDestroy_v2); work already in it
// still completes.
func (c *Context) StreamDestroy(s Stream) error {
	if r, at := c.callCtx(fnStreamDestroy, uintptr(s)); r != ResultSuccess {
		return c.failed(r, at, fnStreamDestroy, "stream %#x", uintptr(s))
	}
	return nil
}

// StreamSynchronize waits until all work in s is done
// (cuStreamSynchronize).
func (c *Context) StreamSynchronize(s Stream) error {
	if r, at := c.callCtx(fnStreamSynchronize, uintptr(s)); r != ResultSuccess {
		return c.failed(r, at, fnStreamSynchronize, "stream %#x", uintptr(s))
	}
	return nil
}

// EventCreate creates an event (cuEventCreate). The caller destroys it
// with EventDestroy.
func (c *Context) EventCreate(flags EventFlags) (Event, error) {
	return callCtxOut[Event](c, fnEventCreate, []uintptr{uintptr(flags)}, "%#x", uint32(flags))
}

// EventRecord records e at the current end of stream s (cuEventRecord).
func (c *Context) EventRecord(e Event, s Stream) error {
	if r, at := c.callCtx(fnEventRecord, uintptr(e), uintptr(s)); r != ResultSuccess {
		return c.failed(r, at, fnEventRecord, "event %#x, stream %#x", uintptr(e), uintptr(s))
	}
	return nil
}

// EventSynchronize waits until the work before e's record is done
// (cuEventSynchronize).
func (c *Context) EventSynchronize(e Event) error {
	if r, at := c.callCtx(fnEventSynchronize, uintptr(e)); r != ResultSuccess {
		return c.failed(r, at, fnEventSynchronize, "event %#x", uintptr(e))
	}
	return nil
}

// EventElapsed returns the GPU time between two recorded events
// (cuEventElapsedTime; about half a microsecond resolution). Both must have
// been created without EventDisableTiming and have completed.
func (c *Context) EventElapsed(start, end Event) (time.Duration, error) {
	ms, err := callCtxOut[float32](c, fnEventElapsedTime, []uintptr{uintptr(start), uintptr(end)}, "start %#x, end %#x", uintptr(start), uintptr(end))
	if err != nil {
		return 0, err
	}
	return time.Duration(float64(ms) * float64(time.Millisecond)), nil
}

// EventDestroy destroys an event (cuEventDestroy_v2).
func (c *Context) EventDestroy(e Event) error {
	if r, at := c.callCtx(fnEventDestroy, uintptr(e)); r != ResultSuccess {
		return c.failed(r, at, fnEventDestroy, "event %#x", uintptr(e))
	}
	return nil
}
