// Tests of the calls that return what the driver writes through their
// first argument (callOut, callCtxOut): a failed call returns the zero
// value and an error naming the call with its arguments, or, in a
// context, cuCtxSetCurrent when the context could not be made current.

package cuda

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCallOutFailures(t *testing.T) {
	f, ctx := fakeContext(t)
	d := f.drv
	fn := loadFake(t, ctx, "no_params")[0]
	for _, tc := range []struct {
		fn   string // the driver function made to fail
		ctx  bool   // the call is made in a context
		call func() (any, error)
		want string // the Call of the error
	}{
		{"cuDriverGetVersion", false, func() (any, error) { return d.Version() }, "cuDriverGetVersion()"},
		{"cuDeviceGetCount", false, func() (any, error) { return d.DeviceCount() }, "cuDeviceGetCount()"},
		{"cuDeviceGet", false, func() (any, error) { return d.DeviceGet(0) }, "cuDeviceGet(0)"},
		{"cuDeviceGetAttribute", false, func() (any, error) { return d.DeviceAttribute(0, AttrWarpSize) }, "cuDeviceGetAttribute(attribute 10, device 0)"},
		{"cuDeviceTotalMem_v2", false, func() (any, error) { return d.DeviceTotalMem(0) }, "cuDeviceTotalMem_v2(device 0)"},
		{"cuDevicePrimaryCtxRetain", false, func() (any, error) { return d.RetainPrimaryContext(0) }, "cuDevicePrimaryCtxRetain(device 0)"},
		{"cuMemAlloc_v2", true, func() (any, error) { return ctx.MemAlloc(64) }, "cuMemAlloc_v2(64)"},
		{"cuMemHostAlloc", true, func() (any, error) { return ctx.MemHostAlloc(64, HostAllocPortable) }, "cuMemHostAlloc(64, 0x1)"},
		{"cuFuncGetAttribute", true, func() (any, error) { return ctx.FuncAttribute(fn, FuncNumRegs) }, "cuFuncGetAttribute(attribute 4, function "},
		{"cuOccupancyMaxActiveBlocksPerMultiprocessor", true, func() (any, error) { return ctx.MaxActiveBlocksPerSM(fn, 128, 256) },
			"cuOccupancyMaxActiveBlocksPerMultiprocessor(function "},
		{"cuStreamCreate", true, func() (any, error) { return ctx.StreamCreate(StreamNonBlocking) }, "cuStreamCreate(0x1)"},
		{"cuEventCreate", true, func() (any, error) { return ctx.EventCreate(EventDisableTiming) }, "cuEventCreate(0x2)"},
		{"cuEventElapsedTime", true, func() (any, error) { return ctx.EventElapsed(0, 0) }, "cuEventElapsedTime(start 0x0, end 0x0)"},
	} {
		check := func(failing, want string) {
			t.Helper()
			f.FailNext(failing, int32(ResultInvalidValue))
			got, err := tc.call()
			var e *Error
			require.ErrorAs(t, err, &e, "%s failing", failing)
			require.Equal(t, ResultInvalidValue, e.Code, "%s failing", failing)
			require.Contains(t, e.Call, want, "%s failing", failing)
			require.True(t, reflect.ValueOf(got).IsZero(), "%s failing: got:%v want the zero value", failing, got)
		}
		check(tc.fn, tc.want)
		if tc.ctx {
			check("cuCtxSetCurrent", "cuCtxSetCurrent()")
		}
	}
	require.Nil(t, ctx.Fault(), "an invalid value is no fault")
}
