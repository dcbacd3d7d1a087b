// This file implements Interpret: a compiled kernel's IR run on the IR
// interpreter with the arguments a launch takes (Go scalars and host
// slices), its written slices copied back, and a failed check reported
// as the *kernel.LaunchError a GPU launch returns, naming the source
// line. It is the second way the tests run every kernel (the first is
// the Go function on the CPU device).

package gokernel

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/internal/le"
	"github.com/fuseflow/fuseflow/kernel"
)

// Interpret runs the kernel's IR over cfg's grid on the IR interpreter
// (blocks one after another, threads in lockstep) with args as Launch
// takes them, except that scalars and slices must have the kinds of the
// parameters' Go types (no conversions, no device arrays). Written
// slices are updated in place. A failed bounds or division check returns
// a *kernel.LaunchError naming the thread and the check's source
// position; other faults (an access the checks do not cover, a barrier
// or warp operation that cannot complete) return the interpreter's
// *ir.RunError. It is safe for concurrent use with distinct arguments.
func (k *Kernel) Interpret(cfg kernel.Config, args ...any) error {
	if len(args) != len(k.Params) {
		return fmt.Errorf("gokernel: kernel %s: %d arguments for %d parameters", k.Name, len(args), len(k.Params))
	}
	var irArgs []any
	type back struct {
		dst reflect.Value
		mem *ir.Mem
	}
	var backs []back
	for i, p := range k.Params {
		a := reflect.ValueOf(args[i])
		if !a.IsValid() || !kindOK(a.Type(), p) {
			return fmt.Errorf("gokernel: kernel %s: argument %d for parameter %s: got %T", k.Name, i+1, p, args[i])
		}
		if !p.Slice {
			switch {
			case p.Type == kernel.Bool:
				irArgs = append(irArgs, uint32(b2u(a.Bool())))
			case a.CanInt():
				irArgs = append(irArgs, a.Int())
			case a.CanUint():
				irArgs = append(irArgs, a.Uint())
			case p.Type == kernel.Float32:
				irArgs = append(irArgs, float32(a.Float()))
			default:
				irArgs = append(irArgs, a.Float())
			}
			continue
		}
		m := &ir.Mem{Data: hostBytes(a)}
		irArgs = append(irArgs, m, int64(a.Len()))
		if p.Written {
			backs = append(backs, back{a, m})
		}
	}
	var word *ir.Mem
	if len(k.Checks) > 0 {
		word = ir.NewMem(4)
		irArgs = append(irArgs, word)
	}
	g, b := dims(cfg.Grid), dims(cfg.Block)
	err := ir.Run(k.Func, ir.Config{Grid: g, Block: b, SharedBytes: cfg.SharedBytes}, irArgs...)
	for _, bk := range backs {
		readHost(bk.dst, bk.mem.Data)
	}
	if err == nil {
		return nil
	}
	var re *ir.RunError
	if errors.As(err, &re) && word != nil {
		if code := binary.LittleEndian.Uint32(word.Data); code > 0 && int(code) <= len(k.Checks) {
			site := k.Checks[code-1]
			pos, what, _ := strings.Cut(site, ": ")
			return &kernel.LaunchError{Kernel: k.Name, Block: kernel.Dim3{X: re.CTA[0], Y: re.CTA[1], Z: re.CTA[2]},
				Thread: kernel.Dim3{X: re.Thread[0], Y: re.Thread[1], Z: re.Thread[2]}, Pos: pos, Msg: what}
		}
	}
	return err
}

// kinds gives the reflect kind of each kernel type.
var kinds = map[kernel.Type]reflect.Kind{
	kernel.Bool: reflect.Bool, kernel.Int: reflect.Int, kernel.Int32: reflect.Int32, kernel.Int64: reflect.Int64,
	kernel.Uint32: reflect.Uint32, kernel.Uint64: reflect.Uint64, kernel.Float32: reflect.Float32, kernel.Float64: reflect.Float64,
}

// kindOK reports whether a value of type t fits parameter p.
func kindOK(t reflect.Type, p kernel.Param) bool {
	if p.Slice {
		return t.Kind() == reflect.Slice && t.Elem().Kind() == kinds[p.Type]
	}
	return t.Kind() == kinds[p.Type]
}

func dims(d kernel.Dim3) [3]int { return [3]int{max(d.X, 1), max(d.Y, 1), max(d.Z, 1)} }

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// hostBytes returns the little-endian bytes of a host slice (bools as
// bytes, ints as 64 bits), as a GPU launch copies them.
func hostBytes(a reflect.Value) []byte {
	n := a.Len()
	et := a.Type().Elem()
	size := int(et.Size())
	b := make([]byte, n*size)
	for i := range n {
		e := a.Index(i)
		var u uint64
		switch et.Kind() {
		case reflect.Bool:
			u = b2u(e.Bool())
		case reflect.Int, reflect.Int32, reflect.Int64:
			u = uint64(e.Int())
		case reflect.Uint32, reflect.Uint64:
			u = e.Uint()
		case reflect.Float32:
			u = uint64(math.Float32bits(float32(e.Float())))
		case reflect.Float64:
			u = math.Float64bits(e.Float())
		}
		le.Put(b[i*size:], size, u)
	}
	return b
}

// readHost decodes the little-endian bytes b into the host slice a.
func readHost(a reflect.Value, b []byte) {
	et := a.Type().Elem()
	size := int(et.Size())
	for i := range a.Len() {
		u := le.Get(b[i*size:], size)
		e := a.Index(i)
		switch et.Kind() {
		case reflect.Bool:
			e.SetBool(u != 0)
		case reflect.Int, reflect.Int64:
			e.SetInt(int64(u))
		case reflect.Int32:
			e.SetInt(int64(int32(uint32(u))))
		case reflect.Uint32, reflect.Uint64:
			e.SetUint(u)
		case reflect.Float32:
			e.SetFloat(float64(math.Float32frombits(uint32(u))))
		case reflect.Float64:
			e.SetFloat(math.Float64frombits(u))
		}
	}
}
