// Tests of the memory bounds the guard reads: /proc/meminfo, cgroup v1
// and v2 limits over fake file systems laid out as on real machines and
// containers, RLIMIT_AS, and a subprocess run under a real address-space
// limit.

package exec_test

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	fexec "github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

const gib = int64(1) << 30

// files builds a fake file system rooted at / from path: contents pairs.
func files(kv ...string) fstest.MapFS {
	m := fstest.MapFS{}
	for i := 0; i < len(kv); i += 2 {
		m[strings.TrimPrefix(kv[i], "/")] = &fstest.MapFile{Data: []byte(kv[i+1])}
	}
	return m
}

const (
	meminfo16G  = "MemTotal: 16777216 kB\nMemFree: 1000 kB\nSwapTotal: 1048576 kB\n"
	meminfoNoSw = "MemTotal: 16777216 kB\nSwapTotal: 0 kB\n"
	// mountinfo lines as a v2-only system, a v1 system and a hybrid one
	// (cgroup2 at /sys/fs/cgroup/unified) write them.
	mountV2     = "30 23 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n"
	mountV1     = "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n32 31 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n"
	mountHybrid = "31 23 0:28 / /sys/fs/cgroup rw - tmpfs tmpfs rw,mode=755\n" + mountV1 +
		"41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n"
)

