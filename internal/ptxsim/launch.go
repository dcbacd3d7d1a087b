// This file implements a launch: its configuration checked against the
// kernel, the parameter space filled, and the grid's blocks run on
// parallel goroutines (each block wholly on one), with the fault of the
// lowest-numbered faulting block reported so that errors do not depend
// on scheduling, and the ld.global.nc hazard check at the end.

package ptxsim

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
)

// MaxSharedBytes is the most shared memory, static and dynamic, a block
// may have (227 KiB, what sm_90 allows a kernel that opts in).
const MaxSharedBytes = 227 << 10

// DefaultMaxSteps is the step budget of a launch when Config.MaxSteps is
// zero: thread instructions executed, summed over the grid.
const DefaultMaxSteps = 1 << 34

// Region is device memory a launch may access: Data holds the bytes at
// device addresses [Addr, Addr+len(Data)).
type Region struct {
	Name     string // for messages: "parameter b0 (buffer 3)"
	Addr     uint64
	Data     []byte
	ReadOnly bool // stores and atomics fault
}

// Config is a launch of a kernel.
type Config struct {
	// Grid and Block are the dimensions (x, y, z); a zero dimension
	// counts as 1.
	Grid, Block [3]int
	// Params holds one value per kernel parameter, in order: its low
	// Param.Size bytes are the parameter (a device address for a
	// pointer, the bits of a float). ParamData, when not nil, is the
	// whole parameter space instead (see Kernel.Params for the layout).
	Params    []uint64
	ParamData []byte
	// DynamicSharedBytes is the dynamic shared memory of each block (the
	// sharedMemBytes of cuLaunchKernel): the bytes the module's .extern
	// .shared arrays span, from Kernel.DynamicSharedOffset on.
	// %dynamic_smem_size reads it.
	DynamicSharedBytes int
	// Global is the device memory of global state space the kernel may
	// touch; Const the memory of the constant space (addresses that
	// cvta.to.const or ld.const use) besides the module's own constant
	// bank at ConstBankAddr, which every launch reads.
	Global, Const []Region
	// MaxSteps bounds the thread instructions of the launch (0:
	// DefaultMaxSteps) so that a runaway loop is an error.
	MaxSteps int64
	// Workers is how many goroutines run blocks (0: GOMAXPROCS, or 1
	// when the program is built with the race detector). Plain loads and
	// stores of different blocks to the same global bytes (a race on a
	// GPU too, often a benign one) are a data race between goroutines,
	// which Go's race detector cannot tell from one in the simulator
	// itself: under it, a launch runs its blocks in turn unless Workers
	// asks for more (the simulator's own tests do, on kernels whose
	// blocks write disjoint memory).
	Workers int
	// Trace and Watch, when set, record what one thread executes and
	// who writes one global address (see trace.go); they slow the launch.
	Trace *Trace
	Watch *Watch
}

// Stats counts what a launch executed.
type Stats struct {
	Blocks int
	// WarpInstructions counts instructions issued per warp;
	// ThreadInstructions the threads that executed them.
	WarpInstructions, ThreadInstructions int64
}

// Run executes the kernel over the grid of cfg and returns what it
// executed. The error is a plain error for a launch the kernel cannot
// take (parameters, dimensions, overlapping read-write regions), or an
// *Error for a fault in the kernel. Run writes only the memory of
// cfg.Global. It is safe to call concurrently; concurrent launches that
// write the same memory race as kernels would.
func (k *Kernel) Run(cfg Config) (Stats, error) {
	rs, err := k.newRun(&cfg)
	if err != nil {
		return Stats{}, err
	}
	n := rs.nblocks
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
		if raceEnabled {
			workers = 1
		}
	}
	workers = min(workers, n)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rs.worker()
		}()
	}
	wg.Wait()
	st := Stats{Blocks: n, WarpInstructions: rs.warpSteps.Load(), ThreadInstructions: rs.threadSteps.Load()}
	if rs.err != nil {
		return st, rs.err
	}
	return st, rs.hazards()
}

// runState is one launch in progress.
type runState struct {
	k           *Kernel
	grid, block [3]int
	nblocks     int
	nthreads    int
	params      []byte
	dynShared   int // Config.DynamicSharedBytes
	sharedBytes int // a block's shared memory, static and dynamic
	global      []Region
	consts      []Region
	maxSteps    int64
	trace       *Trace
	watch       *Watch

	next        atomic.Int64
	errBlock    atomic.Int64 // lowest faulting block, nblocks when none
	warpSteps   atomic.Int64
	threadSteps atomic.Int64

	mu      sync.Mutex
	err     *Error
	ncRead  []int32 // per global region: PTX line of an ld.global.nc from it, 0 if none
	written []int32 // per global region: PTX line of a store or atomic into it
}

