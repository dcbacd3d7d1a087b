// This file implements Kernel, the result of compiling one kernel, and
// the driver of its compilation: the signature's checks, the IR
// parameters, the translation of the body, the bounds-check sites, the
// verifier run (its problems become diagnostics at their source lines),
// and what the generated file records (written slices, cooperation,
// shared memory, PTX).

package gokernel

import (
	"fmt"
	"go/token"
	"go/types"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/codegen/mathlib"
	"github.com/fuseflow/fuseflow/codegen/ptx"
	"github.com/fuseflow/fuseflow/kernel"
	"golang.org/x/tools/go/ssa"
)

// DefaultArch and DefaultCUDA are the baseline target of generated PTX:
// sm_80 with the PTX ISA of CUDA 11.8 (7.8), which the drivers of every
// later release load and JIT for newer GPUs.
var (
	DefaultArch = ptx.Capability{Major: 8, Minor: 0}
	DefaultCUDA = ptx.Version{Major: 11, Minor: 8}
)

// Kernel is one compiled kernel.
type Kernel struct {
	Name string         // the Go function's name, also the PTX entry's
	Pos  token.Position // the function's declaration
	// Func is the kernel in IR, verified. Its parameters are those of
	// Params (a slice is a global pointer then an s64 length; a bool is
	// a u32 0 or 1) and, when Checks is not empty, a last pointer to the
	// u32 check word.
	Func        *ir.Func
	Params      []kernel.Param
	Sync        kernel.Sync
	SharedBytes int
	// Checks are the bounds and division check sites, "file.go:12:7:
	// index out of range"; a failing check stores its index plus one in
	// the check word and traps.
	Checks   []string
	NoBounds bool
}

// PTX returns the PTX module of the kernel for opts; zero Arch and CUDA
// mean DefaultArch and DefaultCUDA, nil ExpandMath the math library's
// expansion (mathlib.Expand), as the lazy arrays' kernels use.
func (k *Kernel) PTX(opts ptx.Options) (string, error) {
	if opts.Arch == (ptx.Capability{}) {
		opts.Arch = DefaultArch
	}
	if opts.CUDA.IsZero() {
		opts.CUDA = DefaultCUDA
	}
	if opts.ExpandMath == nil {
		opts.ExpandMath = mathlib.Expand
	}
	return ptx.Emit(k.Func, opts)
}

// ExpandMath is the math expansion the kernel's PTX uses
// (mathlib.Expand), for callers that emit several kernels in one module
// with ptx.EmitModule.
func (k *Kernel) ExpandMath(f *ir.Func) error { return mathlib.Expand(f) }

