// Tests of streams and events: ordering handles, fake timings and errors.

package cuda

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestStreamsAndEvents(t *testing.T) {
	f, ctx := fakeContext(t)
	fn := loadFake(t, ctx, "no_params")[0]
	s, err := ctx.StreamCreate(StreamNonBlocking)
	require.NoError(t, err)
	require.NotZero(t, s)
	start, err := ctx.EventCreate(EventDefault)
	require.NoError(t, err)
	end, err := ctx.EventCreate(EventBlockingSync)
	require.NoError(t, err)

	require.NoError(t, ctx.EventRecord(start, s))
	for range 4 { // the fake clock advances 0.125 ms per launch
		require.NoError(t, ctx.Launch(fn, Dim3{X: 1}, Dim3{X: 32}, 0, s, nil))
	}
	require.NoError(t, ctx.EventRecord(end, s))
	require.NoError(t, ctx.EventSynchronize(end))
	require.NoError(t, ctx.StreamSynchronize(s))
	got, err := ctx.EventElapsed(start, end)
	require.NoError(t, err)
	require.Equal(t, 500*time.Microsecond, got)
	require.Equal(t, uint64(s), uint64(f.LastStream()))

	noTiming, err := ctx.EventCreate(EventDisableTiming)
	require.NoError(t, err)
	require.NoError(t, ctx.EventRecord(noTiming, s))
	_, err = ctx.EventElapsed(start, noTiming)
	require.True(t, IsResult(err, ResultInvalidHandle), "got:%v", err)
	require.Contains(t, err.Error(), "cuEventElapsedTime(start ")

	for _, e := range []Event{start, end, noTiming} {
		require.NoError(t, ctx.EventDestroy(e))
	}
	require.NoError(t, ctx.StreamDestroy(s))
	err = ctx.StreamDestroy(0)
	require.True(t, IsResult(err, ResultInvalidHandle), "got:%v", err)
	require.Equal(t, "cuStreamDestroy_v2(stream 0x0): CUDA_ERROR_INVALID_HANDLE: invalid resource handle", err.Error())

	_, err = ctx.StreamCreate(StreamFlags(9))
	require.True(t, IsResult(err, ResultInvalidValue), "got:%v", err)
	_, err = ctx.EventCreate(EventFlags(64))
	require.True(t, IsResult(err, ResultInvalidValue), "got:%v", err)
}

func TestHotCallsAllocateNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless under -race (sync.Pool drops items)")
	}
	_, ctx := fakeContext(t)
	s, err := ctx.StreamCreate(StreamDefault)
	require.NoError(t, err)
	e, err := ctx.EventCreate(EventDefault)
	require.NoError(t, err)
	a, err := ctx.MemAlloc(1024)
	require.NoError(t, err)
	b, err := ctx.MemAlloc(1024)
	require.NoError(t, err)
	for _, tc := range []struct {
		name string
		call func() error
	}{
		{"MemcpyDtoDAsync", func() error { return ctx.MemcpyDtoDAsync(b, a, 1024, s) }},
		{"MemsetD32Async", func() error { return ctx.MemsetD32Async(a, 1, 256, s) }},
		{"MemsetD8Async", func() error { return ctx.MemsetD8Async(a, 1, 1024, s) }},
		{"EventRecord", func() error { return ctx.EventRecord(e, s) }},
		{"EventSynchronize", func() error { return ctx.EventSynchronize(e) }},
		{"StreamSynchronize", func() error { return ctx.StreamSynchronize(s) }},
		{"Synchronize", ctx.Synchronize},
	} {
		allocs := testing.AllocsPerRun(100, func() {
			if err := tc.call(); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%s allocations got:%v want:0", tc.name, allocs)
		}
	}
	require.NoError(t, ctx.MemFree(a))
	require.NoError(t, ctx.MemFree(b))
	require.NoError(t, ctx.EventDestroy(e))
	require.NoError(t, ctx.StreamDestroy(s))
}
