// Modules and functions: loading PTX through the driver's JIT with its logs,
// looking up kernels, their attributes and occupancy.

package cuda

import (
	"bytes"
	"math"
	"runtime"
	"time"
	"unsafe"

	"github.com/ebitengine/purego"
)

// Module is a CUmodule, loaded code.
type Module uintptr

// Function is a CUfunction, a kernel in a loaded module.
type Function uintptr

// CUjit_option values passed to cuModuleLoadDataEx.
const (
	jitMaxRegisters           = 0
	jitWallTime               = 2
	jitInfoLogBuffer          = 3
	jitInfoLogBufferSizeBytes = 4
	jitErrorLogBuffer         = 5
	jitErrorLogBufferSize     = 6
	jitGenerateLineInfo       = 13
)

// DefaultJITLogSize is the size of each JIT log buffer when JITOptions
// leaves LogSize zero.
const DefaultJITLogSize = 16 << 10

// JITOptions tune LoadModule. The zero value asks for the driver's defaults.
type JITOptions struct {
	// MaxRegisters caps registers per thread; 0 leaves it to the JIT.
	MaxRegisters int
	// LineInfo asks for line information (for profilers).
	LineInfo bool
	// LogSize is the capacity of the info and error logs in bytes; 0 means
	// DefaultJITLogSize.
	LogSize int
}

// JITInfo is what the driver's JIT reported for a successful load.
type JITInfo struct {
	// Log is the JIT's info log (register and memory use when verbose).
	Log string
	// WallTime is the time the JIT spent compiling and linking.
	WallTime time.Duration
}

// LoadModule compiles PTX text with the driver's JIT and loads it into the
// context (cuModuleLoadDataEx). On failure the *Error carries the JIT error
// log in its Log field and message. The caller owns the module and unloads
// it with ModuleUnload.
func (c *Context) LoadModule(ptx string, opts JITOptions) (Module, JITInfo, error) {
	logSize := opts.LogSize
	if logSize <= 0 {
		logSize = DefaultJITLogSize
	}
	image := cString(ptx)
	infoLog := make([]byte, logSize)
	errLog := make([]byte, logSize)
	keys := []int32{jitInfoLogBuffer, jitInfoLogBufferSizeBytes, jitErrorLogBuffer, jitErrorLogBufferSize, jitWallTime}
	// vals holds the addresses of the logs; the driver writes the used
	// log sizes and the wall time back into it. Everything it points to is
	// pinned for the duration of the call below.
	vals := []uintptr{
		uintptr(unsafe.Pointer(&infoLog[0])), uintptr(logSize),
		uintptr(unsafe.Pointer(&errLog[0])), uintptr(logSize),
		0,
	}
	if opts.MaxRegisters > 0 {
		keys = append(keys, jitMaxRegisters)
		vals = append(vals, uintptr(opts.MaxRegisters))
	}
	if opts.LineInfo {
		keys = append(keys, jitGenerateLineInfo)
		vals = append(vals, 1)
	}
	var pin runtime.Pinner
	pin.Pin(&infoLog[0])
	pin.Pin(&errLog[0])
	defer pin.Unpin()

	if err := c.enter(); err != nil {
		return 0, JITInfo{}, err
	}
	defer c.exit()
	var m Module
	r, _, _ := purego.SyscallN(c.d.fn[fnModuleLoadDataEx], uintptr(unsafe.Pointer(&m)), uintptr(unsafe.Pointer(&image[0])),
		uintptr(len(keys)), uintptr(unsafe.Pointer(&keys[0])), uintptr(unsafe.Pointer(&vals[0])))
	if r := Result(int32(r)); r != ResultSuccess {
		e := c.errorf(r, fnModuleLoadDataEx, "%d bytes of PTX", len(ptx))
		e.Log = logText(errLog, vals[3])
		return 0, JITInfo{}, e
	}
	info := JITInfo{
		Log:      logText(infoLog, vals[1]),
		WallTime: time.Duration(float64(math.Float32frombits(uint32(vals[4]))) * float64(time.Millisecond)),
	}
	return m, info, nil
}

// logText returns the text the driver wrote into a log buffer: at most the
// used size it reported, and no further than the first NUL.
func logText(buf []byte, used uintptr) string {
	if used > uintptr(len(buf)) || used == 0 {
		used = uintptr(len(buf))
	}
	b := buf[:used]
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}

// ModuleFunction returns the kernel called name in module m
// (cuModuleGetFunction). A missing kernel is an *Error with code
// CUDA_ERROR_NOT_FOUND whose message names the kernel.
func (c *Context) ModuleFunction(m Module, name string) (Function, error) {
	cname := cString(name)
	if err := c.enter(); err != nil {
		return 0, err
	}
	defer c.exit()
	var f Function
	r, _, _ := purego.SyscallN(c.d.fn[fnModuleGetFunction], uintptr(unsafe.Pointer(&f)), uintptr(m), uintptr(unsafe.Pointer(&cname[0])))
	if r := Result(int32(r)); r != ResultSuccess {
		return 0, c.errorf(r, fnModuleGetFunction, "module %#x, %q", uintptr(m), name)
	}
	return f, nil
}

// ModuleUnload unloads a module from LoadModule (cuModuleUnload); its
// functions become invalid.
func (c *Context) ModuleUnload(m Module) error {
	if r, at := c.callCtx(fnModuleUnload, uintptr(m)); r != ResultSuccess {
		return c.failed(r, at, fnModuleUnload, "module %#x", uintptr(m))
	}
	return nil
}

// FuncAttribute returns an attribute of kernel f (cuFuncGetAttribute),
// such as its register count.
func (c *Context) FuncAttribute(f Function, a FuncAttribute) (int, error) {
	v, err := callCtxOut[int32](c, fnFuncGetAttribute, []uintptr{uintptr(a), uintptr(f)}, "attribute %d, function %#x", a, uintptr(f))
	return int(v), err
}

// SetFuncAttribute sets an attribute of kernel f (cuFuncSetAttribute), for
// example FuncMaxDynamicSharedSizeBytes to opt in to more than 48 KiB of
// dynamic shared memory.
func (c *Context) SetFuncAttribute(f Function, a FuncAttribute, v int) error {
	if r, at := c.callCtx(fnFuncSetAttribute, uintptr(f), uintptr(a), uintptr(int32(v))); r != ResultSuccess {
		return c.failed(r, at, fnFuncSetAttribute, "function %#x, attribute %d, %d", uintptr(f), a, v)
	}
	return nil
}

// MaxActiveBlocksPerSM returns how many blocks of blockSize threads using
// dynSmem bytes of dynamic shared memory fit on one SM at once
// (cuOccupancyMaxActiveBlocksPerMultiprocessor).
func (c *Context) MaxActiveBlocksPerSM(f Function, blockSize int, dynSmem uint64) (int, error) {
	n, err := callCtxOut[int32](c, fnOccupancyMaxActiveBlocksPerMultiprocessor, []uintptr{uintptr(f), uintptr(int32(blockSize)), uintptr(dynSmem)},
		"function %#x, block %d, dynamic shared %d", uintptr(f), blockSize, dynSmem)
	return int(n), err
}