// compileKernel compiles the kernel fn, recording diagnostics in ds; it
// returns nil when fn has any.
func compileKernel(l loaded, fn *ssa.Function, kd kernelDecl, consts *constArrays, ds *diagSet) *Kernel {
	before := len(ds.diags)
	fset := l.pkg.Fset
	c := &compiler{l: l, fset: fset, ds: ds, consts: consts, noBounds: kd.noBounds, globals: map[*ssa.Global]*ir.Value{}}
	k := &Kernel{Name: fn.Name(), Pos: position(fset, fn.Pos()), NoBounds: kd.noBounds}
	c.k = k
	if !identOK(fn.Name()) {
		ds.add(fn.Pos(), "kernel name %s is not an ASCII identifier, which PTX entry names must be", fn.Name())
	}
	sig := fn.Signature
	if sig.TypeParams().Len() > 0 {
		ds.add(fn.Pos(), "generic kernels are not supported; write one kernel per element type (they may share generic helper functions)")
		return nil
	}
	if sig.Results().Len() > 0 {
		ds.add(fn.Pos(), "a kernel returns nothing; write its results into slice parameters")
	}
	ps := fn.Params
	if len(ps) == 0 || !isThread(ps[0].Type()) {
		ds.add(fn.Pos(), "the first parameter of a kernel must be a kernel.Thread: func %s(t kernel.Thread, ...)", fn.Name())
		return nil
	}
	c.f = ir.NewFunc(fn.Name())
	c.b = ir.NewBuilder(c.f)
	top := newFrame(fn)
	top.top = true
	top.vals[ps[0]] = nil
	for i, p := range ps[1:] {
		name := p.Name()
		if name == "_" || name == "" {
			name = "p" + strconv.Itoa(i+1)
		}
		kp := kernel.Param{Name: name}
		t := p.Type()
		if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg() != l.pkg.Types {
			ds.add(p.Pos(), "parameter %s has type %s of another package; use its underlying type %s", name, t, t.Underlying())
			continue
		}
		if sl, ok := t.Underlying().(*types.Slice); ok {
			if _, named := types.Unalias(sl.Elem()).(*types.Named); named {
				ds.add(p.Pos(), "parameter %s: slices of the named type %s are not supported as parameters; use []%s", name, sl.Elem(), sl.Elem().Underlying())
				continue
			}
		}
		switch u := t.Underlying().(type) {
		case *types.Basic:
			kt, ok := basicKernel[u.Kind()]
			if !ok {
				c.diagType(p.Pos(), t, "parameter "+name)
				continue
			}
			kp.Type = kt
			it := basicIR[u.Kind()]
			if it == ir.Pred {
				v := c.f.AddParam(name, ir.U32)
				top.vals[p] = []*ir.Value{c.b.Ne(v, c.b.U32(0))}
			} else {
				top.vals[p] = []*ir.Value{c.f.AddParam(name, it)}
			}
		case *types.Slice:
			eb, ok := u.Elem().Underlying().(*types.Basic)
			kt, ok2 := kernel.Type(0), false
			if ok {
				kt, ok2 = basicKernel[eb.Kind()]
			}
			if !ok2 {
				c.diagType(p.Pos(), t, "parameter "+name)
				continue
			}
			kp.Type, kp.Slice = kt, true
			mt, _ := memIR(u.Elem())
			ptr := c.f.AddParam(name, ir.PtrTo(ir.SpaceGlobal, mt))
			n := c.f.AddParam(name+"_len", ir.S64)
			top.vals[p] = []*ir.Value{ptr, n, n}
		case *types.Pointer:
			ds.add(p.Pos(), "pointer parameter %s is not supported in kernels; pass a slice (of length 1 for a single value)", name)
			continue
		default:
			c.diagType(p.Pos(), t, "parameter "+name)
			continue
		}
		k.Params = append(k.Params, kp)
	}
	if len(ds.diags) > before {
		return nil
	}
	top.blocks[0] = c.f.Entry()
	c.stack = []*ssa.Function{fn}
	c.translateFrame(top)
	c.patchEdges()
	c.emitFails()
	if len(ds.diags) > before {
		return nil
	}
	if err := c.f.Verify(); err != nil {
		c.verifyDiags(err)
		return nil
	}
	k.Func = c.f
	c.finish()
	return k
}

// identOK reports whether s is an ASCII Go identifier (a PTX entry name).
func identOK(s string) bool {
	for i, r := range s {
		ok := r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9'
		if !ok {
			return false
		}
	}
	return s != ""
}

// finish computes what the generated file records from the verified IR:
// written slices, cooperation, static shared memory; and marks the
// parameters never written read-only (ld.global.nc).
func (c *compiler) finish() {
	f, k := c.f, c.k
	written := writtenParams(f)
	pi := 0
	for i := range k.Params {
		p := &k.Params[i]
		if !p.Slice {
			pi++
			continue
		}
		prm := f.Params[pi]
		p.Written = written[prm.Value]
		prm.ReadOnly = !p.Written
		pi += 2
	}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			switch in.Op {
			case ir.OpBarrier, ir.OpBarRed:
				k.Sync |= kernel.SyncBarrier
			case ir.OpShfl, ir.OpVote, ir.OpWarpSync:
				k.Sync |= kernel.SyncWarp
			case ir.OpSpecial:
				if in.Reg == ir.RegActiveMask {
					k.Sync |= kernel.SyncWarp
				}
			}
		}
	}
	for _, a := range f.Shared {
		k.SharedBytes += (a.Bytes() + 15) &^ 15
	}
	if len(f.Shared)+len(f.DynShared) > 0 {
		k.Sync |= kernel.SyncShared
	}
}