// dims3 returns d with zero dimensions as 1, and the product.
func dims3(d [3]int, what string) ([3]int, int, error) {
	n := 1
	for i, v := range d {
		if v < 0 {
			return d, 0, fmt.Errorf("ptxsim: %s dimension %d is %d", what, i, v)
		}
		if v == 0 {
			d[i] = 1
		}
		n *= d[i]
	}
	return d, n, nil
}

// newRun checks cfg and prepares the launch.
func (k *Kernel) newRun(cfg *Config) (*runState, error) {
	rs := &runState{k: k}
	var err error
	if rs.grid, rs.nblocks, err = dims3(cfg.Grid, "grid"); err != nil {
		return nil, err
	}
	if rs.block, rs.nthreads, err = dims3(cfg.Block, "block"); err != nil {
		return nil, err
	}
	if rs.nthreads > 1024 || rs.block[2] > 64 {
		return nil, fmt.Errorf("ptxsim: kernel %s: a block of %v threads exceeds the 1024 (and 64 in z) a block can have", k.Name, rs.block)
	}
	if rs.grid[1] > 65535 || rs.grid[2] > 65535 || rs.grid[0] > 1<<31-1 {
		return nil, fmt.Errorf("ptxsim: kernel %s: grid %v exceeds the device's limits", k.Name, rs.grid)
	}
	if k.MaxThreads[0] > 0 && rs.nthreads > k.MaxThreads[0]*k.MaxThreads[1]*k.MaxThreads[2] {
		return nil, fmt.Errorf("ptxsim: kernel %s: a block of %v threads exceeds its .maxntid %v", k.Name, rs.block, k.MaxThreads)
	}
	if k.ReqThreads[0] > 0 && rs.block != k.ReqThreads {
		return nil, fmt.Errorf("ptxsim: kernel %s: a block of %v threads, its .reqntid is %v", k.Name, rs.block, k.ReqThreads)
	}
	if k.SharedBytes > 48<<10 {
		return nil, fmt.Errorf("ptxsim: kernel %s declares %d bytes of shared memory, more than the 48 KiB of static shared memory", k.Name, k.SharedBytes)
	}
	rs.sharedBytes = k.SharedBytes
	switch n := cfg.DynamicSharedBytes; {
	case n < 0:
		return nil, fmt.Errorf("ptxsim: kernel %s: %d bytes of dynamic shared memory", k.Name, n)
	case n > 0:
		rs.dynShared = n
		rs.sharedBytes = k.DynamicSharedOffset + n
		if rs.sharedBytes > MaxSharedBytes {
			return nil, fmt.Errorf("ptxsim: kernel %s: %d bytes of static and %d of dynamic shared memory exceed the %d bytes a block can have", k.Name, k.SharedBytes, n, MaxSharedBytes)
		}
	}
	switch {
	case cfg.ParamData != nil:
		if len(cfg.ParamData) < k.paramBytes {
			return nil, fmt.Errorf("ptxsim: kernel %s: %d bytes of parameters, it takes %d", k.Name, len(cfg.ParamData), k.paramBytes)
		}
		rs.params = cfg.ParamData
	default:
		if len(cfg.Params) != len(k.Params) {
			return nil, fmt.Errorf("ptxsim: kernel %s: launched with %d parameters, it has %d", k.Name, len(cfg.Params), len(k.Params))
		}
		rs.params = make([]byte, k.paramBytes+8)
		for i, p := range k.Params {
			if p.Size > 8 {
				return nil, fmt.Errorf("ptxsim: kernel %s: parameter %s is %d bytes; pass it in Config.ParamData", k.Name, p.Name, p.Size)
			}
			var b [8]byte
			binary.LittleEndian.PutUint64(b[:], cfg.Params[i])
			copy(rs.params[p.Offset:p.Offset+p.Size], b[:p.Size])
		}
	}
	rs.global = append([]Region(nil), cfg.Global...)
	rs.consts = append([]Region(nil), cfg.Const...)
	if n := len(k.bank); n > 0 {
		last := k.bank[n-1]
		end := last.Addr + uint64(len(last.Data))
		for _, r := range cfg.Const {
			if r.Addr < end && ConstBankAddr < r.Addr+uint64(len(r.Data)) {
				return nil, fmt.Errorf("ptxsim: kernel %s: const region %s [%#x, %#x) overlaps the module's constant bank [%#x, %#x)", k.Name, r.Name, r.Addr, r.Addr+uint64(len(r.Data)), ConstBankAddr, end)
			}
		}
		rs.consts = append(rs.consts, k.bank...)
	}
	for _, set := range [][]Region{rs.global, rs.consts} {
		sort.SliceStable(set, func(i, j int) bool { return set[i].Addr < set[j].Addr })
		for i := range set {
			if set[i].Addr+uint64(len(set[i].Data)) < set[i].Addr {
				return nil, fmt.Errorf("ptxsim: region %s wraps around the address space", set[i].Name)
			}
		}
	}
	rs.trace, rs.watch = cfg.Trace, cfg.Watch
	if rs.trace != nil {
		rs.trace.Lines = nil
	}
	rs.maxSteps = cfg.MaxSteps
	if rs.maxSteps <= 0 {
		rs.maxSteps = DefaultMaxSteps
	}
	rs.errBlock.Store(int64(rs.nblocks))
	rs.ncRead = make([]int32, len(rs.global))
	rs.written = make([]int32, len(rs.global))
	return rs, nil
}

