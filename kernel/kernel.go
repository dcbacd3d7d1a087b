// This file implements Kernel, the handle kernelgen generates for each
// kernel: launches with an explicit geometry (Launch) or one chosen for
// n tasks (ForAll), with arguments checked against the recorded
// parameters.

package kernel

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"strings"
)

// Kernel is a compiled kernel: the Go function and its PTX. kernelgen
// generates one per //fuseflow:kernel function (var SaxpyKernel =
// kernel.MustFromFS(kernel.Bind3(Saxpy), saxpyPTX, "saxpy_Saxpy.ptx")).
// It is immutable and safe for concurrent launches.
type Kernel struct {
	spec Spec
}

// New returns the kernel of spec, with Entry, Target and PTXVersion
// filled in where empty (see Spec). The generated files call it; spec
// must not be modified afterwards.
func New(spec Spec) *Kernel {
	if spec.Entry == "" {
		spec.Entry = spec.Name
	}
	if spec.Target == "" {
		spec.Target = ptxDirective(spec.PTX, ".target")
	}
	if spec.PTXVersion == "" {
		spec.PTXVersion = ptxDirective(spec.PTX, ".version")
	}
	return &Kernel{spec: spec}
}

// ptxDirective returns the first word after the directive dir (".target")
// at the start of a line of the PTX text, or "" where there is none.
func ptxDirective(text, dir string) string {
	for line := range strings.Lines(text) {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), dir+" "); ok {
			if f := strings.FieldsFunc(rest, func(r rune) bool { return r == ' ' || r == '\t' || r == ',' }); len(f) > 0 {
				return f[0]
			}
		}
	}
	return ""
}

// Name returns the Go function's name.
func (k *Kernel) Name() string { return k.spec.Name }

// Spec returns what kernelgen recorded about the kernel. The slices are
// the kernel's own: do not modify them.
func (k *Kernel) Spec() Spec { return k.spec }

// Params returns the parameters after the Thread (do not modify).
func (k *Kernel) Params() []Param { return k.spec.Params }

// Launch runs the kernel with cfg over args, one per parameter after the
// Thread, and waits for it; see LaunchContext.
func (k *Kernel) Launch(cfg Config, args ...any) error {
	return k.LaunchContext(context.Background(), cfg, args...)
}

// LaunchContext runs the kernel with cfg over args on cfg.Device (nil:
// DefaultDevice) and waits for it. A scalar parameter takes a Go number
// (or bool) that its type holds: integers that fit, and for float
// parameters any integer or float (rounded to float32 for float32). A
// slice parameter takes a host slice of exactly its element type (the
// CPU uses it in place; a kernel writes it directly) or a device Array of
// that type on the launch's device. A bad geometry or argument is an
// error naming the kernel and the parameter; a kernel that fails while
// running returns a *LaunchError naming the block and thread.
func (k *Kernel) LaunchContext(ctx context.Context, cfg Config, args ...any) error {
	cfg, err := cfg.check(k.spec.Name)
	if err != nil {
		return err
	}
	checked, err := k.checkArgs(cfg.Device, args)
	if err != nil {
		return err
	}
	return cfg.Device.Launch(ctx, k, cfg, checked)
}

// ForAll runs the kernel over n tasks, one thread per task: blocks of
// the device's preferred size (Device.BlockSize) and enough of them to
// cover n (Numba's kernel.forall(n)). The kernel must check its index
// against n itself. n = 0 launches nothing.
func (k *Kernel) ForAll(n int, args ...any) error {
	return k.ForAllContext(context.Background(), n, args...)
}

// ForAllContext is ForAll on the default device with a context.
func (k *Kernel) ForAllContext(ctx context.Context, n int, args ...any) error {
	cfg, err := k.ForAllConfig(DefaultDevice(), n)
	if err != nil || n == 0 {
		return err
	}
	return k.LaunchContext(ctx, cfg, args...)
}

// ForAllConfig returns the Config ForAll uses for n tasks on device d.
func (k *Kernel) ForAllConfig(d Device, n int) (Config, error) {
	if n < 0 {
		return Config{}, fmt.Errorf("kernel %s: ForAll of %d tasks", k.spec.Name, n)
	}
	bs := max(1, min(d.BlockSize(k, 0), MaxThreadsPerBlock))
	blocks := max(1, (n+bs-1)/bs)
	if blocks > maxGridX {
		return Config{}, fmt.Errorf("kernel %s: ForAll of %d tasks needs %d blocks, at most %d", k.spec.Name, n, blocks, maxGridX)
	}
	return Config{Grid: D1(blocks), Block: D1(bs), Device: d}, nil
}

