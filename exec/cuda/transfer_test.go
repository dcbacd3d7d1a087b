// Tests of transfers: staging-ring round trips through the fake's memcpy,
// direct DMA from pinned memory, strided views (covering range, strides
// kept), and the errors of foreign device buffers.

package cuda

import (
	"context"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

// hostF32 returns a contiguous float32 host tensor of shape s holding
// 0.5, 1.5, 2.5, ... allocated from alloc.
func hostF32(t testing.TB, alloc memory.Allocator, s ...int) *exec.Tensor {
	t.Helper()
	return hostTensor(t, alloc, graph.Float32, graph.Shape(s), func(i int) float32 { return float32(i) + 0.5 })
}

// logical returns the elements of view x in row-major order.
func logical(x *exec.Tensor) []float32 {
	all := exec.Elems[float32](x)
	var out []float32
	idx := make([]int, len(x.Shape))
	for range x.Size() {
		out = append(out, all[x.Index(idx)])
		for k := len(idx) - 1; k >= 0; k-- {
			idx[k]++
			if idx[k] < x.Shape[k] {
				break
			}
			idx[k] = 0
		}
	}
	return out
}

func TestStagingRoundTrip(t *testing.T) {
	_, b := fakeBackend(t, Options{StagingChunk: 4096})
	ctx := context.Background()
	mem := checkedAlloc(t, memory.DefaultAllocator)
	for _, n := range []int{1, 1023, 1024, 2048, 10000} { // below, at and over chunk multiples
		x := hostF32(t, mem, n)
		d := toDevice(t, b, x)
		require.True(t, d.OnDevice())
		back, err := b.ToHost(ctx, d, mem)
		require.NoError(t, err)
		require.Equal(t, logical(x), logical(back), "n=%d", n)
		x.Release()
		d.Release()
		back.Release()
	}
	st := b.Stats()
	require.Equal(t, int64(4*(1+1023+1024+2048+10000)), st.Uploaded)
	require.Equal(t, st.Uploaded, st.Downloaded)
}

func TestPinnedTransfersSkipTheRing(t *testing.T) {
	f, b := fakeBackend(t, Options{StagingChunk: 4096})
	ctx := context.Background()
	mem := checkedAlloc(t, b.HostAllocator())
	before := f.HostAllocs()
	x := hostF32(t, mem, 5000)
	d := toDevice(t, b, x)
	back, err := b.ToHost(ctx, d, mem)
	require.NoError(t, err)
	require.Equal(t, logical(x), logical(back))
	// Two pinned arrow buffers and no staging chunks.
	require.Equal(t, int64(2), f.HostAllocs()-before)
	x.Release()
	d.Release()
	back.Release()
}

func TestStridedViews(t *testing.T) {
	_, b := fakeBackend(t, Options{StagingChunk: 4096})
	ctx := context.Background()
	mem := checkedAlloc(t, memory.DefaultAllocator)
	base := hostF32(t, mem, 40, 60)
	defer base.Release()
	for _, c := range []struct {
		name    string
		shape   []int
		strides []int
		offset  int
	}{
		{"transpose", []int{60, 40}, []int{1, 60}, 0},
		{"reversed rows", []int{40, 60}, []int{-60, 1}, 39 * 60},
		{"inner slice", []int{10, 7}, []int{120, 3}, 605},
		{"broadcast", []int{5, 60}, []int{0, 1}, 60 * 20},
		{"scalar", nil, nil, 1234},
	} {
		v := base.View(graph.Shape(c.shape), c.strides, c.offset)
		d, err := b.ToDevice(ctx, v)
		require.NoError(t, err, c.name)
		require.Equal(t, c.strides, d.Strides, "%s: strides kept", c.name)
		lo, hi := v.Span()
		require.LessOrEqual(t, d.Dev.Len(), (hi-lo+1)*4+16, "%s: only the covering range moves", c.name)
		back, err := b.ToHost(ctx, d, mem)
		require.NoError(t, err, c.name)
		require.True(t, back.Contiguous())
		require.Equal(t, logical(v), logical(back), c.name)
		v.Release()
		d.Release()
		back.Release()
	}
}

func TestToHostOfHostTensorIsAView(t *testing.T) {
	_, b := fakeBackend(t, Options{})
	mem := checkedAlloc(t, memory.DefaultAllocator)
	x := hostF32(t, mem, 8)
	v, err := b.ToHost(context.Background(), x, mem)
	require.NoError(t, err)
	require.Same(t, x.Buf, v.Buf)
	x.Release()
	v.Release()
}

// otherDevice is a device buffer of some other backend.
type otherDevice struct{}

func (otherDevice) Retain()        {}
func (otherDevice) Release()       {}
func (otherDevice) Len() int       { return 64 }
func (otherDevice) Device() string { return "other:0" }

func TestForeignDeviceBuffer(t *testing.T) {
	_, b := fakeBackend(t, Options{})
	x := &exec.Tensor{Dev: otherDevice{}, Layout: graph.ContiguousLayout(graph.Float32, graph.Shape{4})}
	_, err := b.ToHost(context.Background(), x, nil)
	require.ErrorContains(t, err, "another backend's device memory")
	_, err = b.ToDevice(context.Background(), x)
	require.ErrorContains(t, err, "another backend's device memory")
	_, err = b.CopyDevice(context.Background(), x)
	require.ErrorContains(t, err, "cuda:0 cannot copy from other:0")
}

func TestGather(t *testing.T) {
	src := []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	for _, c := range []struct {
		shape, strides []int
		offset         int
		want           []byte
	}{
		{[]int{3, 4}, []int{4, 1}, 0, src},
		{[]int{4, 3}, []int{1, 4}, 0, []byte{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}},
		{[]int{2, 2}, []int{-4, -1}, 11, []byte{11, 10, 7, 6}},
		{nil, nil, 5, []byte{5}},
	} {
		got := make([]byte, len(c.want))
		gather(got, src, 1, c.shape, c.strides, c.offset)
		if string(got) != string(c.want) {
			t.Errorf("gather %v %v %d got:%v want:%v", c.shape, c.strides, c.offset, got, c.want)
		}
	}
}

// TestCopyDevice: a strided device view copied on the device keeps its
// values and layout in new memory of the same device; the source is
// untouched.
func TestCopyDevice(t *testing.T) {
	_, b := fakeBackend(t, Options{})
	ctx := context.Background()
	mem := checkedAlloc(t, memory.DefaultAllocator)
	h := hostI32(t, mem, 12, 1)
	defer h.Release()
	want := exec.Elems[int32](h)
	d := toDevice(t, b, h)
	defer d.Release()
	require.Equal(t, "cuda:0", d.Dev.Device())
	for _, c := range []struct {
		shape, strides []int
		offset         int
	}{
		{[]int{12}, []int{1}, 0},
		{[]int{3, 2}, []int{-4, 2}, 9},
		{[]int{0}, []int{1}, 0},
	} {
		v := d.View(c.shape, c.strides, c.offset)
		cp, err := b.CopyDevice(ctx, v)
		v.Release()
		require.NoError(t, err)
		require.NotSame(t, d.Dev, cp.Dev)
		require.Equal(t, "cuda:0", cp.Dev.Device())
		got, err := b.ToHost(ctx, cp, mem)
		cp.Release()
		require.NoError(t, err)
		var wantV []int32
		if len(c.shape) == 1 {
			for i := range c.shape[0] {
				wantV = append(wantV, want[c.offset+i*c.strides[0]])
			}
		} else {
			for i := range c.shape[0] {
				for j := range c.shape[1] {
					wantV = append(wantV, want[c.offset+i*c.strides[0]+j*c.strides[1]])
				}
			}
		}
		gotV := exec.Elems[int32](got)
		if fmt.Sprint(gotV) != fmt.Sprint(wantV) {
			t.Errorf("copy of %v %v %d got:%v want:%v", c.shape, c.strides, c.offset, gotV, wantV)
		}
		got.Release()
	}
	back, err := b.ToHost(ctx, d, mem)
	require.NoError(t, err)
	defer back.Release()
	require.Equal(t, want, exec.Elems[int32](back), "the source is untouched")
	_, err = b.CopyDevice(ctx, h)
	require.ErrorContains(t, err, "not in device memory")
}