// worker runs blocks until none are left or a lower block faulted.
func (rs *runState) worker() {
	b := rs.k.getBlock(rs)
	defer rs.k.putBlock(b)
	for {
		i := rs.next.Add(1) - 1
		if i >= int64(rs.nblocks) || i > rs.errBlock.Load() {
			break
		}
		b.reset(int(i))
		b.run()
		rs.warpSteps.Add(b.warpSteps)
		rs.threadSteps.Add(b.threadSteps)
		if b.fault != nil {
			rs.fault(int64(i), b.fault)
		}
	}
	rs.mu.Lock()
	for r := range b.ncRead {
		if b.ncRead[r] != 0 && rs.ncRead[r] == 0 {
			rs.ncRead[r] = b.ncRead[r]
		}
		if b.written[r] != 0 && rs.written[r] == 0 {
			rs.written[r] = b.written[r]
		}
	}
	rs.mu.Unlock()
}

// fault records the fault of block i, keeping the lowest block's.
func (rs *runState) fault(i int64, e *Error) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.err == nil || i < rs.errBlock.Load() {
		rs.err = e
		rs.errBlock.Store(i)
	}
}

// hazards reports memory read through ld.global.nc that the kernel also
// wrote: PTX ISA 9.7.8.9 allows the non-coherent path only for data that
// is read-only for the kernel's lifetime, so the loads may return stale
// data.
func (rs *runState) hazards() error {
	for i, line := range rs.ncRead {
		if line == 0 {
			continue
		}
		for j, wline := range rs.written {
			if wline == 0 || !overlap(rs.global[i], rs.global[j]) {
				continue
			}
			return &Error{Kernel: rs.k.Name, Kind: FaultHazard, Line: int(line), Instr: rs.k.textAt(line),
				Msg: fmt.Sprintf("ld.global.nc reads %s, which the kernel writes (line %d: %s); the non-coherent path is defined only for memory read-only during the kernel (PTX ISA 9.7.8.9)",
					rs.global[i].Name, wline, rs.k.textAt(wline))}
		}
	}
	return nil
}

func overlap(a, b Region) bool {
	return a.Addr < b.Addr+uint64(len(b.Data)) && b.Addr < a.Addr+uint64(len(a.Data))
}

// textAt returns the text of the instruction at a PTX line.
func (k *Kernel) textAt(line int32) string {
	for i := range k.code {
		if k.code[i].line == line {
			return k.code[i].text
		}
	}
	return ""
}

// ctaOf returns the block index of linear block i (x fastest).
func (rs *runState) ctaOf(i int) [3]int {
	return [3]int{i % rs.grid[0], i / rs.grid[0] % rs.grid[1], i / (rs.grid[0] * rs.grid[1])}
}

// tidOf returns the thread index of linear thread t of a block.
func (rs *runState) tidOf(t int) [3]int {
	return [3]int{t % rs.block[0], t / rs.block[0] % rs.block[1], t / (rs.block[0] * rs.block[1])}
}

// popc counts the lanes of a mask.
func popc(m uint32) int64 { return int64(bits.OnesCount32(m)) }
