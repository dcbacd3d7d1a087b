// This file implements the interpreter's public surface: launch
// configuration, compiling a function into a Program, binding arguments,
// running the grid one block of threads at a time, and RunError.
//
// Scheduling: every thread has a program counter (block, instruction).
// The scheduler repeatedly takes the ready threads with the smallest
// counter in layout order and runs them in lockstep (one instruction over
// all of them, then the next) until a terminator, a barrier or a warp
// operation. A conditional branch splits the group by lane; because the
// structured helpers lay a region out before its exit, the earliest
// counter is always inside the region, so the split groups finish it and
// meet again at the merge block (loops with divergent trip counts wait at
// the loop exit). Barriers wait until every thread of the block is at the
// same bar.sync; warp operations wait until every lane named in the mask
// is at the same instruction. This rule is correct for any CFG (a thread's
// own execution never depends on the order), and gives the lockstep
// reconvergence of structured code.

package ir

import (
	"fmt"
	"math"
	"reflect"

	"github.com/fuseflow/fuseflow/internal/le"
)

// DefaultMaxSteps is the step budget of a run when Config.MaxSteps is 0: the
// number of instructions executed, summed over threads.
const DefaultMaxSteps = 1 << 32

// Config is a launch: grid and block dimensions (x, y, z; a zero dimension
// counts as 1), a step budget (0: DefaultMaxSteps) that turns runaway
// loops into an error, and the dynamic shared memory of each block.
type Config struct {
	Grid     [3]int
	Block    [3]int
	MaxSteps int64
	// SharedBytes is the size of the dynamic shared memory of each block
	// (Func.DynShared views it); 0 means none.
	SharedBytes int
}

// RunError is an error raised while a kernel runs, with the block of
// threads (CTA) and thread it happened in and the IR position.
type RunError struct {
	Kernel string
	CTA    [3]int // block index (ctaid)
	Thread [3]int // thread index (tid)
	Block  string // IR block
	Index  int    // instruction index in Block
	Instr  string // the instruction as printed
	Pos    Pos    // the instruction's source position, zero when none
	Msg    string
}

// Error formats the error with its positions (the source position, when
// the instruction has one, after the instruction).
func (e *RunError) Error() string {
	at := ""
	if e.Pos.IsValid() {
		at = " at " + e.Pos.String()
	}
	return fmt.Sprintf("ir: run @%s: block (%d,%d,%d) thread (%d,%d,%d): at %s instr %d (%s)%s: %s",
		e.Kernel, e.CTA[0], e.CTA[1], e.CTA[2], e.Thread[0], e.Thread[1], e.Thread[2], e.Block, e.Index, e.Instr, at, e.Msg)
}

// Program is a verified function compiled for the interpreter. It is
// immutable and safe for concurrent runs (runs that write the same Mem
// race on it, as kernels would).
type Program struct {
	fn     *Func
	blocks []cblock
	nvals  int
}

// Compile verifies fn and compiles it for the interpreter. It returns the
// verifier's error when fn is invalid.
func Compile(fn *Func) (*Program, error) {
	if err := fn.Verify(); err != nil {
		return nil, err
	}
	return compileProgram(fn), nil
}

// Run compiles fn and runs it once; see Program.Run.
func Run(fn *Func, cfg Config, args ...any) error {
	p, err := Compile(fn)
	if err != nil {
		return err
	}
	return p.Run(cfg, args...)
}

// Func returns the compiled function.
func (p *Program) Func() *Func { return p.fn }