func TestMemoryBounds(t *testing.T) {
	v1Unlimited := "9223372036854771712\n"
	tests := []struct {
		name   string
		fsys   fstest.MapFS
		rlimit uint64 // 0: no rlimitAS reader
		want   []fexec.MemoryBound
	}{
		{
			name: "meminfo only",
			fsys: files("/proc/meminfo", meminfo16G),
			want: []fexec.MemoryBound{{"/proc/meminfo MemTotal+SwapTotal", 17 * gib}},
		},
		{
			name: "v2 container with its own cgroup namespace",
			fsys: files("/proc/meminfo", meminfo16G, "/proc/self/cgroup", "0::/\n", "/proc/self/mountinfo", mountV2,
				"/sys/fs/cgroup/memory.max", "1073741824\n", "/sys/fs/cgroup/memory.swap.max", "0\n"),
			want: []fexec.MemoryBound{
				{"/proc/meminfo MemTotal+SwapTotal", 17 * gib},
				{"cgroup v2 /sys/fs/cgroup/memory.max", gib},
			},
		},
		{
			name: "v2 host: the limit is on an ancestor, swap capped by SwapTotal",
			fsys: files("/proc/meminfo", meminfo16G, "/proc/self/cgroup", "0::/user.slice/app.scope\n", "/proc/self/mountinfo", mountV2,
				"/sys/fs/cgroup/user.slice/app.scope/memory.max", "max\n",
				"/sys/fs/cgroup/user.slice/app.scope/memory.swap.max", "max\n",
				"/sys/fs/cgroup/user.slice/memory.max", "2147483648\n"),
			want: []fexec.MemoryBound{
				{"/proc/meminfo MemTotal+SwapTotal", 17 * gib},
				{"cgroup v2 /sys/fs/cgroup/user.slice/memory.max + swap", 3 * gib},
			},
		},
		{
			name: "v2 unlimited everywhere",
			fsys: files("/proc/meminfo", meminfo16G, "/proc/self/cgroup", "0::/a\n", "/proc/self/mountinfo", mountV2,
				"/sys/fs/cgroup/a/memory.max", "max\n"),
			want: []fexec.MemoryBound{{"/proc/meminfo MemTotal+SwapTotal", 17 * gib}},
		},
		{
			name: "v2 without mountinfo: the usual mount point",
			fsys: files("/proc/meminfo", meminfoNoSw, "/proc/self/cgroup", "0::/job\n",
				"/sys/fs/cgroup/job/memory.max", "536870912\n"),
			want: []fexec.MemoryBound{
				{"/proc/meminfo MemTotal+SwapTotal", 16 * gib},
				{"cgroup v2 /sys/fs/cgroup/job/memory.max", gib / 2},
			},
		},
		{
			name: "v1 docker without a cgroup namespace: the mount's root is the container's cgroup",
			fsys: files("/proc/meminfo", meminfo16G,
				"/proc/self/cgroup", "5:cpu,cpuacct:/docker/abc\n4:memory:/docker/abc\n",
				"/proc/self/mountinfo", "35 31 0:32 /docker/abc /sys/fs/cgroup/memory ro - cgroup cgroup rw,memory\n",
				"/sys/fs/cgroup/memory/memory.limit_in_bytes", "536870912\n"),
			want: []fexec.MemoryBound{
				{"/proc/meminfo MemTotal+SwapTotal", 17 * gib},
				{"cgroup v1 /sys/fs/cgroup/memory/memory.limit_in_bytes", gib / 2},
			},
		},
		{
			name: "v1 with swap accounting: memory and swap together",
			fsys: files("/proc/meminfo", meminfo16G, "/proc/self/cgroup", "4:memory:/batch/job\n", "/proc/self/mountinfo", mountV1,
				"/sys/fs/cgroup/memory/batch/job/memory.limit_in_bytes", "1073741824\n",
				"/sys/fs/cgroup/memory/batch/job/memory.memsw.limit_in_bytes", v1Unlimited,
				"/sys/fs/cgroup/memory/batch/memory.memsw.limit_in_bytes", "2147483648\n",
				"/sys/fs/cgroup/memory/memory.memsw.limit_in_bytes", v1Unlimited),
			want: []fexec.MemoryBound{
				{"/proc/meminfo MemTotal+SwapTotal", 17 * gib},
				{"cgroup v1 /sys/fs/cgroup/memory/batch/memory.memsw.limit_in_bytes", 2 * gib},
			},
		},
		{
			name: "hybrid, unlimited (this kind of CI machine)",
			fsys: files("/proc/meminfo", meminfo16G,
				"/proc/self/cgroup", "4:memory:/process_api/5e80\n1:cpu:/\n0::/\n", "/proc/self/mountinfo", mountHybrid,
				"/sys/fs/cgroup/memory/process_api/5e80/memory.limit_in_bytes", v1Unlimited,
				"/sys/fs/cgroup/memory/memory.limit_in_bytes", v1Unlimited),
			want: []fexec.MemoryBound{{"/proc/meminfo MemTotal+SwapTotal", 17 * gib}},
		},
		{
			name: "hybrid, limited in v1",
			fsys: files("/proc/meminfo", meminfo16G,
				"/proc/self/cgroup", "4:memory:/process_api/5e80\n0::/\n", "/proc/self/mountinfo", mountHybrid,
				"/sys/fs/cgroup/memory/process_api/5e80/memory.limit_in_bytes", "4294967296\n"),
			want: []fexec.MemoryBound{
				{"/proc/meminfo MemTotal+SwapTotal", 17 * gib},
				{"cgroup v1 /sys/fs/cgroup/memory/process_api/5e80/memory.limit_in_bytes", 4 * gib},
			},
		},
		{
			name: "escaped mount point",
			fsys: files("/proc/meminfo", meminfo16G, "/proc/self/cgroup", "0::/\n",
				"/proc/self/mountinfo", "30 23 0:26 / /mnt/cg\\040two rw - cgroup2 cgroup2 rw\n",
				"/mnt/cg two/memory.max", "3221225472"),
			want: []fexec.MemoryBound{
				{"/proc/meminfo MemTotal+SwapTotal", 17 * gib},
				{"cgroup v2 /mnt/cg two/memory.max + swap", 4 * gib},
			},
		},
		{
			name:   "RLIMIT_AS",
			fsys:   files("/proc/meminfo", meminfo16G),
			rlimit: 8 << 30,
			want: []fexec.MemoryBound{
				{"/proc/meminfo MemTotal+SwapTotal", 17 * gib},
				{"RLIMIT_AS", 8 * gib},
			},
		},
		{
			name:   "RLIMIT_AS less the address space mapped",
			fsys:   files("/proc/self/status", "Name: x\nVmPeak: 9 kB\nVmSize:  1048576 kB\nVmRSS: 5 kB\n"),
			rlimit: 8 << 30,
			want:   []fexec.MemoryBound{{"RLIMIT_AS less VmSize", 7 * gib}},
		},
		{
			name:   "RLIMIT_AS below VmSize: the limit as it is",
			fsys:   files("/proc/self/status", "VmSize: 9999999 kB\n"),
			rlimit: 8 << 30,
			want:   []fexec.MemoryBound{{"RLIMIT_AS", 8 * gib}},
		},
		{
			name:   "RLIMIT_AS infinite, nothing readable",
			fsys:   files(),
			rlimit: ^uint64(0),
		},
		{
			name: "garbage in limit files is ignored",
			fsys: files("/proc/self/cgroup", "0::/\n", "/proc/self/mountinfo", mountV2, "/sys/fs/cgroup/memory.max", "lots\n"),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var rl func() (uint64, bool)
			if tt.rlimit != 0 {
				rl = func() (uint64, bool) { return tt.rlimit, true }
			}
			got := fexec.MemoryBoundsOf(tt.fsys, rl)
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("got:%v want:%v", got, tt.want)
			}
		})
	}
}

