// This file implements the emitter's options and their defaults.

package ptx

import (
	"fmt"

	"github.com/fuseflow/fuseflow/codegen/ir"
)

// DefaultArch is the architecture targeted when Options.Arch is zero.
var DefaultArch = Capability{8, 0}

// DefaultCUDA is the CUDA release assumed when Options.CUDA is zero: 11.8,
// whose ptxas and drivers accept PTX ISA 7.8.
var DefaultCUDA = Version{11, 8}

// Options control code generation. The zero Options target sm_80 with PTX
// ISA 7.8, accurate math and no debug comments.
type Options struct {
	// Arch is the target's compute capability (.target sm_XY); zero means
	// DefaultArch.
	Arch Capability
	// CUDA is the release of the driver or ptxas that compiles the PTX; it
	// chooses the .version (see ISAVersion). Zero means DefaultCUDA.
	CUDA Version
	// PTX, when set, is the .version to write instead of the one CUDA
	// gives; it must still be new enough for Arch.
	PTX Version
	// AddressSize is the .address_size; 0 and 64 are accepted (64-bit
	// addressing is the only one supported).
	AddressSize int
	// FastMath allows approximations: f32 division becomes div.full.f32,
	// f32 add, sub and mul may be contracted into fma by ptxas, and f32
	// math calls with a PTX approximation use it (ex2.approx, lg2.approx,
	// sin.approx, cos.approx, tanh.approx on sm_75+, rsqrt.approx,
	// sqrt.approx). f64 math keeps the accurate path.
	FastMath bool
	// Debug writes each IR instruction as a comment above its PTX.
	Debug bool
	// LineInfo writes the source positions of the instructions
	// (ir.Instr.Pos) as .file and .loc directives, the line table that
	// profilers and the driver's error reports use (nvcc -lineinfo).
	LineInfo bool
	// ExpandMath rewrites, in place, every non-approximate math call that
	// PTX cannot do in one correctly rounded instruction into plain IR (the
	// math library's expansion). It runs on the legalized copy, never on
	// the caller's function. Nil means no expansion: a kernel that still
	// needs one is an error naming the kernel and the function.
	ExpandMath func(*ir.Func) error
}

// target is the resolved form of Options used while emitting.
type target struct {
	arch Capability
	isa  Version
	opts Options
}

// resolve applies the defaults and checks the options.
func (o Options) resolve() (target, error) {
	t := target{arch: o.Arch, opts: o}
	if t.arch == (Capability{}) {
		t.arch = DefaultArch
	}
	if o.AddressSize != 0 && o.AddressSize != 64 {
		return t, fmt.Errorf("ptx: address size %d is not supported (64 only)", o.AddressSize)
	}
	cuda := o.CUDA
	if cuda.IsZero() {
		cuda = DefaultCUDA
	}
	if !o.PTX.IsZero() {
		need, err := MinISA(t.arch)
		if err != nil {
			return t, err
		}
		if o.PTX.less(need) {
			return t, fmt.Errorf("ptx: %s needs PTX ISA %s or newer, Options.PTX is %s", t.arch, need, o.PTX)
		}
		t.isa = o.PTX
		return t, nil
	}
	isa, err := ISAVersion(t.arch, cuda)
	if err != nil {
		return t, err
	}
	t.isa = isa
	return t, nil
}
