// This file runs every test kernel's PTX (with line info) on the PTX
// simulator, internal/ptxsim, with the inputs of its agreement case, and
// compares what it writes with the native run of the Go function on the
// CPU device: the third way of agree_test.go. A kernel that fails a check
// must trap in the simulator with the check's code in the check word, at
// the same source line as the native failure, and the simulator's fault
// must name that line from the PTX's .loc directives.

package gokernel_test

import (
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/fuseflow/fuseflow/codegen/gokernel"
	"github.com/fuseflow/fuseflow/codegen/ptx"
	"github.com/fuseflow/fuseflow/internal/ptxsim"
	"github.com/fuseflow/fuseflow/kernel"
	"github.com/stretchr/testify/require"
)

// simulate runs the PTX of kernel c.name on the simulator with args
// (updated in place) and returns the check code a failed check stored,
// and the launch's error.
func simulate(t *testing.T, c agreeCase, args []any) (uint32, error) {
	t.Helper()
	k := compiled(t, c.name)
	text, err := k.PTX(ptx.Options{LineInfo: true})
	require.NoError(t, err)
	m, err := ptxsim.Parse(text)
	require.NoError(t, err, "parse of %s", c.name)
	sk, err := m.Kernel(k.Func.Name)
	require.NoError(t, err)
	var params []uint64
	var global []ptxsim.Region
	addr := uint64(0x10000)
	for i, p := range k.Params {
		a := reflect.ValueOf(args[i])
		if !p.Slice {
			switch {
			case a.Kind() == reflect.Bool:
				params = append(params, map[bool]uint64{false: 0, true: 1}[a.Bool()])
			case a.CanInt():
				params = append(params, uint64(a.Int()))
			case a.CanUint():
				params = append(params, a.Uint())
			case a.Kind() == reflect.Float32:
				params = append(params, uint64(math.Float32bits(float32(a.Float()))))
			default:
				params = append(params, math.Float64bits(a.Float()))
			}
			continue
		}
		data := append(gokernel.HostBytes(a), 0) // +1: a region for an empty slice
		global = append(global, ptxsim.Region{Name: p.Name, Addr: addr, Data: data, ReadOnly: !p.Written})
		params = append(params, addr, uint64(a.Len()))
		addr += (uint64(len(data)) + 255) &^ 255
	}
	var word []byte
	if len(k.Checks) > 0 {
		word = make([]byte, 4)
		global = append(global, ptxsim.Region{Name: "check word", Addr: addr, Data: word})
		params = append(params, addr)
	}
	dim := func(d kernel.Dim3) [3]int { return [3]int{d.X, d.Y, d.Z} }
	_, err = sk.Run(ptxsim.Config{Grid: dim(c.cfg.Grid), Block: dim(c.cfg.Block), DynamicSharedBytes: c.cfg.SharedBytes,
		Params: params, Global: global})
	j := 0
	for i, p := range k.Params {
		if p.Slice {
			if p.Written {
				gokernel.ReadHost(reflect.ValueOf(args[i]), global[j].Data)
			}
			j++
		}
	}
	code := uint32(0)
	if word != nil {
		code = binary.LittleEndian.Uint32(word)
	}
	return code, err
}

// mathULP is the error allowed in the results of the math kernels: the
// PTX computes math functions with codegen/mathlib (within 2 ulp of Go's
// math package on its sampled inputs, ULP.md), where the native run calls
// Go's math and the IR interpreter agrees with it bit for bit; Go's own
// math.Pow is several ulp off on some inputs (Pow(1e-8, 1.5) is 4 ulp
// below 1e-12, which mathlib returns) and math.Log2 just above 1 loses
// relative precision, hence the margins (see withinULP). The accuracy of
// mathlib itself is the business of its own tests.
var mathULP = map[string]int64{"Math32": 16, "Math64": 16}

// withinULP reports whether two floats are at most n units in the last
// place apart.
func withinULP(a, b reflect.Value, n int64) bool {
	var d int64
	switch a.Kind() {
	case reflect.Float32:
		d = int64(int32(math.Float32bits(float32(a.Float())))) - int64(int32(math.Float32bits(float32(b.Float()))))
	case reflect.Float64:
		x, y := int64(math.Float64bits(a.Float())), int64(math.Float64bits(b.Float()))
		if (x < 0) != (y < 0) {
			return a.Float() == b.Float()
		}
		d = x - y
	default:
		return false
	}
	if d >= -n && d <= n {
		return true
	}
	// Near a function's zero (log2 just above 1) Go's math loses
	// relative precision: allow 1e-13 relative for float64.
	x, y := a.Float(), b.Float()
	return a.Kind() == reflect.Float64 && math.Abs(x-y) <= 1e-13*math.Max(math.Abs(x), math.Abs(y))
}

// TestNativeAndSimulatorAgree runs every agreement case natively and on
// the PTX simulator.
func TestNativeAndSimulatorAgree(t *testing.T) {
	for _, c := range agreeCases() {
		t.Run(c.name, func(t *testing.T) {
			k := compiled(t, c.name)
			in := c.args(rand.New(rand.NewPCG(7, uint64(len(c.name)))))
			native, sim := cloneArgs(in), cloneArgs(in)
			nerr := c.handle.Launch(c.cfg, native...)
			code, serr := simulate(t, c, sim)
			if c.fails != "" {
				var ne *kernel.LaunchError
				require.True(t, errors.As(nerr, &ne), "native: %v", nerr)
				var se *ptxsim.Error
				require.True(t, errors.As(serr, &se), "simulator: %v", serr)
				require.Equal(t, ptxsim.FaultTrap, se.Kind, "simulator: %v", serr)
				require.True(t, code > 0 && int(code) <= len(k.Checks), "check code %d of %d", code, len(k.Checks))
				pos, what, _ := strings.Cut(k.Checks[code-1], ": ")
				require.Contains(t, what, c.fails)
				require.Equal(t, lineOf(ne.Pos), lineOf(pos), "native %v, simulator check %s", nerr, k.Checks[code-1])
				require.Equal(t, lineOf(pos), se.Source, "the fault's source line: %v", serr)
				return
			}
			require.NoError(t, nerr, "native run of %s", c.name)
			require.NoError(t, serr, "simulated run of %s", c.name)
			compareWritten(t, c, k, in, native, sim, "simulator", func(a, b reflect.Value) bool {
				return sameBits(a, b) || withinULP(a, b, mathULP[c.name])
			})
		})
	}
}
