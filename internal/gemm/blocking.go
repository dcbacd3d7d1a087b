// Cache blocking: the sizes of the packed blocks, from the CPU's cache
// sizes (CPUID through klauspost/cpuid) with defaults where it tells
// nothing.
//
// The loop nest (see driver.go) keeps an MR×KC micro-panel of A in L1
// for a whole row of micro-tiles, a KC×NCs block of B in L2 for all the
// micro-panels of A of a task, and the packed A (MCbig×KC) and B
// (KC×NCbig) shared by all workers in L3.

package gemm

import "github.com/klauspost/cpuid/v2"

// caches holds the data cache sizes in bytes: L1 and L2 per core, L3 as
// seen by one core (shared).
type caches struct{ l1, l2, l3 int }

var cpuCaches = func() caches {
	c := caches{l1: 32 << 10, l2: 512 << 10, l3: 8 << 20}
	if v := cpuid.CPU.Cache.L1D; v >= 16<<10 {
		c.l1 = v
	}
	if v := cpuid.CPU.Cache.L2; v >= 128<<10 {
		c.l2 = v
	}
	if v := cpuid.CPU.Cache.L3; v >= 1<<20 {
		c.l3 = v
	}
	return c
}()

// blocking is the block sizes of one product.
type blocking struct {
	kc    int // depth of a packed block (K per pass)
	ncs   int // columns of a task's block of B (multiple of NR)
	mcBig int // rows of the shared packed A (multiple of MR)
	ncBig int // columns of the shared packed B (multiple of NR)
}

// blockingFor returns the block sizes for family f with elements of size
// bytes on caches c. They depend on the CPU and the kernel only, never on
// the product or the worker count: KC fixes the order in which each
// element's products are summed.
func blockingFor(f *family, size int, c caches) blocking {
	// The A micro-panel takes three quarters of L1, the rest streams B
	// (a deeper pass reads and writes C fewer times; measured on Zen 4,
	// 3/4 beats 1/2 by 5-10% in float64).
	kc := c.l1 * 3 / 4 / (f.mr * size)
	kc = min(512, max(64, kc&^7))
	// A task's B block takes three quarters of L2.
	ncs := c.l2 * 3 / 4 / (kc * size)
	ncs = max(f.nr, ncs/f.nr*f.nr)
	// The shared blocks take about half of L3 together.
	big := c.l3 / 4 / (kc * size)
	return blocking{
		kc:    kc,
		ncs:   ncs,
		mcBig: max(f.mr*8, big/f.mr*f.mr),
		ncBig: max(ncs, big/ncs*ncs),
	}
}
