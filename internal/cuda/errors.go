// Errors of the binding: the Error type carrying a CUresult, the sentinel for
// a missing driver, and the helpers callers test errors with.

package cuda

import (
	"errors"
	"fmt"
	"strings"
)

// ErrNoDriver is wrapped by every error that means the CUDA driver cannot be
// used at all: libcuda.so.1 is missing, cannot be loaded, or lacks a symbol
// this package needs. A program that sees it runs on the CPU instead.
var ErrNoDriver = errors.New("cuda: no usable CUDA driver")

// Error is a failed driver API call. Its message names the call with its
// arguments, the CUDA name of the code and the driver's description, for
// example
//
//	cuMemAlloc_v2(1073741824): CUDA_ERROR_OUT_OF_MEMORY: out of memory
//
// followed by the JIT error log when a module failed to load.
type Error struct {
	// Code is the CUresult the driver returned.
	Code Result
	// Name is the CUDA name of Code, from cuGetErrorName or, when the
	// driver does not know it, from the package's own table.
	Name string
	// Description is the driver's text for Code (cuGetErrorString), or the
	// package's own when the driver has none.
	Description string
	// Call is the driver function with its arguments, e.g.
	// "cuMemAlloc_v2(1073741824)".
	Call string
	// Log is the JIT error log of a failed cuModuleLoadDataEx, else empty.
	Log string
}

// Error formats e as call: NAME: description, with the JIT log on the
// lines after it.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Call)
	b.WriteString(": ")
	b.WriteString(e.Name)
	b.WriteString(": ")
	b.WriteString(e.Description)
	if e.Log != "" {
		b.WriteString("; JIT log:\n")
		b.WriteString(strings.TrimRight(e.Log, "\n"))
	}
	return b.String()
}

// IsOutOfMemory reports whether err is, or wraps, an *Error with code
// CUDA_ERROR_OUT_OF_MEMORY.
func IsOutOfMemory(err error) bool {
	return IsResult(err, ResultOutOfMemory)
}

// IsResult reports whether err is, or wraps, an *Error with the given code.
func IsResult(err error, code Result) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}

// newError builds the Error for a failed call of function fn. args is the
// text between the parentheses of Call. The name and description come from
// the driver when it knows the code, else from resultTable.
func (d *Driver) newError(code Result, fn int, args string) *Error {
	name, err := d.ErrorName(code)
	if err != nil || name == "" {
		name = code.String()
	}
	desc, err := d.ErrorString(code)
	if err != nil || desc == "" {
		desc = code.Description()
	}
	return &Error{
		Code:        code,
		Name:        name,
		Description: desc,
		Call:        fnNames[fn] + "(" + args + ")",
	}
}

// errorf is newError with the arguments formatted by fmt.Sprintf. It is
// only reached on failure, so the formatting costs nothing on success.
func (d *Driver) errorf(code Result, fn int, format string, args ...any) *Error {
	return d.newError(code, fn, fmt.Sprintf(format, args...))
}
