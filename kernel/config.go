// This file implements Config, the geometry of a launch, and its checks
// against the limits every CUDA device shares.

package kernel

import (
	"fmt"
	"math"
)

// Config is how a kernel is launched: the grid in blocks and the block in
// threads (1-D, 2-D or 3-D; a zero component means 1), the bytes of
// dynamic shared memory of each block (DynShared), the stream (reserved)
// and the device (nil: DefaultDevice).
type Config struct {
	Grid, Block Dim3
	SharedBytes int
	Stream      Stream
	Device      Device
}

// Launch1D returns the Config of a 1-D launch of blocks blocks of threads
// threads, Numba's kernel[blocks, threads].
func Launch1D(blocks, threads int) Config { return Config{Grid: D1(blocks), Block: D1(threads)} }

// Limits every CUDA device shares.
const (
	MaxThreadsPerBlock = 1024
	maxBlockX          = 1024
	maxBlockY          = 1024
	maxBlockZ          = 64
	maxGridX           = math.MaxInt32
	maxGridYZ          = 65535
)

// check returns cfg normalized (zero components 1, Device set) or an error
// naming the kernel and the bad value.
func (cfg Config) check(name string) (Config, error) {
	g, b := cfg.Grid.norm(), cfg.Block.norm()
	for _, d := range []struct {
		what string
		v    Dim3
	}{{"grid", g}, {"block", b}} {
		if d.v.X < 0 || d.v.Y < 0 || d.v.Z < 0 {
			return cfg, fmt.Errorf("kernel %s: %s %v has a negative dimension", name, d.what, d.v)
		}
	}
	switch {
	case b.X > maxBlockX || b.Y > maxBlockY || b.Z > maxBlockZ:
		return cfg, fmt.Errorf("kernel %s: block %v exceeds the largest block (%d,%d,%d)", name, b, maxBlockX, maxBlockY, maxBlockZ)
	case b.count() > MaxThreadsPerBlock:
		return cfg, fmt.Errorf("kernel %s: block %v has %d threads, at most %d", name, b, b.count(), MaxThreadsPerBlock)
	case g.X > maxGridX || g.Y > maxGridYZ || g.Z > maxGridYZ:
		return cfg, fmt.Errorf("kernel %s: grid %v exceeds the largest grid (%d,%d,%d)", name, g, maxGridX, maxGridYZ, maxGridYZ)
	case cfg.SharedBytes < 0 || cfg.SharedBytes > math.MaxInt32:
		return cfg, fmt.Errorf("kernel %s: %d bytes of dynamic shared memory", name, cfg.SharedBytes)
	}
	cfg.Grid, cfg.Block = g, b
	if cfg.Device == nil {
		cfg.Device = DefaultDevice()
	}
	if cfg.Stream != nil && cfg.Stream.Device() != cfg.Device {
		return cfg, fmt.Errorf("kernel %s: the stream belongs to device %s, the launch is on %s", name, cfg.Stream.Device().Name(), cfg.Device.Name())
	}
	return cfg, nil
}

// CheckConfig returns cfg as a launch of k would use it (zero components
// 1, Device the default when nil), or the error such a launch returns for
// a geometry outside the limits every CUDA device shares, naming the
// kernel. It checks nothing about arguments.
func (k *Kernel) CheckConfig(cfg Config) (Config, error) { return cfg.check(k.spec.Name) }
