// Tests of device queries and the Device summary against the fake driver.

package cuda

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestDeviceQueries(t *testing.T) {
	f := needFake(t)
	d := f.drv
	n, err := d.DeviceCount()
	require.NoError(t, err)
	require.Equal(t, 1, n)

	h, err := d.DeviceGet(0)
	require.NoError(t, err)
	name, err := d.DeviceName(h)
	require.NoError(t, err)
	require.Equal(t, "Fake GPU", name)
	total, err := d.DeviceTotalMem(h)
	require.NoError(t, err)
	require.Equal(t, uint64(1<<30), total)

	_, err = d.DeviceGet(3)
	require.True(t, IsResult(err, ResultInvalidDevice), "got:%v", err)
	require.Equal(t, "cuDeviceGet(3): CUDA_ERROR_INVALID_DEVICE: invalid device ordinal", err.Error())

	for _, tc := range []struct {
		attr DeviceAttribute
		want int
	}{
		{AttrMaxThreadsPerBlock, 1024},
		{AttrMaxBlockDimZ, 64},
		{AttrMaxGridDimX, 2147483647},
		{AttrMaxSharedMemoryPerBlock, 49152},
		{AttrMaxSharedMemoryPerBlockOptin, 232448},
		{AttrMaxSharedMemoryPerSM, 233472},
		{AttrMaxRegistersPerBlock, 65536},
		{AttrMaxRegistersPerSM, 65536},
		{AttrWarpSize, 32},
		{AttrMultiprocessorCount, 132},
		{AttrComputeCapabilityMajor, 9},
		{AttrComputeCapabilityMinor, 0},
		{AttrMaxThreadsPerSM, 2048},
		{AttrClockRate, 1980000},
		{AttrMemoryClockRate, 2619000},
		{AttrGlobalMemoryBusWidth, 5120},
		{AttrL2CacheSize, 52428800},
		{AttrUnifiedAddressing, 1},
	} {
		got, err := d.DeviceAttribute(h, tc.attr)
		require.NoError(t, err)
		if got != tc.want {
			t.Errorf("DeviceAttribute(%d) got:%v want:%v", tc.attr, got, tc.want)
		}
	}
	_, err = d.DeviceAttribute(h, DeviceAttribute(5000))
	require.True(t, IsResult(err, ResultInvalidValue), "got:%v", err)
	require.Contains(t, err.Error(), "cuDeviceGetAttribute(attribute 5000, device 0)")
}

func TestDescribe(t *testing.T) {
	f := needFake(t)
	devs, err := f.drv.Devices()
	require.NoError(t, err)
	require.Len(t, devs, 1)
	v := devs[0]
	want := Device{
		Ordinal: 0, Handle: 0, Name: "Fake GPU", Major: 9, Minor: 0, SMs: 132, TotalMem: 1 << 30,
		MaxThreadsPerBlock: 1024, MaxBlockDim: [3]int{1024, 1024, 64}, MaxGridDim: [3]int{2147483647, 65535, 65535},
		MaxThreadsPerSM: 2048, MaxBlocksPerSM: 32, WarpSize: 32,
		SharedMemPerBlock: 49152, SharedMemPerBlockOptin: 232448, SharedMemPerSM: 233472,
		RegistersPerBlock: 65536, RegistersPerSM: 65536,
		ClockRateKHz: 1980000, MemoryClockRateKHz: 2619000, MemoryBusWidth: 5120, L2CacheSize: 52428800,
		AsyncEngines: 3, UnifiedAddressing: true, CanMapHostMemory: true,
	}
	require.Equal(t, want, v)
	require.Equal(t, "sm_90", v.Arch())
	require.InDelta(t, 3.352e12, v.PeakBandwidth(), 1e9)
	require.Equal(t, "0: Fake GPU (sm_90, 132 SMs, 1.0 GiB, 227 KiB shared/block opt-in)", v.String())

	// An optional attribute the driver rejects leaves its field zero; a
	// required one fails the description.
	f.FailNext("cuDeviceGetAttribute", int32(ResultInvalidValue))
	v, err = f.drv.Describe(0) // the first attribute read is required
	require.Error(t, err)
	require.Contains(t, err.Error(), "describe device 0")

	_, err = f.drv.Describe(7)
	require.True(t, IsResult(err, ResultInvalidDevice), "got:%v", err)
}