// Run executes the kernel over the grid. args bind the parameters in
// order: a *Mem for each pointer parameter, and for scalars a Go integer
// (int, int8..int64, uint, uint8..uint64) that fits the parameter's type, a
// float32 or float64 for float parameters. Blocks of threads run one after
// another in linear order (x fastest), so atomics apply in a deterministic
// order. Run returns a *RunError for faults in the kernel (out-of-bounds
// or misaligned access, uninitialized shared or local read, store through
// a read-only parameter, barrier or warp divergence, step budget exceeded)
// and a plain error for a bad launch or bad arguments.
func (p *Program) Run(cfg Config, args ...any) error {
	s, err := p.newRun(cfg, args)
	if err != nil {
		return err
	}
	for z := 0; z < s.grid[2]; z++ {
		for y := 0; y < s.grid[1]; y++ {
			for x := 0; x < s.grid[0]; x++ {
				if err := s.runCTA([3]int{x, y, z}); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func dims(d [3]int) ([3]int, int, error) {
	n := 1
	for i, v := range d {
		if v < 0 {
			return d, 0, fmt.Errorf("dimension %d is %d", i, v)
		}
		if v == 0 {
			d[i] = 1
		}
		n *= d[i]
	}
	return d, n, nil
}

// newRun validates the launch, binds the arguments and sets up state.
func (p *Program) newRun(cfg Config, args []any) (*runState, error) {
	f := p.fn
	grid, ng, err := dims(cfg.Grid)
	if err != nil {
		return nil, fmt.Errorf("ir: run @%s: grid: %v", f.Name, err)
	}
	block, nt, err := dims(cfg.Block)
	if err != nil {
		return nil, fmt.Errorf("ir: run @%s: block: %v", f.Name, err)
	}
	switch {
	case nt > 1024:
		return nil, fmt.Errorf("ir: run @%s: %d threads per block, at most 1024", f.Name, nt)
	case f.MaxThreads > 0 && nt > f.MaxThreads:
		return nil, fmt.Errorf("ir: run @%s: %d threads per block, the kernel allows at most %d", f.Name, nt, f.MaxThreads)
	case ng > math.MaxInt32:
		return nil, fmt.Errorf("ir: run @%s: %d blocks in the grid, too many", f.Name, ng)
	case len(args) != len(f.Params):
		return nil, fmt.Errorf("ir: run @%s: %d arguments for %d parameters", f.Name, len(args), len(f.Params))
	case cfg.SharedBytes < 0 || cfg.SharedBytes > math.MaxUint32:
		return nil, fmt.Errorf("ir: run @%s: %d bytes of dynamic shared memory", f.Name, cfg.SharedBytes)
	}
	s := &runState{p: p, nt: nt, grid: grid, block: block, maxSteps: cfg.MaxSteps, dynBytes: cfg.SharedBytes}
	if s.maxSteps <= 0 {
		s.maxSteps = DefaultMaxSteps
	}
	s.regs = make([]uint64, p.nvals*nt)
	s.objs = make([]memObj, 1, 1+len(f.Params)+len(f.Shared)+len(f.Local))
	for i, prm := range f.Params {
		bits, obj, err := bindArg(prm, args[i])
		if err != nil {
			return nil, fmt.Errorf("ir: run @%s: argument %d for parameter %s (%s): %v", f.Name, i, prm.Name, prm.Type, err)
		}
		if obj != nil {
			bits = uint64(len(s.objs)) << 48
			s.objs = append(s.objs, *obj)
		}
		s.fill(prm.Value.ID, bits)
	}
	for _, list := range [][]*Alloc{f.Shared, f.Local} {
		for _, a := range list {
			o := memObj{name: a.Name, space: a.Space, size: a.Bytes()}
			n := o.size
			if a.Space == SpaceLocal {
				o.perThread = true
				n *= nt
			}
			o.data = make([]byte, n)
			o.init = make([]bool, n)
			s.fill(a.Value.ID, uint64(len(s.objs))<<48)
			s.objs = append(s.objs, o)
		}
	}
	if len(f.DynShared) > 0 {
		o := memObj{name: f.DynShared[0].Name, space: SpaceShared, size: cfg.SharedBytes,
			data: make([]byte, cfg.SharedBytes), init: make([]bool, cfg.SharedBytes)}
		for _, a := range f.DynShared {
			s.fill(a.Value.ID, uint64(len(s.objs))<<48)
		}
		s.objs = append(s.objs, o)
	}
	for _, a := range f.ConstArrays {
		size := a.Elem.Size()
		o := memObj{name: a.Name, space: SpaceConst, size: a.Bytes(), data: make([]byte, a.Bytes()), readOnly: true}
		for i, x := range a.Init {
			le.Put(o.data[i*size:], size, x)
		}
		s.fill(a.Value.ID, uint64(len(s.objs))<<48)
		s.objs = append(s.objs, o)
	}
	for _, c := range f.Consts() {
		s.fill(c.ID, c.Bits)
	}
	s.setupThreads()
	return s, nil
}

// bindArg converts one argument to register bits or a memory object.
func bindArg(prm *Param, a any) (uint64, *memObj, error) {
	t := prm.Type
	if t.IsPtr() {
		m, ok := a.(*Mem)
		if !ok || m == nil {
			return 0, nil, fmt.Errorf("want a *Mem, got %T", a)
		}
		if m.Lo < 0 || m.Lo > len(m.Data) {
			return 0, nil, fmt.Errorf("Mem.Lo is %d for %d bytes", m.Lo, len(m.Data))
		}
		return 0, &memObj{name: prm.Name, space: t.Space(), data: m.Data, size: len(m.Data), lo: m.Lo,
			readOnly: prm.ReadOnly || t.Space() == SpaceConst, param: true}, nil
	}
	if t.IsFloat() {
		switch x := a.(type) {
		case float32:
			return floatBits(t, float64(x)), nil, nil
		case float64:
			return floatBits(t, x), nil, nil
		}
		return 0, nil, fmt.Errorf("want a float32 or float64, got %T", a)
	}
	var v int64
	var u uint64
	neg := false
	switch rv := reflect.ValueOf(a); rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v = rv.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		u = rv.Uint()
	default:
		return 0, nil, fmt.Errorf("want a Go integer, got %T", a)
	}
	if v < 0 {
		neg = true
		u = uint64(v)
	} else if v > 0 {
		u = uint64(v)
	}
	w := t.Bits()
	fits := false
	switch {
	case t.IsSigned() && neg:
		fits = w == 64 || v >= -(1<<uint(w-1))
	case t.IsSigned():
		fits = w == 64 && u <= math.MaxInt64 || w < 64 && u < 1<<uint(w-1)
	case neg:
		fits = false
	default:
		fits = w == 64 || u < 1<<uint(w)
	}
	if !fits {
		return 0, nil, fmt.Errorf("value %v does not fit %s", a, t)
	}
	return u & maskOf(w), nil, nil
}

func floatBits(t Type, x float64) uint64 {
	if t == F32 {
		return bf32(float32(x))
	}
	return bf64(x)
}
