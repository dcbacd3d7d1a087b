// The non-coherent load rule: ld.global.nc only through pointers into
// memory the kernel never writes, whatever hints the IR carries.

package ptx

import (
	"regexp"
	"testing"

	"github.com/fuseflow/fuseflow/codegen/ir"
)

// inPlaceKernel is x[i] = x[i] * y[i] (or, with outOfPlace, z[i] =
// x[i] * y[i]). Every load carries the CacheNC hint and x and y are
// marked ReadOnly, so only the emitter's own rule can keep the load of x
// coherent when x is also stored to.
func inPlaceKernel(outOfPlace bool) *ir.Func {
	f := ir.NewFunc("inplace")
	x := f.AddParam("x", gptr(ir.F32))
	y := f.AddParam("y", gptr(ir.F32))
	z := f.AddParam("z", gptr(ir.F32))
	n := f.AddParam("n", ir.U32)
	f.Params[1].ReadOnly = true
	f.MaxThreads = 128
	b := ir.NewBuilder(f)
	b.GridStride(n, func(i *ir.Value) {
		xv := b.LoadNC(b.PtrCast(b.Index(x, i), ir.F32))
		yv := b.LoadNC(b.Index(y, i))
		dst := x
		if outOfPlace {
			dst = z
		}
		b.Store(b.Index(dst, i), b.Mul(xv, yv))
	})
	b.Ret()
	return f
}

func TestNonCoherentLoadsAvoidWrittenMemory(t *testing.T) {
	ldNC := regexp.MustCompile(`ld\.global\.nc\.f32`)
	ld := regexp.MustCompile(`ld\.global\.f32`)
	tests := []struct {
		name           string
		outOfPlace     bool
		wantNC, wantLd int
	}{
		{"in place: x is written, only y may go through the non-coherent cache", false, 1, 1},
		{"out of place: x and y are never written", true, 2, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fn := inPlaceKernel(tt.outOfPlace)
			if err := fn.Verify(); err != nil {
				t.Fatal(err)
			}
			text, err := Emit(fn, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := len(ldNC.FindAllString(text, -1)); got != tt.wantNC {
				t.Errorf("ld.global.nc loads got:%v want:%v\n%s", got, tt.wantNC, text)
			}
			if got := len(ld.FindAllString(text, -1)); got != tt.wantLd {
				t.Errorf("coherent ld.global loads got:%v want:%v\n%s", got, tt.wantLd, text)
			}
			assembleModule(t, text)
		})
	}
}