func TestLeastBound(t *testing.T) {
	_, ok := fexec.LeastBound(nil)
	require.False(t, ok)
	b, ok := fexec.LeastBound([]fexec.MemoryBound{{"a", 3}, {"b", 1}, {"c", 2}})
	require.True(t, ok)
	require.Equal(t, fexec.MemoryBound{Source: "b", Bytes: 1}, b)
}

func TestDefaultMemoryLimitIsLeastBound(t *testing.T) {
	want := int64(1) << 47
	if b, ok := fexec.LeastBound(fexec.MemoryBounds()); ok {
		want = b.Bytes
	}
	require.Equal(t, want, fexec.DefaultMemoryLimit())
}

// rlimitChild makes the test binary, run as a child by
// TestDefaultMemoryLimitUnderRlimit, report what a huge allocation gives.
var rlimitChild = flag.Bool("rlimit-child", false, "run TestRlimitChild (set by TestDefaultMemoryLimitUnderRlimit)")

// TestRlimitChild runs only as that child: under an address-space limit
// of 2 GiB it asks for a 1 GiB tensor. Without RLIMIT_AS in the guard, or
// without the address space the runtime has already mapped taken off it,
// the Go runtime dies of a fatal out-of-memory error; with it the
// allocation is refused with a MemoryError.
func TestRlimitChild(t *testing.T) {
	if !*rlimitChild {
		t.Skip("runs only as the child of TestDefaultMemoryLimitUnderRlimit")
	}
	_, err := fexec.NewTensor(memory.NewGoAllocator(), graph.Float32, graph.Shape{1 << 28})
	fmt.Printf("limit=%d\nerr=%v\n", fexec.DefaultMemoryLimit(), err)
}

func TestDefaultMemoryLimitUnderRlimit(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("sets the limit with the shell's ulimit -v, as on Linux")
	}
	if *rlimitChild {
		t.Skip("already the child")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh to set the limit")
	}
	const kb = 2 << 20 // 2 GiB in KiB
	cmd := exec.Command(sh, "-c", "ulimit -v "+strconv.Itoa(kb)+" && exec \"$0\" -test.run='^TestRlimitChild$' -rlimit-child", os.Args[0])
	cmd.Env = append(os.Environ(), "GOMAXPROCS=1")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "child: %s", out[:min(len(out), 2000)])
	var limit int64
	_, err = fmt.Sscanf(string(out[strings.Index(string(out), "limit="):]), "limit=%d", &limit)
	require.NoError(t, err, "child: %s", out)
	require.Less(t, limit, int64(kb)<<10, "the limit less what the runtime has mapped")
	require.Positive(t, limit)
	require.Contains(t, string(out), "err=Unable to allocate 1.00 GiB for an array with shape (268435456,) and data type float32 (larger than the allocation limit of ")
}
