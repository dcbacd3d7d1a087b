// The fake driver's test-only exports (fake_* in fakecuda.c), bound once
// for every test package that runs against it, and its record of the last
// launch.

package fake

import (
	"bytes"
	"fmt"

	"github.com/ebitengine/purego"
)

// Controls are the fake driver's test-only functions, bound by Open. They
// act on the library's global state, which is safe for concurrent use
// (the fake guards it with a mutex); a test that changes a limit or arms
// a failure restores it itself.
type Controls struct {
	// SetMemLimit caps the device memory cuMemAlloc hands out (1 GiB
	// at load); MemUsed is what is allocated now.
	SetMemLimit func(n uint64)
	MemUsed     func() uint64
	// HostAllocs counts the pinned host allocations alive.
	HostAllocs func() int64
	// FailNext makes the next call of the driver function fn return
	// code; FailNextSticky does so with a code that, when it is a sticky
	// fault, every later call in the context returns too, until
	// ClearFault. StickyFault is the context's sticky fault, 0 if none.
	FailNext       func(fn string, code int32)
	FailNextSticky func(fn string, code int32)
	StickyFault    func() int32
	ClearFault     func()
	// FailLoad makes the next module load fail with code and the JIT
	// log text.
	FailLoad func(code int32, log string)
	// SetAttr sets the device attribute attr to v and returns 1, or 0
	// for an attribute the fake does not report; SetDriverVersion sets
	// what cuDriverGetVersion reports.
	SetAttr          func(attr, v int32) int32
	SetDriverVersion func(v int32)
	// LaunchCount counts kernel launches, LastStream is the stream of
	// the last one, ModuleCount the modules loaded and not unloaded;
	// CurrentContext is the calling thread's context.
	LaunchCount    func() int64
	LastStream     func() uintptr
	ModuleCount    func() int64
	CurrentContext func() uintptr
	// AllocMark returns the number the next device allocation gets;
	// FreeSince frees every live allocation numbered mark or later and
	// returns the bytes freed.
	AllocMark func() uint64
	FreeSince func(mark uint64) uint64

	lastLaunch func(dims *uint32, params *uint64, max int32, name *byte, namelen int32) int32
}

// Open loads the fake driver built at path (see Build) and binds its
// controls. It returns the library's handle for binding further symbols.
// The library stays loaded for the life of the process.
func Open(path string) (*Controls, uintptr, error) {
	lib, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		return nil, 0, fmt.Errorf("fake: opening %s: %w", path, err)
	}
	c := &Controls{}
	for _, s := range []struct {
		fptr any
		name string
	}{
		{&c.SetMemLimit, "fake_set_mem_limit"},
		{&c.MemUsed, "fake_mem_used"},
		{&c.HostAllocs, "fake_host_allocs"},
		{&c.FailNext, "fake_fail_next"},
		{&c.FailNextSticky, "fake_fail_next_sticky"},
		{&c.StickyFault, "fake_sticky_fault"},
		{&c.ClearFault, "fake_clear_fault"},
		{&c.FailLoad, "fake_fail_load"},
		{&c.SetAttr, "fake_set_attr"},
		{&c.SetDriverVersion, "fake_set_driver_version"},
		{&c.LaunchCount, "fake_launch_count"},
		{&c.LastStream, "fake_last_stream"},
		{&c.ModuleCount, "fake_module_count"},
		{&c.CurrentContext, "fake_current_context"},
		{&c.AllocMark, "fake_alloc_mark"},
		{&c.FreeSince, "fake_free_since"},
		{&c.lastLaunch, "fake_last_launch"},
	} {
		if _, err := purego.Dlsym(lib, s.name); err != nil {
			return nil, 0, fmt.Errorf("fake: %s lacks %s: %w", path, s.name, err)
		}
		purego.RegisterLibFunc(s.fptr, lib, s.name)
	}
	return c, lib, nil
}

// Launch is what the fake recorded about the last launch.
type Launch struct {
	Grid, Block [3]uint32
	Shared      uint32
	Params      []uint64
	Name        string
}

// LastLaunch returns the record of the last launch (up to 32 parameter
// words and 127 bytes of the kernel's name).
func (c *Controls) LastLaunch() Launch {
	var dims [7]uint32
	var params [32]uint64
	var name [128]byte
	n := c.lastLaunch(&dims[0], &params[0], int32(len(params)), &name[0], int32(len(name)))
	end := bytes.IndexByte(name[:], 0)
	if end < 0 {
		end = len(name)
	}
	return Launch{
		Grid:   [3]uint32{dims[0], dims[1], dims[2]},
		Block:  [3]uint32{dims[3], dims[4], dims[5]},
		Shared: dims[6],
		Params: append([]uint64(nil), params[:n]...),
		Name:   string(name[:end]),
	}
}
