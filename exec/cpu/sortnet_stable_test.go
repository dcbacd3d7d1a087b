// The comparator networks (sortnet64.go for 8-byte keys, sortnet.go for
// 4-byte keys) against the stable merge and radix sorts they stand in
// for (vector loops off), bit for bit (NaN payloads and the signs of
// zeros included): int64 and float64 rows of every length from
// 2 to 256 and some up to the network's longest (4096) and past it, with ties, both zeros, NaN of both signs
// and several payloads, infinities, subnormals and the integer
// extremes; rows side by side in memory (the sorted axis first), one
// after another, under a 3-D outer space, and through reversed and
// stepped views; ascending (Sort) and descending (TopK values, all or
// half of a row), argsorts and TopK indices (alone and with values);
// with the AVX-512 and the AVX2 loop where the CPU has both. int32 and
// float32 rows the same way (their argsorts by the network of 8-byte
// keys, each key above its index). The
// reference checks some of them too.

package cpu_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/cpu"
	"github.com/fuseflow/fuseflow/graph"
)

// net64Input returns a tensor of d (Int32, Int64, Float32 or Float64)
// and s whose values come from a small set (ties), with the extremes
// now and then and, for floats, a zero or NaN about once in 4n elements
// (so most rows of n go through the network and some do not).
func net64Input(t *testing.T, alloc memory.Allocator, d graph.DType, s graph.Shape, n int, seed uint64) *exec.Tensor {
	x, err := exec.NewTensor(alloc, d, s)
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(seed, 64))
	var bits []uint64
	switch d {
	case graph.Int64, graph.Int32:
		ext := []int64{math.MinInt64, math.MaxInt64, math.MinInt64 + 1, -1, 0, 1, 1 << 40, -1 << 40, math.MinInt32, math.MaxInt32}
		for range s.Size() {
			v := int64(r.IntN(41) - 20)
			if r.IntN(10) == 0 {
				v = ext[r.IntN(len(ext))]
			}
			bits = append(bits, uint64(v))
		}
	case graph.Float64, graph.Float32:
		rare := []uint64{0, 1 << 63, 0x7ff8000000000000, 0xfff8000000000000, 0x7ff0000000000001, 0xfff0000000000001, 0xfff00000000abcde, 0x7fffffffffffffff}
		rare32 := []uint64{0, 1 << 31, 0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001, 0xff80abcd, 0x7fffffff}
		other := []float64{math.Inf(1), math.Inf(-1), 5e-324, -5e-324, 1e-40, -1e-40, 2.2250738585072014e-308, -math.MaxFloat64, math.MaxFloat64, math.MaxFloat32}
		for range s.Size() {
			f := float64(r.IntN(41)-20) + 0.5
			rv := uint64(0)
			switch {
			case r.IntN(4*n) == 0:
				rv = 1 + uint64(r.IntN(len(rare)))
			case r.IntN(10) == 0:
				f = other[r.IntN(len(other))]
			}
			switch {
			case d == graph.Float64 && rv > 0:
				bits = append(bits, rare[rv-1])
			case d == graph.Float64:
				bits = append(bits, math.Float64bits(f))
			case rv > 0:
				bits = append(bits, rare32[rv-1])
			default:
				bits = append(bits, uint64(math.Float32bits(float32(f))))
			}
		}
	}
	if d.Size() == 4 {
		for i, b := range bits {
			exec.Elems[uint32](x)[i] = uint32(b)
		}
	} else {
		copy(exec.Elems[uint64](x), bits)
	}
	return x
}

// net64Layout builds the array whose rows are sorted from an input of
// shape, and names the sorted axis.
type net64Layout struct {
	name  string
	shape func(rows, n int) graph.Shape
	view  func(x *graph.Node) (*graph.Node, int)
}

var net64Layouts = []net64Layout{
	{"rows", func(rows, n int) graph.Shape { return graph.Shape{rows, n} }, func(x *graph.Node) (*graph.Node, int) { return x, 1 }},
	{"columns", func(rows, n int) graph.Shape { return graph.Shape{n, rows} }, func(x *graph.Node) (*graph.Node, int) { return x, 0 }},
	{"3d", func(rows, n int) graph.Shape { return graph.Shape{3, n, rows} }, func(x *graph.Node) (*graph.Node, int) { return x, 1 }},
	{"reversed columns", func(rows, n int) graph.Shape { return graph.Shape{n, rows} }, func(x *graph.Node) (*graph.Node, int) {
		return graph.Slice(x, []graph.Range{{Step: -1, NoStart: true, NoStop: true}, {Step: -1, NoStart: true, NoStop: true}}), 0
	}},
	{"stepped rows", func(rows, n int) graph.Shape { return graph.Shape{rows, 2 * n} }, func(x *graph.Node) (*graph.Node, int) {
		return graph.Slice(x, []graph.Range{graph.All, {Step: 2, NoStart: true, NoStop: true}}), 1
	}},
	{"transposed", func(rows, n int) graph.Shape { return graph.Shape{rows, n} }, func(x *graph.Node) (*graph.Node, int) {
		return graph.Permute(x, []int{1, 0}), 0
	}},
}

