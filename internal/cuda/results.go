// Result codes of the CUDA driver API (CUresult) with their names and a
// short description of each, used when the driver cannot name a code itself.

package cuda

import "strconv"

// Result is a CUresult, the status code every driver API call returns.
type Result int32

// Result codes that callers test for. The full list of names lives in
// resultTable.
const (
	ResultSuccess               Result = 0
	ResultInvalidValue          Result = 1
	ResultOutOfMemory           Result = 2
	ResultNotInitialized        Result = 3
	ResultDeinitialized         Result = 4
	ResultStubLibrary           Result = 34
	ResultInsufficientDriver    Result = 35
	ResultNoDevice              Result = 100
	ResultInvalidDevice         Result = 101
	ResultInvalidImage          Result = 200
	ResultInvalidContext        Result = 201
	ResultNoBinaryForGPU        Result = 209
	ResultInvalidPTX            Result = 218
	ResultUnsupportedPTXVersion Result = 222
	ResultInvalidHandle         Result = 400
	ResultNotFound              Result = 500
	ResultNotReady              Result = 600
	ResultIllegalAddress        Result = 700
	ResultLaunchOutOfResources  Result = 701
	ResultLaunchTimeout         Result = 702
	ResultAssert                Result = 710
	ResultIllegalInstruction    Result = 715
	ResultMisalignedAddress     Result = 716
	ResultLaunchFailed          Result = 719
	ResultCooperativeTooLarge   Result = 720
	ResultNotSupported          Result = 801
	ResultUnknown               Result = 999
)

// resultInfo is the name and description of one result code.
type resultInfo struct {
	name string
	desc string
}