// signature returns the parameter list "(a float32, x []float32)".
func (k *Kernel) signature() string {
	parts := make([]string, len(k.spec.Params))
	for i, p := range k.spec.Params {
		parts[i] = p.String()
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// deviceArray is what device arrays (Array) implement.
type deviceArray interface{ Buffer() Buffer }

// checkArgs checks args against the parameters for a launch on d.
func (k *Kernel) checkArgs(d Device, args []any) ([]Arg, error) {
	ps := k.spec.Params
	if len(args) != len(ps) {
		return nil, fmt.Errorf("kernel %s: %d arguments for the %d parameters %s", k.spec.Name, len(args), len(ps), k.signature())
	}
	out := make([]Arg, len(ps))
	for i := range ps {
		p := &ps[i]
		a, err := checkArg(p, d, args[i])
		if err != nil {
			return nil, fmt.Errorf("kernel %s: argument %d for parameter %s: %w", k.spec.Name, i+1, p, err)
		}
		out[i] = a
	}
	return out, nil
}

// checkArg checks one argument.
func checkArg(p *Param, d Device, v any) (Arg, error) {
	a := Arg{Param: p}
	if !p.Slice {
		x, err := convertScalar(p.Type, v)
		a.Value = x
		return a, err
	}
	if da, ok := v.(deviceArray); ok {
		buf := da.Buffer()
		switch {
		case buf == nil:
			return a, fmt.Errorf("the device array was freed")
		case buf.Type() != p.Type:
			return a, fmt.Errorf("got a device array of %s", buf.Type())
		case buf.Device() != d:
			return a, fmt.Errorf("the device array is on %s, the launch on %s (copy it to the host, or launch on its device)", buf.Device().Name(), d.Name())
		}
		a.Buffer, a.Len = buf, buf.Len()
		return a, nil
	}
	want := reflect.SliceOf(p.Type.goType())
	if v == nil {
		a.Value = reflect.MakeSlice(want, 0, 0).Interface()
		return a, nil
	}
	rv := reflect.ValueOf(v)
	if rv.Type() != want {
		return a, fmt.Errorf("got %T, want %s or a device array of %s", v, want, p.Type)
	}
	n := rv.Len()
	a.Value = rv.Slice3(0, n, n).Interface()
	a.Len = n
	return a, nil
}

// convertScalar converts v to the Go type of t (see LaunchContext).
func convertScalar(t Type, v any) (any, error) {
	if v == nil {
		return nil, fmt.Errorf("got nil, want a %s", t)
	}
	rv := reflect.ValueOf(v)
	k := rv.Kind()
	switch {
	case t == Bool:
		if k != reflect.Bool {
			return nil, fmt.Errorf("got %T, want a bool", v)
		}
		return rv.Bool(), nil
	case t.IsInteger():
		gt := t.goType()
		unsigned := t == Uint32 || t == Uint64
		switch {
		case rv.CanInt():
			x := rv.Int()
			if unsigned && (x < 0 || reflect.Zero(gt).OverflowUint(uint64(x))) || !unsigned && reflect.Zero(gt).OverflowInt(x) {
				return nil, fmt.Errorf("%d does not fit %s", x, t)
			}
			return reflect.ValueOf(x).Convert(gt).Interface(), nil
		case rv.CanUint():
			x := rv.Uint()
			if unsigned && reflect.Zero(gt).OverflowUint(x) || !unsigned && (x > math.MaxInt64 || reflect.Zero(gt).OverflowInt(int64(x))) {
				return nil, fmt.Errorf("%d does not fit %s", x, t)
			}
			return reflect.ValueOf(x).Convert(gt).Interface(), nil
		}
		return nil, fmt.Errorf("got %T, want an integer that fits %s", v, t)
	case t.IsFloat():
		var x float64
		switch {
		case rv.CanFloat():
			x = rv.Float()
		case rv.CanInt():
			x = float64(rv.Int())
		case rv.CanUint():
			x = float64(rv.Uint())
		default:
			return nil, fmt.Errorf("got %T, want a number", v)
		}
		if t == Float32 {
			return float32(x), nil
		}
		return x, nil
	}
	return nil, fmt.Errorf("parameter type %s is not supported", t)
}
