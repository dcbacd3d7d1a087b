// Tests of concurrent use of one Context from many goroutines (run with
// -race): each goroutine allocates, copies, launches and checks its own
// results while the others do the same.

package cuda

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestConcurrentUse(t *testing.T) {
	f, ctx := fakeContext(t)
	add := loadFake(t, ctx, "fake_add")[0]
	before := f.MemUsed()
	launches := f.LaunchCount()
	const workers, rounds = 16, 25
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := concurrentWorker(ctx, add, w, rounds); err != nil {
				errs <- fmt.Errorf("worker %d: %w", w, err)
			}
		}()
	}
	// Device queries run beside the workers.
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range rounds {
			if _, err := ctx.Driver().Describe(0); err != nil {
				errs <- err
				return
			}
		}
	}()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	require.Equal(t, before, f.MemUsed(), "device memory left allocated")
	require.Equal(t, launches+workers*rounds, f.LaunchCount())
}

// concurrentWorker runs rounds of c = a + b on its own stream with its own
// Args and checks every result.
func concurrentWorker(ctx *Context, add Function, seed, rounds int) error {
	rng := rand.New(rand.NewPCG(uint64(seed), 7))
	s, err := ctx.StreamCreate(StreamNonBlocking)
	if err != nil {
		return err
	}
	defer ctx.StreamDestroy(s)
	args := NewArgs(ArgPtr, ArgPtr, ArgPtr, ArgU32)
	for round := range rounds {
		n := 1 + rng.IntN(4096)
		a := make([]int32, n)
		b := make([]int32, n)
		for i := range a {
			a[i], b[i] = rng.Int32N(1<<20), rng.Int32N(1<<20)
		}
		var ptrs [3]DevicePtr
		for i := range ptrs {
			if ptrs[i], err = ctx.MemAlloc(uint64(4 * n)); err != nil {
				return err
			}
		}
		if err := ctx.MemcpyHtoDAsync(ptrs[0], hostPtr(a), uint64(4*n), s); err != nil {
			return err
		}
		if err := ctx.MemcpyHtoDAsync(ptrs[1], hostPtr(b), uint64(4*n), s); err != nil {
			return err
		}
		for i, p := range ptrs {
			args.SetPtr(i, p)
		}
		args.SetU32(3, uint32(n))
		if err := ctx.Launch(add, Dim3{X: uint32(n+127) / 128}, Dim3{X: 128}, 0, s, args); err != nil {
			return err
		}
		c := make([]int32, n)
		if err := ctx.MemcpyDtoHAsync(hostPtr(c), ptrs[2], uint64(4*n), s); err != nil {
			return err
		}
		if err := ctx.StreamSynchronize(s); err != nil {
			return err
		}
		for i := range c {
			if c[i] != a[i]+b[i] {
				return fmt.Errorf("round %d: c[%d] got:%v want:%v", round, i, c[i], a[i]+b[i])
			}
		}
		for _, p := range ptrs {
			if err := ctx.MemFree(p); err != nil {
				return err
			}
		}
	}
	return nil
}
