// Device queries: count, handles, names, attributes, total memory, and the
// Device summary filled from them.

package cuda

import (
	"fmt"
	"strconv"
	"unsafe"

	"github.com/ebitengine/purego"
)

// DeviceHandle is a CUdevice, the driver's handle of one GPU.
type DeviceHandle int32

// DeviceCount returns the number of CUDA devices (cuDeviceGetCount).
func (d *Driver) DeviceCount() (int, error) {
	n, err := callOut[int32](d, fnDeviceGetCount, nil, "")
	return int(n), err
}

// DeviceGet returns the handle of the device with the given ordinal
// (cuDeviceGet).
func (d *Driver) DeviceGet(ordinal int) (DeviceHandle, error) {
	h, err := callOut[int32](d, fnDeviceGet, []uintptr{uintptr(ordinal)}, "%d", ordinal)
	return DeviceHandle(h), err
}

// DeviceName returns the device's name (cuDeviceGetName).
func (d *Driver) DeviceName(h DeviceHandle) (string, error) {
	buf := make([]byte, 256)
	r, _, _ := purego.SyscallN(d.fn[fnDeviceGetName], uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)), uintptr(h))
	if r := Result(int32(r)); r != ResultSuccess {
		return "", d.errorf(r, fnDeviceGetName, "device %d", h)
	}
	return goString(&buf[0]), nil
}

// DeviceAttribute returns one attribute of the device
// (cuDeviceGetAttribute).
func (d *Driver) DeviceAttribute(h DeviceHandle, a DeviceAttribute) (int, error) {
	v, err := callOut[int32](d, fnDeviceGetAttribute, []uintptr{uintptr(a), uintptr(h)}, "attribute %d, device %d", a, h)
	return int(v), err
}

// DeviceTotalMem returns the device's global memory in bytes
// (cuDeviceTotalMem_v2).
func (d *Driver) DeviceTotalMem(h DeviceHandle) (uint64, error) {
	return callOut[uint64](d, fnDeviceTotalMem, []uintptr{uintptr(h)}, "device %d", h)
}

// Device summarizes one GPU: what the planner and the executor need to
// know to size launches and buffers.
type Device struct {
	Ordinal int
	Handle  DeviceHandle
	Name    string
	// Major and Minor are the compute capability (9 and 0 for sm_90).
	Major, Minor int
	SMs          int
	// TotalMem is global memory in bytes.
	TotalMem uint64

	MaxThreadsPerBlock int
	MaxBlockDim        [3]int
	MaxGridDim         [3]int
	MaxThreadsPerSM    int
	MaxBlocksPerSM     int
	WarpSize           int

	// Shared memory in bytes: the default per-block limit, the per-block
	// limit a kernel can opt in to, and the total per SM.
	SharedMemPerBlock      int
	SharedMemPerBlockOptin int
	SharedMemPerSM         int
	RegistersPerBlock      int
	RegistersPerSM         int

	// ClockRateKHz and MemoryClockRateKHz are peak clocks; 0 where the
	// driver no longer reports them.
	ClockRateKHz       int
	MemoryClockRateKHz int
	// MemoryBusWidth is the global memory bus width in bits.
	MemoryBusWidth    int
	L2CacheSize       int
	AsyncEngines      int
	UnifiedAddressing bool
	CanMapHostMemory  bool
}

// deviceField binds a device attribute to the Device field it fills.
type deviceField struct {
	attr     DeviceAttribute
	field    func(*Device) *int
	optional bool // a driver that rejects it leaves the field 0
}

