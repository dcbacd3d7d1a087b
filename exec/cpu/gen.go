// Generated leaves: Iota, Eye and the Philox random arrays computed from
// each element's flat index, as fuse.GenAttr defines them.

package cpu

import (
	"unsafe"

	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/philox"
)

// genFn writes the values of the n elements whose flat indices are idx.
type genFn func(dst unsafe.Pointer, d graph.DType, g *fuse.GenAttr, idx []int)

var genTab = map[graph.Op]genFn{
	graph.OpIota:  genIota,
	graph.OpEye:   genEye,
	graph.OpRandU: genRand,
	graph.OpRandN: genNormal,
}

// genIota computes Start + i*Step in float64 (Stop exactly for the last
// element with HasStop) and converts it as AsType does.
func genIota(dst unsafe.Pointer, d graph.DType, g *fuse.GenAttr, idx []int) {
	f := func(i int) float64 {
		if g.HasStop && g.Len >= 2 && i == g.Len-1 {
			return g.Stop
		}
		return g.Start + float64(i)*g.Step
	}
	n := len(idx)
	switch d {
	case graph.Float64:
		v := view[float64](dst, n)
		for k, i := range idx {
			v[k] = f(i)
		}
	case graph.Float32:
		v := view[float32](dst, n)
		for k, i := range idx {
			v[k] = float32(f(i))
		}
	case graph.Int64:
		v := view[int64](dst, n)
		for k, i := range idx {
			v[k] = graph.CastFloatToInt64(f(i))
		}
	case graph.Int32:
		v := view[int32](dst, n)
		for k, i := range idx {
			v[k] = graph.CastFloatToInt32(f(i))
		}
	case graph.Bool:
		v := view[uint8](dst, n)
		for k, i := range idx {
			v[k] = b2u(f(i) != 0)
		}
	}
}

// genEye writes 1 where column - row == K.
func genEye(dst unsafe.Pointer, d graph.DType, g *fuse.GenAttr, idx []int) {
	cols := max(g.Cols, 1)
	one := scalarBits(graph.ScalarOf(d, 1), d)
	es := d.Size()
	for k, i := range idx {
		var bits uint64
		if i%cols-i/cols == g.K {
			bits = one
		}
		fill(unsafe.Add(dst, k*es), es, bits, 1)
	}
}

// genRand draws philox uniforms (OpRandU), genNormal standard normals
// (OpRandN).
var (
	genRand   = genPhilox(philox.Float32, philox.Float64)
	genNormal = genPhilox(philox.Normal32, philox.Normal64)
)

// genPhilox returns the generator of the philox draws f32 and f64 compute
// from the seed and each element's flat index.
func genPhilox(f32 func(seed, ctr uint64) float32, f64 func(seed, ctr uint64) float64) genFn {
	return func(dst unsafe.Pointer, d graph.DType, g *fuse.GenAttr, idx []int) {
		n := len(idx)
		switch d {
		case graph.Float32:
			v := view[float32](dst, n)
			for k, i := range idx {
				v[k] = f32(g.Seed, uint64(i))
			}
		case graph.Float64:
			v := view[float64](dst, n)
			for k, i := range idx {
				v[k] = f64(g.Seed, uint64(i))
			}
		}
	}
}
