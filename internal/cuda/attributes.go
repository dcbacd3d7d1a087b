// Named device attributes (CUdevice_attribute) and function attributes
// (CUfunction_attribute) that fuseflow reads.

package cuda

// DeviceAttribute is a CUdevice_attribute, a property cuDeviceGetAttribute
// reports.
type DeviceAttribute int32

// Device attributes fuseflow reads.
const (
	AttrMaxThreadsPerBlock           DeviceAttribute = 1
	AttrMaxBlockDimX                 DeviceAttribute = 2
	AttrMaxBlockDimY                 DeviceAttribute = 3
	AttrMaxBlockDimZ                 DeviceAttribute = 4
	AttrMaxGridDimX                  DeviceAttribute = 5
	AttrMaxGridDimY                  DeviceAttribute = 6
	AttrMaxGridDimZ                  DeviceAttribute = 7
	AttrMaxSharedMemoryPerBlock      DeviceAttribute = 8
	AttrTotalConstantMemory          DeviceAttribute = 9
	AttrWarpSize                     DeviceAttribute = 10
	AttrMaxRegistersPerBlock         DeviceAttribute = 12
	AttrClockRate                    DeviceAttribute = 13 // kHz
	AttrMultiprocessorCount          DeviceAttribute = 16
	AttrCanMapHostMemory             DeviceAttribute = 19
	AttrConcurrentKernels            DeviceAttribute = 31
	AttrMemoryClockRate              DeviceAttribute = 36 // kHz
	AttrGlobalMemoryBusWidth         DeviceAttribute = 37 // bits
	AttrL2CacheSize                  DeviceAttribute = 38 // bytes
	AttrMaxThreadsPerSM              DeviceAttribute = 39
	AttrAsyncEngineCount             DeviceAttribute = 40
	AttrUnifiedAddressing            DeviceAttribute = 41
	AttrComputeCapabilityMajor       DeviceAttribute = 75
	AttrComputeCapabilityMinor       DeviceAttribute = 76
	AttrMaxSharedMemoryPerSM         DeviceAttribute = 81
	AttrMaxRegistersPerSM            DeviceAttribute = 82
	AttrManagedMemory                DeviceAttribute = 83
	AttrMaxSharedMemoryPerBlockOptin DeviceAttribute = 97
	AttrMaxBlocksPerSM               DeviceAttribute = 106
)

// FuncAttribute is a CUfunction_attribute, a property of a loaded kernel.
type FuncAttribute int32

// Function attributes.
const (
	FuncMaxThreadsPerBlock        FuncAttribute = 0
	FuncSharedSizeBytes           FuncAttribute = 1
	FuncConstSizeBytes            FuncAttribute = 2
	FuncLocalSizeBytes            FuncAttribute = 3
	FuncNumRegs                   FuncAttribute = 4
	FuncPTXVersion                FuncAttribute = 5
	FuncBinaryVersion             FuncAttribute = 6
	FuncCacheModeCA               FuncAttribute = 7
	FuncMaxDynamicSharedSizeBytes FuncAttribute = 8
	FuncPreferredSharedCarveout   FuncAttribute = 9
)
