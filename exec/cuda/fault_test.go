// Tests of faults that break the device context: the backend refuses all
// later work with an error naming the first fault, nothing panics or
// hangs, Close works, and a differential suite reports the case; and a
// refused launch, which is an error but no fault.

package cuda

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	drv "github.com/fuseflow/fuseflow/internal/cuda"
)

// breakable prepares a test that breaks the fake device on purpose with
// backend b open. When the test ends it closes b (while the device is
// still broken, as it would be), then ends the fake's sticky fault and
// the driver's record of it, drops the emulator's recorded faults and
// frees the device memory the fault kept from being freed, so that later
// tests find a working device. It must be called after b is opened, so
// that this runs before b's own cleanup.
func breakable(t *testing.T, b *Backend) {
	t.Helper()
	f := needFake(t)
	mark := f.AllocMark()
	t.Cleanup(func() {
		_ = b.Close()
		f.ClearFault()
		d, err := drv.Load()
		require.NoError(t, err)
		d.ClearFault(0)
		f.FreeSince(mark)
		if emu != nil {
			emu.takeFaults()
		}
	})
}

// closeWithin closes b, failing the test if that takes longer than a few
// seconds (a hang) or returns an error.
func closeWithin(t *testing.T, b *Backend) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- b.Close() }()
	select {
	case err := <-done:
		require.NoError(t, err, "Close after a fault")
	case <-time.After(10 * time.Second):
		t.Fatal("Close after a fault hangs")
	}
}

func TestFaultBreaksBackend(t *testing.T) {
	for _, tc := range []struct {
		fn   string
		code int32
		name string
	}{
		{"cuStreamSynchronize", 700, "CUDA_ERROR_ILLEGAL_ADDRESS"},
		{"cuStreamSynchronize", 716, "CUDA_ERROR_MISALIGNED_ADDRESS"},
		{"cuLaunchKernel", 719, "CUDA_ERROR_LAUNCH_FAILED"},
		{"cuLaunchKernel", 715, "CUDA_ERROR_ILLEGAL_INSTRUCTION"},
	} {
		t.Run(tc.name+" in "+tc.fn, func(t *testing.T) {
			f := needFake(t)
			b, err := New(0, Options{Compile: addCompile})
			require.NoError(t, err)
			breakable(t, b)
			ctx := context.Background()
			req, mem := addRequest(t, 100, 1, 2)
			kept, err := b.Eval(ctx, req) // a result from before the fault
			require.NoError(t, err)
			defer releaseAll(kept)

			live := b.Pool().Stats().Live
			f.FailNextSticky(tc.fn, tc.code)
			_, err = b.Eval(ctx, req)
			require.Error(t, err)
			for _, want := range []string{tc.name, tc.fn + "(", "fake_add", "cuda:0 is unusable from now on"} {
				require.ErrorContains(t, err, want)
			}
			require.ErrorIs(t, err, ErrDeviceFault)
			require.True(t, drv.IsResult(err, drv.Result(tc.code)), "got:%v", err)
			fault := b.Fault()
			require.NotNil(t, fault)
			require.Contains(t, fault.Err.Error(), tc.fn+"(")
			require.Contains(t, fault.During, "fake_add")
			require.Contains(t, fault.PTX, ".entry fake_add")
			require.Equal(t, live, b.Pool().Stats().Live, "the failed evaluation keeps nothing")

			// Every later call fails at once, naming the first fault, not
			// the driver's repeated error in whatever call came next.
			for what, call := range map[string]func() error{
				"Eval": func() error { _, err := b.Eval(ctx, req); return err },
				"ToHost": func() error {
					_, err := b.ToHost(ctx, kept[0], mem)
					return err
				},
				"ToDevice": func() error {
					h := hostI32(t, mem, 8, 1)
					defer h.Release()
					_, err := b.ToDevice(ctx, h)
					return err
				},
				"New": func() error {
					b2, err := New(0, Options{Compile: addCompile})
					if err == nil {
						b2.Close()
					}
					return err
				},
			} {
				err := call()
				var fe *FaultError
				require.True(t, errors.As(err, &fe), "%s got:%v", what, err)
				require.ErrorIs(t, err, ErrDeviceFault, what)
				require.Contains(t, err.Error(), tc.fn+"(", what)
				require.Contains(t, err.Error(), "restart the process", what)
				require.Same(t, fault.Err, fe.Err, what)
			}
			releaseAll(kept)
			kept = nil
			closeWithin(t, b)
		})
	}
}

// A launch refused before any kernel runs is an error naming the kernel
// and the driver's code, keeps nothing and leaves the context working,
// whether the fake refuses once or through its sticky-fault path (a
// refusal is no sticky fault).
func TestLaunchRefusalIsNotAFault(t *testing.T) {
	for name, sticky := range map[string]bool{"once": false, "sticky": true} {
		t.Run(name, func(t *testing.T) {
			f, b := fakeBackend(t, Options{Compile: addCompile})
			fail := f.FailNext
			if sticky {
				fail = f.FailNextSticky
			}
			ctx := context.Background()
			req, _ := addRequest(t, 100, 1, 2)
			fail("cuLaunchKernel", int32(drv.ResultLaunchOutOfResources))
			_, err := b.Eval(ctx, req)
			for _, want := range []string{"launching kernel", "fake_add", "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"} {
				require.ErrorContains(t, err, want)
			}
			require.NotErrorIs(t, err, ErrDeviceFault)
			require.Nil(t, b.Fault())
			require.Zero(t, b.Pool().Stats().Live, "nothing is left allocated")
			res, err := b.Eval(ctx, req)
			require.NoError(t, err)
			releaseAll(res)
		})
	}
}

// TestFaultReport breaks the emulated device while it runs a random
// graph's kernels and checks what the differential suite prints when it
// stops there.
func TestFaultReport(t *testing.T) {
	b := emuBackend(t, emuSmall, Options{})
	breakable(t, b)
	alloc := checkedAlloc(t, memory.NewGoAllocator())
	c := randCase(t, 3, alloc)
	defer c.Release()
	errs, _ := diffOutputs(b, "seed 3", c.Outputs, c.Exact, c.Bound, nil, alloc)
	require.Empty(t, errs)
	require.Empty(t, faultReport(b, "seed 3", c.Desc), "a working backend has nothing to report")

	fake.FailNextSticky("cuStreamSynchronize", 700)
	errs, _ = diffOutputs(b, "seed 3", c.Outputs, c.Exact, c.Bound, nil, alloc)
	require.NotEmpty(t, errs)
	report := faultReport(b, "seed 3", c.Desc)
	for _, want := range []string{
		"seed 3 broke the device; stopping at the first such fault:\ncuda:0 is unusable: cuStreamSynchronize(",
		"CUDA_ERROR_ILLEGAL_ADDRESS",
		"(while running kernels ",
		"(entry k0_",
		"graph of seed 3:\n" + c.Desc[0] + "\n",
		"PTX of the kernels running when it surfaced:\n    1  //",
		".visible .entry k0_",
	} {
		require.Contains(t, report, want)
	}
	closeWithin(t, b)
}
