// The table of driver API functions this package resolves from
// libcuda.so.1: an index per function and its exported symbol name.

package cuda

// Indexes into Driver.fn and fnNames, one per bound driver function.
const (
	fnInit = iota
	fnDriverGetVersion
	fnDeviceGetCount
	fnDeviceGet
	fnDeviceGetName
	fnDeviceGetAttribute
	fnDeviceTotalMem
	fnDevicePrimaryCtxRetain
	fnDevicePrimaryCtxRelease
	fnCtxSetCurrent
	fnCtxSynchronize
	fnMemAlloc
	fnMemFree
	fnMemHostAlloc
	fnMemFreeHost
	fnMemHostRegister
	fnMemHostUnregister
	fnMemcpyHtoDAsync
	fnMemcpyDtoHAsync
	fnMemcpyDtoDAsync
	fnMemsetD32Async
	fnMemsetD8Async
	fnMemGetInfo
	fnModuleLoadDataEx
	fnModuleGetFunction
	fnModuleUnload
	fnFuncGetAttribute
	fnFuncSetAttribute
	fnOccupancyMaxActiveBlocksPerMultiprocessor
	fnLaunchKernel
	fnStreamCreate
	fnStreamDestroy
	fnStreamSynchronize
	fnEventCreate
	fnEventRecord
	fnEventSynchronize
	fnEventElapsedTime
	fnEventDestroy
	fnGetErrorName
	fnGetErrorString
	numFns
)

// fnNames are the exported symbols, versioned where the driver's header
// maps the plain name to a _v2 entry point.
var fnNames = [numFns]string{
	fnInit:                    "cuInit",
	fnDriverGetVersion:        "cuDriverGetVersion",
	fnDeviceGetCount:          "cuDeviceGetCount",
	fnDeviceGet:               "cuDeviceGet",
	fnDeviceGetName:           "cuDeviceGetName",
	fnDeviceGetAttribute:      "cuDeviceGetAttribute",
	fnDeviceTotalMem:          "cuDeviceTotalMem_v2",
	fnDevicePrimaryCtxRetain:  "cuDevicePrimaryCtxRetain",
	fnDevicePrimaryCtxRelease: "cuDevicePrimaryCtxRelease_v2",
	fnCtxSetCurrent:           "cuCtxSetCurrent",
	fnCtxSynchronize:          "cuCtxSynchronize",
	fnMemAlloc:                "cuMemAlloc_v2",
	fnMemFree:                 "cuMemFree_v2",
	fnMemHostAlloc:            "cuMemHostAlloc",
	fnMemFreeHost:             "cuMemFreeHost",
	fnMemHostRegister:         "cuMemHostRegister_v2",
	fnMemHostUnregister:       "cuMemHostUnregister",
	fnMemcpyHtoDAsync:         "cuMemcpyHtoDAsync_v2",
	fnMemcpyDtoHAsync:         "cuMemcpyDtoHAsync_v2",
	fnMemcpyDtoDAsync:         "cuMemcpyDtoDAsync_v2",
	fnMemsetD32Async:          "cuMemsetD32Async",
	fnMemsetD8Async:           "cuMemsetD8Async",
	fnMemGetInfo:              "cuMemGetInfo_v2",
	fnModuleLoadDataEx:        "cuModuleLoadDataEx",
	fnModuleGetFunction:       "cuModuleGetFunction",
	fnModuleUnload:            "cuModuleUnload",
	fnFuncGetAttribute:        "cuFuncGetAttribute",
	fnFuncSetAttribute:        "cuFuncSetAttribute",
	fnOccupancyMaxActiveBlocksPerMultiprocessor: "cuOccupancyMaxActiveBlocksPerMultiprocessor",
	fnLaunchKernel:      "cuLaunchKernel",
	fnStreamCreate:      "cuStreamCreate",
	fnStreamDestroy:     "cuStreamDestroy_v2",
	fnStreamSynchronize: "cuStreamSynchronize",
	fnEventCreate:       "cuEventCreate",
	fnEventRecord:       "cuEventRecord",
	fnEventSynchronize:  "cuEventSynchronize",
	fnEventElapsedTime:  "cuEventElapsedTime",
	fnEventDestroy:      "cuEventDestroy_v2",
	fnGetErrorName:      "cuGetErrorName",
	fnGetErrorString:    "cuGetErrorString",
}
