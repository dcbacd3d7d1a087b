// Tests of sticky faults: which codes break the context, and the record
// of the first one per device.

package cuda

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestResultSticky(t *testing.T) {
	for _, tc := range []struct {
		code Result
		want bool
	}{
		{ResultSuccess, false},
		{ResultOutOfMemory, false},
		{ResultInvalidValue, false},
		{ResultInvalidPTX, false},
		{ResultIllegalAddress, true},
		{ResultLaunchOutOfResources, false}, // refused before the kernel runs
		{ResultLaunchTimeout, true},
		{ResultAssert, true},
		{714, true}, // hardware stack error
		{ResultIllegalInstruction, true},
		{ResultMisalignedAddress, true},
		{717, true}, // invalid address space
		{718, true}, // invalid program counter
		{ResultLaunchFailed, true},
		{ResultCooperativeTooLarge, false},
		{ResultNotSupported, false},
		{ResultUnknown, false},
	} {
		if got := tc.code.Sticky(); got != tc.want {
			t.Errorf("%v.Sticky() got:%v want:%v", tc.code, got, tc.want)
		}
		err := error(&Error{Code: tc.code})
		if got := IsSticky(fmt.Errorf("wrapped: %w", err)); got != tc.want {
			t.Errorf("IsSticky(%v) got:%v want:%v", tc.code, got, tc.want)
		}
	}
	require.False(t, IsSticky(nil))
	require.False(t, IsSticky(fmt.Errorf("not a driver error")))
}

// withFault arranges for the fake's sticky fault and the driver's record
// of it to be cleared, and the device memory allocated meanwhile freed,
// when the test ends.
func withFault(t *testing.T, f *fakeDriver) {
	mark := f.AllocMark()
	t.Cleanup(func() {
		f.ClearFault()
		f.drv.ClearFault(0)
		f.FreeSince(mark)
	})
}

func TestStickyFaultRecorded(t *testing.T) {
	for _, fn := range []string{"cuStreamSynchronize", "cuLaunchKernel"} {
		t.Run(fn, func(t *testing.T) {
			f, ctx := fakeContext(t)
			kernel := loadFake(t, ctx, "no_params")[0]
			withFault(t, f) // after loadFake: its cleanup must run once the fault is cleared
			p, err := ctx.MemAlloc(256)
			require.NoError(t, err)

			// Errors that leave the context usable are not faults.
			f.FailNext("cuMemAlloc_v2", int32(ResultOutOfMemory))
			_, err = ctx.MemAlloc(64)
			require.True(t, IsOutOfMemory(err), "got:%v", err)
			f.FailNext("cuLaunchKernel", int32(ResultLaunchOutOfResources))
			require.Error(t, ctx.Launch(kernel, Dim3{X: 1}, Dim3{X: 32}, 0, 0, nil))
			require.Nil(t, ctx.Fault())

			f.FailNextSticky(fn, int32(ResultIllegalAddress))
			if fn == "cuLaunchKernel" {
				err = ctx.Launch(kernel, Dim3{X: 1}, Dim3{X: 32}, 0, 0, nil)
			} else {
				err = ctx.StreamSynchronize(0)
			}
			require.True(t, IsResult(err, ResultIllegalAddress), "got:%v", err)
			require.True(t, IsSticky(err))
			fault := ctx.Fault()
			require.NotNil(t, fault)
			require.Contains(t, fault.Error(), fn+"(")
			require.Contains(t, fault.Error(), "CUDA_ERROR_ILLEGAL_ADDRESS")

			// Every later call in the context fails with the same code,
			// and the record keeps the first fault.
			_, err = ctx.MemAlloc(64)
			require.True(t, IsResult(err, ResultIllegalAddress), "got:%v", err)
			require.True(t, IsResult(ctx.MemFree(p), ResultIllegalAddress))
			require.True(t, IsResult(ctx.Synchronize(), ResultIllegalAddress))
			require.Same(t, fault, ctx.Fault())

			// Another Context on the same device sees it.
			other, err := f.drv.RetainPrimaryContext(0)
			require.NoError(t, err)
			require.Same(t, fault, other.Fault())
			require.NoError(t, other.Release())
		})
	}
}