// writtenParams returns the pointer parameters that stores or atomics of
// f may write through: the roots of their addresses, following address
// arithmetic, selects and block parameters (every value a branch binds).
func writtenParams(f *ir.Func) map[*ir.Value]bool {
	incoming := map[*ir.Value][]*ir.Value{}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			for _, e := range in.Succs {
				for i, a := range e.Args {
					p := e.Block.Params[i]
					incoming[p] = append(incoming[p], a)
				}
			}
		}
	}
	out := map[*ir.Value]bool{}
	seen := map[*ir.Value]bool{}
	var walk func(v *ir.Value)
	walk = func(v *ir.Value) {
		if v == nil || seen[v] {
			return
		}
		seen[v] = true
		switch v.Kind {
		case ir.ValParam:
			out[v] = true
		case ir.ValBlockParam:
			for _, a := range incoming[v] {
				walk(a)
			}
		case ir.ValResult:
			switch v.Def.Op {
			case ir.OpPtrAdd, ir.OpIndex, ir.OpPtrCast:
				walk(v.Def.Args[0])
			case ir.OpSelect:
				walk(v.Def.Args[1])
				walk(v.Def.Args[2])
			}
		}
	}
	for _, b := range f.Blocks {
		for _, in := range b.Instrs {
			if (in.Op == ir.OpStore || in.Op == ir.OpAtomic) && in.Args[0].Type.Space() == ir.SpaceGlobal {
				clear(seen)
				walk(in.Args[0])
			}
		}
	}
	return out
}

// verifyDiags turns the verifier's problems into diagnostics at the
// source lines of their instructions.
func (c *compiler) verifyDiags(err error) {
	ve, ok := err.(*ir.VerifyError)
	if !ok {
		c.ds.addAt(c.k.Pos, "internal error: "+err.Error())
		return
	}
	for _, p := range ve.Problems {
		pos := c.k.Pos
		if p.Pos.IsValid() {
			pos = c.fullPos(p.Pos)
		}
		msg := p.Msg
		if strings.Contains(msg, "in thread-dependent control flow") {
			msg = "this barrier is not reached by every thread of the block: it is in a branch or loop that depends on the thread index (or after a return some threads take); move it where all threads arrive"
			if br := c.branchPos(p.Msg); br.IsValid() {
				msg += fmt.Sprintf(" (the branch is at %s:%d:%d)", filepath.Base(br.Filename), br.Line, br.Column)
			}
		} else {
			msg = "internal error: the compiled kernel does not verify: " + p.String()
		}
		c.ds.addAt(pos, msg)
	}
}

// branchPos finds the position of the branch a barrier problem names
// ("... at the end of block NAME on ...").
func (c *compiler) branchPos(msg string) token.Position {
	const key = "at the end of block "
	i := strings.Index(msg, key)
	if i < 0 {
		return token.Position{}
	}
	name := msg[i+len(key):]
	if j := strings.IndexByte(name, ' '); j >= 0 {
		name = name[:j]
	}
	for _, b := range c.f.Blocks {
		if b.Name == name {
			if t := b.Term(); t != nil && t.Pos.IsValid() {
				return c.fullPos(t.Pos)
			}
		}
	}
	return token.Position{}
}

// fullPos returns the token.Position of an IR position (whose file is a
// base name) in the kernel's package.
func (c *compiler) fullPos(p ir.Pos) token.Position {
	for _, f := range c.l.pkg.CompiledGoFiles {
		if filepath.Base(f) == p.File {
			return token.Position{Filename: f, Line: p.Line, Column: p.Col}
		}
	}
	return token.Position{Filename: p.File, Line: p.Line, Column: p.Col}
}

// diagType records that type t of what is not supported.
func (c *compiler) diagType(pos token.Pos, t types.Type, what string) {
	why := unsupportedType(t)
	if why == "" {
		why = t.String() + " is not supported here"
	}
	c.ds.add(pos, "%s: %s", what, why)
}

func itoa(n int) string { return strconv.Itoa(n) }
