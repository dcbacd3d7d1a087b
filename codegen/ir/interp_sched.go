// This file implements the interpreter's per-block execution: thread
// state, the scheduler that picks the group of ready threads with the
// earliest program counter and runs it in lockstep, branches with argument
// binding, barriers, and the diagnosis of divergence and deadlock.

package ir

import "fmt"

// Thread states.
const (
	thReady uint8 = iota
	thBarrier
	thWarp
	thExited
)

// memObj is one memory object of a run: a global buffer bound to a
// parameter, or a shared or local allocation.
type memObj struct {
	name      string
	space     Space
	data      []byte
	init      []bool // per byte written since the block of threads started; nil: always initialized
	size      int    // bytes visible through a pointer (per thread for local)
	lo        int    // the first visible byte (Mem.Lo); 0 but for parameters
	perThread bool   // local memory: data holds one size-byte slice per thread
	readOnly  bool
	param     bool
}

// runState is the state of one Run.
type runState struct {
	p           *Program
	nt          int
	grid, block [3]int
	regs        []uint64
	objs        []memObj

	thr  [numSRegs][]uint64 // per-thread special registers (tid.*, laneid)
	uni  [numSRegs]uint64   // uniform special registers
	cta  [3]int
	pcB  []int32
	pcI  []int32
	st   []uint8
	live int // threads in thReady

	steps, maxSteps int64
	curB, curI      int
	dynBytes        int

	scratch     []uint64
	lanes       []int32
	tl, fl      []int32
	warpScratch []int32
}

// fill sets value id to bits in every thread.
func (s *runState) fill(id int, bits uint64) {
	r := s.regs[id*s.nt : (id+1)*s.nt]
	for i := range r {
		r[i] = bits
	}
}

// setupThreads precomputes thread indices and allocates thread state.
func (s *runState) setupThreads() {
	nt := s.nt
	for _, r := range []SReg{RegTidX, RegTidY, RegTidZ, RegLaneID} {
		s.thr[r] = make([]uint64, nt)
	}
	for t := 0; t < nt; t++ {
		s.thr[RegTidX][t] = uint64(t % s.block[0])
		s.thr[RegTidY][t] = uint64(t / s.block[0] % s.block[1])
		s.thr[RegTidZ][t] = uint64(t / (s.block[0] * s.block[1]))
		s.thr[RegLaneID][t] = uint64(t % 32)
	}
	for d := 0; d < 3; d++ {
		s.uni[RegNtidX+SReg(d)] = uint64(s.block[d])
		s.uni[RegNctaidX+SReg(d)] = uint64(s.grid[d])
	}
	s.uni[RegWarpSize] = 32
	s.uni[RegDynSmemSize] = uint64(s.dynBytes)
	s.pcB = make([]int32, nt)
	s.pcI = make([]int32, nt)
	s.st = make([]uint8, nt)
	maxArgs := 0
	for _, b := range s.p.fn.Blocks {
		maxArgs = max(maxArgs, len(b.Params))
	}
	s.scratch = make([]uint64, maxArgs)
	s.lanes = make([]int32, 0, nt)
	s.tl = make([]int32, 0, nt)
	s.fl = make([]int32, 0, nt)
	s.warpScratch = make([]int32, 0, 32)
}

// threadIndex returns the (x, y, z) index of linear thread t.
func (s *runState) threadIndex(t int32) [3]int {
	return [3]int{int(s.thr[RegTidX][t]), int(s.thr[RegTidY][t]), int(s.thr[RegTidZ][t])}
}

// fail returns a RunError for thread t at the current instruction.
func (s *runState) fail(t int32, format string, args ...any) error {
	return s.failAt(t, s.curB, s.curI, format, args...)
}

func (s *runState) failAt(t int32, b, i int, format string, args ...any) error {
	e := &RunError{Kernel: s.p.fn.Name, CTA: s.cta, Thread: s.threadIndex(t), Index: i, Msg: fmt.Sprintf(format, args...)}
	if b >= 0 && b < len(s.p.blocks) {
		cb := &s.p.blocks[b]
		e.Block = cb.b.Name
		if i >= 0 && i < len(cb.code) {
			e.Instr = cb.code[i].in.String()
			e.Pos = cb.code[i].in.Pos
		}
	}
	return e
}

// runCTA runs one block of threads to completion.
func (s *runState) runCTA(cta [3]int) error {
	s.cta = cta
	for d := 0; d < 3; d++ {
		s.uni[RegCtaidX+SReg(d)] = uint64(cta[d])
	}
	for i := range s.objs {
		if in := s.objs[i].init; in != nil {
			clear(in)
		}
	}
	clear(s.pcB)
	clear(s.pcI)
	clear(s.st)
	s.live = s.nt
	for {
		lanes := s.pick()
		if len(lanes) == 0 {
			done, err := s.quiesce()
			if done || err != nil {
				return err
			}
			continue
		}
		if err := s.runGroup(lanes); err != nil {
			return err
		}
	}
}

// pick returns the ready threads at the earliest program counter.
func (s *runState) pick() []int32 {
	lanes := s.lanes[:0]
	if s.live == 0 {
		return lanes
	}
	bb, bi := int32(-1), int32(0)
	for t := range s.nt {
		if s.st[t] != thReady {
			continue
		}
		b, i := s.pcB[t], s.pcI[t]
		switch {
		case bb < 0 || b < bb || (b == bb && i < bi):
			bb, bi = b, i
			lanes = append(lanes[:0], int32(t))
		case b == bb && i == bi:
			lanes = append(lanes, int32(t))
		}
	}
	s.lanes = lanes
	return lanes
}

