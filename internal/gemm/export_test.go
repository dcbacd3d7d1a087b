// Test hooks: the kernel family and the block sizes of a product.

package gemm

import "math"

// SetKernel makes products run with o use the kernel family named
// (see Kernels).
func SetKernel[T Float](o *Options[T], name string) { o.kernel = name }

// SetSmallBlocks makes every product use tiny blocks (a few micro-tiles
// per block, a few steps per pass) so that small tests cross every block
// boundary of the loop nest; it returns the function that undoes it.
// Tests that call it must not run in parallel with others.
func SetSmallBlocks() (undo func()) {
	tuneBlocking = func(f *family) blocking {
		return blocking{kc: 7, ncs: 2 * f.nr, mcBig: 3 * f.mr, ncBig: 4 * f.nr}
	}
	return func() { tuneBlocking = nil }
}

// Paths names the ways a product reads its operands: packed, or in place
// (the strided kernels).
var Paths = []string{"packed", "inplace"}

// SetPath makes every product take the path named (see Paths); it
// returns the function that undoes it. Tests that call it must not run in
// parallel with others.
func SetPath(name string) (undo func()) {
	tuneDirect = -1
	if name == "inplace" {
		tuneDirect = 1
	}
	return func() { tuneDirect = 0 }
}

// SetSpinOff turns the team's spinning off (products start helpers of
// their own each call), as an oversubscribed machine does; it returns the
// function that turns it back on. Tests that call it must not run in
// parallel with others.
func SetSpinOff() (undo func()) {
	theTeam.noSpin.Store(math.MaxInt64)
	return func() { theTeam.noSpin.Store(0) }
}