// deviceFields lists the attributes Describe reads.
var deviceFields = []deviceField{
	{AttrComputeCapabilityMajor, func(v *Device) *int { return &v.Major }, false},
	{AttrComputeCapabilityMinor, func(v *Device) *int { return &v.Minor }, false},
	{AttrMultiprocessorCount, func(v *Device) *int { return &v.SMs }, false},
	{AttrMaxThreadsPerBlock, func(v *Device) *int { return &v.MaxThreadsPerBlock }, false},
	{AttrMaxBlockDimX, func(v *Device) *int { return &v.MaxBlockDim[0] }, false},
	{AttrMaxBlockDimY, func(v *Device) *int { return &v.MaxBlockDim[1] }, false},
	{AttrMaxBlockDimZ, func(v *Device) *int { return &v.MaxBlockDim[2] }, false},
	{AttrMaxGridDimX, func(v *Device) *int { return &v.MaxGridDim[0] }, false},
	{AttrMaxGridDimY, func(v *Device) *int { return &v.MaxGridDim[1] }, false},
	{AttrMaxGridDimZ, func(v *Device) *int { return &v.MaxGridDim[2] }, false},
	{AttrMaxThreadsPerSM, func(v *Device) *int { return &v.MaxThreadsPerSM }, false},
	{AttrMaxBlocksPerSM, func(v *Device) *int { return &v.MaxBlocksPerSM }, true},
	{AttrWarpSize, func(v *Device) *int { return &v.WarpSize }, false},
	{AttrMaxSharedMemoryPerBlock, func(v *Device) *int { return &v.SharedMemPerBlock }, false},
	{AttrMaxSharedMemoryPerBlockOptin, func(v *Device) *int { return &v.SharedMemPerBlockOptin }, false},
	{AttrMaxSharedMemoryPerSM, func(v *Device) *int { return &v.SharedMemPerSM }, false},
	{AttrMaxRegistersPerBlock, func(v *Device) *int { return &v.RegistersPerBlock }, false},
	{AttrMaxRegistersPerSM, func(v *Device) *int { return &v.RegistersPerSM }, false},
	{AttrClockRate, func(v *Device) *int { return &v.ClockRateKHz }, true},
	{AttrMemoryClockRate, func(v *Device) *int { return &v.MemoryClockRateKHz }, true},
	{AttrGlobalMemoryBusWidth, func(v *Device) *int { return &v.MemoryBusWidth }, true},
	{AttrL2CacheSize, func(v *Device) *int { return &v.L2CacheSize }, false},
	{AttrAsyncEngineCount, func(v *Device) *int { return &v.AsyncEngines }, true},
}

// deviceFlags lists the boolean attributes Describe reads.
var deviceFlags = []struct {
	attr  DeviceAttribute
	field func(*Device) *bool
}{
	{AttrUnifiedAddressing, func(v *Device) *bool { return &v.UnifiedAddressing }},
	{AttrCanMapHostMemory, func(v *Device) *bool { return &v.CanMapHostMemory }},
}

// Describe fills a Device for the given ordinal from the driver's
// attributes. Clock rates, bus width, async engines and blocks per SM are
// optional (0 when the driver rejects them); any other failing query is an
// error naming the device.
func (d *Driver) Describe(ordinal int) (Device, error) {
	h, err := d.DeviceGet(ordinal)
	if err != nil {
		return Device{}, err
	}
	v := Device{Ordinal: ordinal, Handle: h}
	if v.Name, err = d.DeviceName(h); err != nil {
		return Device{}, err
	}
	if v.TotalMem, err = d.DeviceTotalMem(h); err != nil {
		return Device{}, err
	}
	for _, f := range deviceFields {
		x, err := d.DeviceAttribute(h, f.attr)
		if err != nil && !f.optional {
			return Device{}, fmt.Errorf("cuda: describe device %d: %w", ordinal, err)
		}
		*f.field(&v) = x
	}
	for _, f := range deviceFlags {
		x, err := d.DeviceAttribute(h, f.attr)
		if err != nil {
			return Device{}, fmt.Errorf("cuda: describe device %d: %w", ordinal, err)
		}
		*f.field(&v) = x != 0
	}
	return v, nil
}

// Devices describes every device the driver reports, in ordinal order.
func (d *Driver) Devices() ([]Device, error) {
	n, err := d.DeviceCount()
	if err != nil {
		return nil, err
	}
	out := make([]Device, 0, n)
	for i := range n {
		v, err := d.Describe(i)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// Arch returns the PTX target of the device, such as "sm_90".
func (v Device) Arch() string {
	return "sm_" + strconv.Itoa(v.Major) + strconv.Itoa(v.Minor)
}

// PeakBandwidth returns the theoretical global memory bandwidth in bytes per
// second (double data rate over the bus width), or 0 when the driver does
// not report the memory clock or bus width.
func (v Device) PeakBandwidth() float64 {
	return 2 * float64(v.MemoryClockRateKHz) * 1e3 * float64(v.MemoryBusWidth) / 8
}

// String summarizes the device on one line.
func (v Device) String() string {
	return fmt.Sprintf("%d: %s (%s, %d SMs, %.1f GiB, %d KiB shared/block opt-in)",
		v.Ordinal, v.Name, v.Arch(), v.SMs, float64(v.TotalMem)/(1<<30), v.SharedMemPerBlockOptin/1024)
}