func (s *runState) setPC(lanes []int32, b, i int, st uint8) {
	for _, t := range lanes {
		s.pcB[t], s.pcI[t], s.st[t] = int32(b), int32(i), st
	}
	if st != thReady {
		s.live -= len(lanes)
	}
}

// runGroup runs a group of threads at one program counter until they
// branch apart, wait, or exit.
func (s *runState) runGroup(lanes []int32) error {
	b, ip := int(s.pcB[lanes[0]]), int(s.pcI[lanes[0]])
	for {
		code := s.p.blocks[b].code
		for ; ; ip++ {
			ci := &code[ip]
			s.curB, s.curI = b, ip
			s.steps += int64(len(lanes))
			if s.steps > s.maxSteps {
				return s.fail(lanes[0], "step limit of %d exceeded (a loop that does not end?)", s.maxSteps)
			}
			switch ci.kind {
			case kExec:
				if err := ci.exec(s, lanes); err != nil {
					return err
				}
				continue
			case kBarrier:
				s.setPC(lanes, b, ip, thBarrier)
				return nil
			case kWarp:
				s.setPC(lanes, b, ip, thWarp)
				return s.resolveWarps(ci, b, ip, lanes)
			case kRet:
				s.setPC(lanes, b, ip, thExited)
				return nil
			case kBr:
				s.bind(&ci.succ[0], lanes)
				nb := ci.succ[0].blk
				if len(lanes) == s.live {
					b, ip = nb, 0
					break
				}
				s.setPC(lanes, nb, 0, thReady)
				return nil
			case kCondBr:
				tl, fl := s.tl[:0], s.fl[:0]
				c := s.regs[ci.cond*s.nt:]
				for _, t := range lanes {
					if c[t] != 0 {
						tl = append(tl, t)
					} else {
						fl = append(fl, t)
					}
				}
				s.tl, s.fl = tl, fl
				s.bind(&ci.succ[0], tl)
				s.bind(&ci.succ[1], fl)
				if len(lanes) == s.live && (len(tl) == 0 || len(fl) == 0) {
					b, ip = ci.succ[0].blk, 0
					if len(tl) == 0 {
						b = ci.succ[1].blk
					}
					break
				}
				s.setPC(tl, ci.succ[0].blk, 0, thReady)
				s.setPC(fl, ci.succ[1].blk, 0, thReady)
				return nil
			}
			break
		}
	}
}

// bind copies an edge's arguments into its target's parameters for each
// lane (reading all arguments before writing any parameter).
func (s *runState) bind(e *cedge, lanes []int32) {
	if len(e.args) == 0 {
		return
	}
	nt, r, tmp := s.nt, s.regs, s.scratch
	for _, t := range lanes {
		for k, a := range e.args {
			tmp[k] = r[a*nt+int(t)]
		}
		for k, p := range e.params {
			r[p*nt+int(t)] = tmp[k]
		}
	}
}

// quiesce handles the moment no thread is ready: the block is done, or all
// remaining threads wait at one barrier (released), or the block is stuck.
func (s *runState) quiesce() (bool, error) {
	exited, firstExit, firstWait := 0, int32(-1), int32(-1)
	for t := range s.nt {
		switch s.st[t] {
		case thExited:
			exited++
			if firstExit < 0 {
				firstExit = int32(t)
			}
		case thWarp:
			return false, s.warpDeadlock(int32(t))
		case thBarrier:
			if firstWait < 0 {
				firstWait = int32(t)
			}
		}
	}
	if exited == s.nt {
		return true, nil
	}
	b, i := int(s.pcB[firstWait]), int(s.pcI[firstWait])
	if exited > 0 {
		return false, s.failAt(firstWait, b, i,
			"bar.sync reached by only %d of %d threads of the block; %d threads already returned (first: thread %v)",
			s.nt-exited, s.nt, exited, s.threadIndex(firstExit))
	}
	for t := range s.nt {
		if int(s.pcB[t]) != b || int(s.pcI[t]) != i {
			ob, oi := int(s.pcB[t]), int(s.pcI[t])
			return false, s.failAt(firstWait, b, i,
				"barrier divergence: threads wait at different barriers: this one and block %s instr %d (thread %v)",
				s.p.blocks[ob].b.Name, oi, s.threadIndex(int32(t)))
		}
	}
	if red := s.p.blocks[b].code[i].red; red != nil {
		red(s)
	}
	for t := range s.nt {
		s.pcI[t]++
		s.st[t] = thReady
	}
	s.live = s.nt
	return false, nil
}

// barRedExec compiles the reduction of a bar.red, run once every thread
// of the block has arrived: operand (p pred).
func barRedExec(in *Instr) func(s *runState) {
	d, p, op := in.Result().ID, in.Args[0].ID, in.Red
	return func(s *runState) {
		nt, r := s.nt, s.regs
		count := 0
		for t := range nt {
			if r[p*nt+t] != 0 {
				count++
			}
		}
		var out uint64
		switch op {
		case RedPopc:
			out = uint64(count)
		case RedAnd:
			out = b2u(count == nt)
		case RedOr:
			out = b2u(count > 0)
		}
		s.fill(d, out)
	}
}
