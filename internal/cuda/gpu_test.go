// Tests and a benchmark against the real driver, run only with
// FUSEFLOW_DEVICE=cuda (or cuda:N) on a machine with an NVIDIA GPU:
//
//	FUSEFLOW_DEVICE=cuda go test -run GPU -bench GPU ./internal/cuda/

package cuda

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/internal/config"
)

// gpuVectorAddPTX is c[i] = a[i] + b[i] over int32 for i < n.
const gpuVectorAddPTX = `.version 7.0
.target sm_70
.address_size 64

.visible .entry vadd(
	.param .u64 pa,
	.param .u64 pb,
	.param .u64 pc,
	.param .u32 n
)
{
	.reg .pred %p<2>;
	.reg .b32 %r<9>;
	.reg .b64 %rd<11>;

	ld.param.u64 %rd1, [pa];
	ld.param.u64 %rd2, [pb];
	ld.param.u64 %rd3, [pc];
	ld.param.u32 %r1, [n];
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mov.u32 %r4, %tid.x;
	mad.lo.s32 %r5, %r2, %r3, %r4;
	setp.ge.u32 %p1, %r5, %r1;
	@%p1 bra DONE;
	cvta.to.global.u64 %rd4, %rd1;
	cvta.to.global.u64 %rd5, %rd2;
	cvta.to.global.u64 %rd6, %rd3;
	mul.wide.u32 %rd7, %r5, 4;
	add.s64 %rd8, %rd4, %rd7;
	add.s64 %rd9, %rd5, %rd7;
	add.s64 %rd10, %rd6, %rd7;
	ld.global.u32 %r6, [%rd8];
	ld.global.u32 %r7, [%rd9];
	add.s32 %r8, %r6, %r7;
	st.global.u32 [%rd10], %r8;
DONE:
	ret;
}
`

// gpuContext opens the real driver and retains the primary context of the
// device FUSEFLOW_DEVICE names, or skips the test.
func gpuContext(t testing.TB) *Context {
	t.Helper()
	dev := config.Value(config.Device)
	if !strings.HasPrefix(dev, "cuda") {
		t.Skip("set FUSEFLOW_DEVICE=cuda to run against the real driver")
	}
	ordinal := 0
	if rest, ok := strings.CutPrefix(dev, "cuda:"); ok {
		n, err := strconv.Atoi(rest)
		require.NoError(t, err, "FUSEFLOW_DEVICE=%s", dev)
		ordinal = n
	}
	d, err := Open(DefaultLibrary)
	require.NoError(t, err)
	h, err := d.DeviceGet(ordinal)
	require.NoError(t, err)
	ctx, err := d.RetainPrimaryContext(h)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, ctx.Release()) })
	return ctx
}