// resultTable names the result codes of the driver API.
var resultTable = map[Result]resultInfo{
	0:   {"CUDA_SUCCESS", "no error"},
	1:   {"CUDA_ERROR_INVALID_VALUE", "invalid argument"},
	2:   {"CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
	3:   {"CUDA_ERROR_NOT_INITIALIZED", "driver not initialized"},
	4:   {"CUDA_ERROR_DEINITIALIZED", "driver shutting down"},
	5:   {"CUDA_ERROR_PROFILER_DISABLED", "profiler disabled"},
	34:  {"CUDA_ERROR_STUB_LIBRARY", "a stub driver library was loaded instead of the real driver"},
	35:  {"CUDA_ERROR_INSUFFICIENT_DRIVER", "driver older than the CUDA runtime"},
	46:  {"CUDA_ERROR_DEVICE_UNAVAILABLE", "device busy or unavailable"},
	100: {"CUDA_ERROR_NO_DEVICE", "no CUDA-capable device detected"},
	101: {"CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
	102: {"CUDA_ERROR_DEVICE_NOT_LICENSED", "device not licensed"},
	200: {"CUDA_ERROR_INVALID_IMAGE", "invalid kernel image"},
	201: {"CUDA_ERROR_INVALID_CONTEXT", "invalid or no current context"},
	202: {"CUDA_ERROR_CONTEXT_ALREADY_CURRENT", "context already current"},
	205: {"CUDA_ERROR_MAP_FAILED", "map failed"},
	206: {"CUDA_ERROR_UNMAP_FAILED", "unmap failed"},
	209: {"CUDA_ERROR_NO_BINARY_FOR_GPU", "no kernel image for this device"},
	214: {"CUDA_ERROR_ECC_UNCORRECTABLE", "uncorrectable ECC error"},
	215: {"CUDA_ERROR_UNSUPPORTED_LIMIT", "unsupported limit"},
	216: {"CUDA_ERROR_CONTEXT_ALREADY_IN_USE", "context already in use"},
	217: {"CUDA_ERROR_PEER_ACCESS_UNSUPPORTED", "peer access unsupported"},
	218: {"CUDA_ERROR_INVALID_PTX", "PTX JIT compilation failed"},
	219: {"CUDA_ERROR_INVALID_GRAPHICS_CONTEXT", "invalid graphics context"},
	220: {"CUDA_ERROR_NVLINK_UNCORRECTABLE", "uncorrectable NVLink error"},
	221: {"CUDA_ERROR_JIT_COMPILER_NOT_FOUND", "PTX JIT compiler library not found"},
	222: {"CUDA_ERROR_UNSUPPORTED_PTX_VERSION", "PTX version not supported by this driver"},
	223: {"CUDA_ERROR_JIT_COMPILATION_DISABLED", "PTX JIT compilation disabled"},
	224: {"CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY", "unsupported execution affinity"},
	225: {"CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC", "device-side synchronization unsupported"},
	226: {"CUDA_ERROR_CONTAINED", "a device exception was contained by the GPU"},
	300: {"CUDA_ERROR_INVALID_SOURCE", "invalid kernel source"},
	301: {"CUDA_ERROR_FILE_NOT_FOUND", "file not found"},
	302: {"CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND", "shared object symbol not found"},
	303: {"CUDA_ERROR_SHARED_OBJECT_INIT_FAILED", "shared object initialization failed"},
	304: {"CUDA_ERROR_OPERATING_SYSTEM", "operating system call failed"},
	400: {"CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
	401: {"CUDA_ERROR_ILLEGAL_STATE", "illegal state"},
	500: {"CUDA_ERROR_NOT_FOUND", "named symbol not found"},
	600: {"CUDA_ERROR_NOT_READY", "work not yet complete"},
	700: {"CUDA_ERROR_ILLEGAL_ADDRESS", "illegal memory access"},
	701: {"CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "too many resources requested for launch"},
	702: {"CUDA_ERROR_LAUNCH_TIMEOUT", "launch timed out"},
	703: {"CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING", "incompatible texturing"},
	704: {"CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED", "peer access already enabled"},
	705: {"CUDA_ERROR_PEER_ACCESS_NOT_ENABLED", "peer access not enabled"},
	708: {"CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE", "primary context already active"},
	709: {"CUDA_ERROR_CONTEXT_IS_DESTROYED", "context destroyed"},
	710: {"CUDA_ERROR_ASSERT", "device-side assert triggered"},
	711: {"CUDA_ERROR_TOO_MANY_PEERS", "too many peers"},
	712: {"CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED", "host memory already registered"},
	713: {"CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED", "host memory not registered"},
	714: {"CUDA_ERROR_HARDWARE_STACK_ERROR", "hardware stack error"},
	715: {"CUDA_ERROR_ILLEGAL_INSTRUCTION", "illegal instruction"},
	716: {"CUDA_ERROR_MISALIGNED_ADDRESS", "misaligned address"},
	717: {"CUDA_ERROR_INVALID_ADDRESS_SPACE", "invalid address space"},
	718: {"CUDA_ERROR_INVALID_PC", "invalid program counter"},
	719: {"CUDA_ERROR_LAUNCH_FAILED", "launch failed"},
	720: {"CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE", "cooperative launch too large"},
	721: {"CUDA_ERROR_TENSOR_MEMORY_LEAK", "tensor memory not deallocated at kernel exit"},
	800: {"CUDA_ERROR_NOT_PERMITTED", "operation not permitted"},
	801: {"CUDA_ERROR_NOT_SUPPORTED", "operation not supported"},
	802: {"CUDA_ERROR_SYSTEM_NOT_READY", "system not ready"},
	803: {"CUDA_ERROR_SYSTEM_DRIVER_MISMATCH", "driver and kernel module versions mismatch"},
	804: {"CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE", "forward compatibility not supported on this device"},
	810: {"CUDA_ERROR_MPS_CLIENT_TERMINATED", "MPS client terminated by the server"},
	911: {"CUDA_ERROR_EXTERNAL_DEVICE", "error in an external device"},
	999: {"CUDA_ERROR_UNKNOWN", "unknown error"},
}

// String returns the CUDA name of r, such as CUDA_ERROR_OUT_OF_MEMORY, from
// the package's own table (the driver is not asked), or CUresult(N) for a
// code the table lacks.
func (r Result) String() string {
	if info, ok := resultTable[r]; ok {
		return info.name
	}
	return "CUresult(" + strconv.Itoa(int(r)) + ")"
}

// Description returns a short description of r from the package's own
// table, or "unrecognized error code" for a code the table lacks.
func (r Result) Description() string {
	if info, ok := resultTable[r]; ok {
		return info.desc
	}
	return "unrecognized error code"
}
