// Aliasing tests of every inner loop: each entry of the unary, binary,
// cast and where tables, run with its destination at the address of one
// of its operands (for binary ops the first, the second, and both at
// once), must store what it stores into a separate destination, with the
// vector loops and with the scalar ones, at every length of vecLengths,
// over values that take every path of the loops (the float32
// exponential's fix-up range and NaN, infinities, subnormals, signed
// zeros, integer extremes).

package cpu

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/half"
	"github.com/fuseflow/fuseflow/internal/opdef"
)

// loopCase is one table entry with the dtypes it reads and writes.
type loopCase struct {
	name string
	op   graph.Op
	ins  []graph.DType
	out  graph.DType
	fn   any                                                // the scalar function opdef defines (nil for Where)
	run  func(d unsafe.Pointer, in []unsafe.Pointer, n int) // reads the table when called
}

// loopCases lists every non-nil entry of the elementwise loop tables.
func loopCases() []loopCase {
	var cs []loopCase
	for _, d := range graph.DTypes() {
		for op := range 256 {
			o := graph.Op(op)
			if unaryTab[d][o] == nil {
				continue
			}
			def := opdef.Lookup(o)
			cs = append(cs, loopCase{fmt.Sprintf("%v %v", o, d), o, []graph.DType{d}, def.Result(d), def.Fns.Get(d),
				func(dst unsafe.Pointer, in []unsafe.Pointer, n int) { unaryTab[d][o](dst, in[0], n) }})
		}
		for op := range 256 {
			o := graph.Op(op)
			if binaryTab[d][o] == nil {
				continue
			}
			def := opdef.Lookup(o)
			cs = append(cs, loopCase{fmt.Sprintf("%v %v", o, d), o, []graph.DType{d, d}, def.Result(d), def.Fns.Get(d),
				func(dst unsafe.Pointer, in []unsafe.Pointer, n int) { binaryTab[d][o](dst, in[0], in[1], n) }})
		}
		for _, to := range graph.DTypes() {
			if castTab[d][to] == nil {
				continue
			}
			cs = append(cs, loopCase{fmt.Sprintf("AsType %v to %v", d, to), graph.OpCast, []graph.DType{d}, to, opdef.Cast(d, to),
				func(dst unsafe.Pointer, in []unsafe.Pointer, n int) { castTab[d][to](dst, in[0], n) }})
		}
	}
	for _, d := range []graph.DType{graph.Bool, graph.Float16, graph.Float32, graph.Float64} {
		cs = append(cs, loopCase{fmt.Sprintf("Where %d-byte", d.Size()), graph.OpWhere, []graph.DType{graph.Bool, d, d}, d, nil,
			func(dst unsafe.Pointer, in []unsafe.Pointer, n int) { whereTab[d.Size()](dst, in[0], in[1], in[2], n) }})
	}
	return cs
}

// aliasBuf returns an 8-byte aligned buffer of n elements of the wider of
// sizes a and b, rounded up to 8 bytes (at least 8): with nothing after
// it, a loop that forms a pointer past its end fails under -race
// (checkptr).
func aliasBuf(n, a, b int) []byte {
	w := make([]uint64, max(1, (n*max(a, b)+7)/8))
	return unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), 8*len(w))
}

// aliasValues returns n random elements of dtype d as bytes.
func aliasValues(r *rand.Rand, d graph.DType, n int) []byte {
	b := aliasBuf(n, d.Size(), 1)
	p := unsafe.Pointer(&b[0])
	for i := range n {
		switch d {
		case graph.Bool:
			view[uint8](p, n)[i] = uint8(r.IntN(2))
		case graph.Int32:
			v := []int32{0, 1, -1, 2, -3, 7, math.MaxInt32, math.MinInt32, int32(r.Uint32()), int32(r.IntN(61) - 30)}
			view[int32](p, n)[i] = v[r.IntN(len(v))]
		case graph.Int64:
			v := []int64{0, 1, -1, 2, -3, 7, 62, 63, 64, math.MaxInt64, math.MinInt64, int64(r.Uint64()), int64(r.IntN(61) - 30)}
			view[int64](p, n)[i] = v[r.IntN(len(v))]
		case graph.Float32:
			view[float32](p, n)[i] = float32(vecValue(r, true))
		case graph.Float64:
			view[float64](p, n)[i] = vecValue(r, false)
		case graph.Float16:
			view[half.Float16](p, n)[i] = half.FromFloat32(float32(vecValue(r, true)))
		case graph.BFloat16:
			view[half.BFloat16](p, n)[i] = half.BFromFloat32(float32(vecValue(r, true)))
		default: // the other integers: small values and any bits
			x := r.Uint64()
			if r.IntN(2) == 0 {
				x = uint64(r.IntN(61) - 30)
			}
			for k := range d.Size() {
				b[i*d.Size()+k] = byte(x >> (8 * k))
			}
		}
	}
	return b[:n*d.Size()]
}

// TestLoopsInPlace runs every loop of the tables with its destination at
// each operand's address and compares with a separate destination.
func TestLoopsInPlace(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	eachVector(func(vec bool) {
		for _, c := range loopCases() {
		lengths:
			for _, n := range vecLengths {
				ins := make([][]byte, len(c.ins))
				ptrs := make([]unsafe.Pointer, len(c.ins))
				for k, d := range c.ins {
					ins[k] = aliasValues(r, d, n)
					ptrs[k] = unsafe.Pointer(unsafe.SliceData(aliasBuf(n, d.Size(), 1)))
					copy(unsafe.Slice((*byte)(ptrs[k]), n*d.Size()), ins[k])
				}
				es := c.out.Size()
				want := aliasBuf(n, es, 1)
				c.run(unsafe.Pointer(&want[0]), ptrs, n)
				want = want[:n*es]
				// The destination at operand k's address, then (binary
				// ops) at both operands, holding the same values.
				var aliases [][]int
				for k := range c.ins {
					aliases = append(aliases, []int{k})
				}
				if len(c.ins) == 2 {
					aliases = append(aliases, []int{0, 1})
				}
				for _, ks := range aliases {
					src := ins[ks[0]]
					buf := aliasBuf(n, es, c.ins[ks[0]].Size())
					copy(buf, src)
					in := append([]unsafe.Pointer(nil), ptrs...)
					for _, k := range ks {
						in[k] = unsafe.Pointer(&buf[0])
					}
					ref := want
					if len(ks) > 1 { // x op x: the expected values read one operand twice
						ref = aliasBuf(n, es, 1)
						c.run(unsafe.Pointer(&ref[0]), []unsafe.Pointer{ptrs[ks[0]], ptrs[ks[0]]}, n)
						ref = ref[:n*es]
					}
					c.run(unsafe.Pointer(&buf[0]), in, n)
					if got := buf[:n*es]; !bytes.Equal(got, ref) {
						i := 0
						for bytes.Equal(got[i*es:(i+1)*es], ref[i*es:(i+1)*es]) {
							i++
						}
						t.Errorf("%s (vector loops %v) n=%d in place of operands %v: element %d got:%x want:%x",
							c.name, vec, n, ks, i, got[i*es:(i+1)*es], ref[i*es:(i+1)*es])
						break lengths
					}
				}
			}
		}
	})
}