func TestNetworksMatchStableSort(t *testing.T) {
	// Every length to 256 and some longer ones up to the network's
	// longest (4096) and one past it; fewer with -short or the race
	// detector.
	var lengths []int
	for n := 2; n <= 256; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 257, 300, 511, 512, 513, 1000, 4095, 4096, 4097)
	others := []int{2, 3, 5, 8, 9, 16, 17, 31, 64, 100, 255, 256}
	if testing.Short() || cpu.RaceEnabled {
		lengths = []int{2, 3, 4, 5, 7, 8, 9, 16, 17, 33, 100, 256, 300, 4096, 4097}
		others = []int{2, 3, 9, 100}
	}
	before := cpu.NetRows64()
	for _, lay := range net64Layouts {
		ls := lengths
		if lay.name != "rows" && lay.name != "columns" {
			ls = others
		}
		for _, d := range []graph.DType{graph.Int64, graph.Float64, graph.Int32, graph.Float32} {
			for _, n := range ls {
				// Two blocks of 8 (16) and 3 (5) rows more.
				rows := 19
				if d.Size() == 4 {
					rows = 37
				}
				net64Check(t, lay, d, rows, n, n == 8 || n == 100)
			}
		}
	}
	t.Logf("network rows: %d", cpu.NetRows64()-before)
	if cpu.Net64On() && cpu.NetRows64() == before {
		t.Fatalf("network rows sorted got:0 want:some")
	}
}

// net64Check sorts rows×n elements of d laid out by lay (Sort, TopK
// values of all and of half of each row, ArgSort, TopK indices alone and
// with values), with every loop of the
// network and with vector loops off (the stable sorts), and requires
// the same bits; withRef compares the network's with the reference too.
func net64Check(t *testing.T, lay net64Layout, d graph.DType, rows, n int, withRef bool) {
	t.Helper()
	alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
	shape := lay.shape(rows, n)
	x := graph.Input(d, shape, "x")
	xt := net64Input(t, alloc, d, shape, n, uint64(n*len(lay.name)))
	v, ax := lay.view(x)
	all, _ := graph.TopK(v, ax, n)
	half, halfIdx := graph.TopK(v, ax, max(1, n/2))
	// Values alone (the networks), indices (the argsort network for
	// 4-byte keys), and values with indices (read back by index).
	reqs := [][]*graph.Node{{graph.Sort(v, ax)}, {all}, {half}, {graph.ArgSort(v, ax)}, {halfIdx}, {half, halfIdx}}
	bound := map[*graph.Node]*exec.Tensor{x: xt}
	be := cpu.New(cpu.Options{Workers: 2})
	wide := cpu.SetNet64Wide(false)
	cpu.SetNet64Wide(wide)
	loops := []bool{false}
	if wide {
		loops = []bool{true, false}
	}
	for oi, req := range reqs {
		what := fmt.Sprintf("%s %v rows %d n %d request %d", lay.name, d, rows, n, oi)
		was := cpu.SetVector(false)
		want := evalOn(t, be, req, bound, alloc, what)
		cpu.SetVector(was)
		for _, w := range loops {
			cpu.SetNet64Wide(w)
			got := evalOn(t, be, req, bound, alloc, what)
			cpu.SetNet64Wide(wide)
			for i := range want {
				if g, w2 := got[i].Buf.Bytes(), want[i].Buf.Bytes(); string(g) != string(w2) {
					es := want[i].DType.Size()
					for e := 0; e < len(w2); e += es {
						if string(g[e:e+es]) != string(w2[e:e+es]) {
							t.Fatalf("%s output %d, AVX-512 %v: element %d got:%x want:%x", what, i, w, e/es, g[e:e+es], w2[e:e+es])
						}
					}
				}
			}
			release(got)
		}
		release(want)
		if withRef {
			sameAsRef(t, be, req, bound, alloc, what)
		}
	}
	xt.Release()
	alloc.AssertSize(t, 0)
}