func TestGPUDriver(t *testing.T) {
	ctx := gpuContext(t)
	d := ctx.Driver()
	v, err := d.Version()
	require.NoError(t, err)
	dev, err := d.Describe(0)
	require.NoError(t, err)
	t.Logf("driver %s, device %v", VersionString(v), dev)
	require.Positive(t, dev.SMs)
	require.Equal(t, 32, dev.WarpSize)

	m, info, err := ctx.LoadModule(gpuVectorAddPTX, JITOptions{})
	require.NoError(t, err)
	t.Logf("JIT %v: %s", info.WallTime, info.Log)
	defer func() { require.NoError(t, ctx.ModuleUnload(m)) }()
	fn, err := ctx.ModuleFunction(m, "vadd")
	require.NoError(t, err)
	regs, err := ctx.FuncAttribute(fn, FuncNumRegs)
	require.NoError(t, err)
	blocks, err := ctx.MaxActiveBlocksPerSM(fn, 256, 0)
	require.NoError(t, err)
	t.Logf("vadd: %d registers, %d blocks of 256 per SM", regs, blocks)

	const n = 1 << 20
	a, b := make([]int32, n), make([]int32, n)
	for i := range a {
		a[i], b[i] = int32(i), int32(3*i+1)
	}
	var p [3]DevicePtr
	for i := range p {
		p[i], err = ctx.MemAlloc(4 * n)
		require.NoError(t, err)
	}
	s, err := ctx.StreamCreate(StreamNonBlocking)
	require.NoError(t, err)
	start, err := ctx.EventCreate(EventDefault)
	require.NoError(t, err)
	end, err := ctx.EventCreate(EventDefault)
	require.NoError(t, err)
	require.NoError(t, ctx.MemcpyHtoDAsync(p[0], hostPtr(a), 4*n, s))
	require.NoError(t, ctx.MemcpyHtoDAsync(p[1], hostPtr(b), 4*n, s))
	require.NoError(t, ctx.MemsetD32Async(p[2], 0xffffffff, n, s))
	args := NewArgs(ArgPtr, ArgPtr, ArgPtr, ArgU32)
	args.SetPtr(0, p[0])
	args.SetPtr(1, p[1])
	args.SetPtr(2, p[2])
	args.SetU32(3, n)
	require.NoError(t, ctx.EventRecord(start, s))
	require.NoError(t, ctx.Launch(fn, Dim3{X: n / 256}, Dim3{X: 256}, 0, s, args))
	require.NoError(t, ctx.EventRecord(end, s))
	c := make([]int32, n)
	require.NoError(t, ctx.MemcpyDtoHAsync(hostPtr(c), p[2], 4*n, s))
	require.NoError(t, ctx.StreamSynchronize(s))
	for i := range c {
		if c[i] != a[i]+b[i] {
			t.Fatalf("vadd c[%d] got:%v want:%v", i, c[i], a[i]+b[i])
		}
	}
	el, err := ctx.EventElapsed(start, end)
	require.NoError(t, err)
	require.Greater(t, el, time.Duration(0))
	t.Logf("vadd over %d int32: %v", n, el)

	free, total, err := ctx.MemGetInfo()
	require.NoError(t, err)
	_, err = ctx.MemAlloc(total + 1<<30)
	require.True(t, IsOutOfMemory(err), "got:%v (free %d of %d)", err, free, total)
	t.Log(err)

	_, _, err = ctx.LoadModule(strings.Replace(gpuVectorAddPTX, "add.s32 %r8", "add.s32 %r99", 1), JITOptions{})
	require.True(t, IsResult(err, ResultInvalidPTX), "got:%v", err)
	require.Contains(t, err.(*Error).Log, "ptxas")
	t.Log(err)

	for _, x := range p {
		require.NoError(t, ctx.MemFree(x))
	}
	require.NoError(t, ctx.EventDestroy(start))
	require.NoError(t, ctx.EventDestroy(end))
	require.NoError(t, ctx.StreamDestroy(s))
}

// BenchmarkGPULaunch measures the host time of Launch of an empty grid
// against a raw cuLaunchKernel on a thread where the context is current.
func BenchmarkGPULaunch(b *testing.B) {
	ctx := gpuContext(b)
	m, _, err := ctx.LoadModule(gpuVectorAddPTX, JITOptions{})
	require.NoError(b, err)
	defer ctx.ModuleUnload(m)
	fn, err := ctx.ModuleFunction(m, "vadd")
	require.NoError(b, err)
	s, err := ctx.StreamCreate(StreamNonBlocking)
	require.NoError(b, err)
	defer ctx.StreamDestroy(s)
	args := NewArgs(ArgPtr, ArgPtr, ArgPtr, ArgU32) // n = 0: nothing runs
	b.Run("Launch", func(b *testing.B) {
		b.ReportAllocs()
		for i := range b.N {
			if err := ctx.Launch(fn, Dim3{X: 1}, Dim3{X: 256}, 0, s, args); err != nil {
				b.Fatal(err)
			}
			if i%1024 == 1023 {
				if err := ctx.StreamSynchronize(s); err != nil {
					b.Fatal(err)
				}
			}
		}
		require.NoError(b, ctx.StreamSynchronize(s))
	})
	b.Run("Raw", func(b *testing.B) {
		b.ReportAllocs()
		require.NoError(b, ctx.Do(func() error {
			params := args.pinParams()
			defer args.unpin()
			for i := range b.N {
				if r := ctx.d.call(fnLaunchKernel, uintptr(fn), 1, 1, 1, 256, 1, 1, 0, uintptr(s), uintptr(params), 0); r != ResultSuccess {
					b.Fatal(r)
				}
				if i%1024 == 1023 {
					if r := ctx.d.call(fnStreamSynchronize, uintptr(s)); r != ResultSuccess {
						b.Fatal(r)
					}
				}
			}
			return nil
		}))
		require.NoError(b, ctx.StreamSynchronize(s))
	})
}
