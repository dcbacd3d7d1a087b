package exec_test

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/exec"
)

// TestPoolAdvisesHugePages: a large block of a Pool over the Go
// allocator lies in a mapping the kernel may back with transparent huge
// pages (its THPeligible line in /proc/self/smaps is 1), where the
// system's setting is "madvise" (under "always" every mapping is; under
// "never" none is and the test cannot tell).
func TestPoolAdvisesHugePages(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || !strings.Contains(string(mode), "[madvise]") {
		t.Skipf("transparent huge pages not in madvise mode here (%q, %v): the advice cannot be observed", strings.TrimSpace(string(mode)), err)
	}
	p := exec.NewPool(nil)
	defer p.Trim()
	mem := p.Allocate(16 << 20)
	defer p.Free(mem)
	for i := 0; i < len(mem); i += 4096 {
		mem[i] = 1
	}
	addr := uint64(uintptr(unsafe.Pointer(unsafe.SliceData(mem)))) + 8<<20 // a whole huge page inside
	got, ok := thpEligible(t, addr)
	require.True(t, ok, "no mapping of %#x in /proc/self/smaps", addr)
	require.Equal(t, 1, got, "THPeligible of the mapping holding %#x", addr)
}

// thpEligible returns the THPeligible value of the mapping holding addr.
func thpEligible(t *testing.T, addr uint64) (int, bool) {
	f, err := os.Open("/proc/self/smaps")
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	in := false
	for sc.Scan() {
		line := sc.Text()
		if lo, hi, ok := strings.Cut(strings.Fields(line)[0], "-"); ok && !strings.HasSuffix(line, ":") && !strings.Contains(lo, ":") {
			a, err1 := strconv.ParseUint(lo, 16, 64)
			b, err2 := strconv.ParseUint(hi, 16, 64)
			in = err1 == nil && err2 == nil && a <= addr && addr < b
			continue
		}
		if v, ok := strings.CutPrefix(line, "THPeligible:"); ok && in {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			require.NoError(t, err)
			return n, true
		}
	}
	require.NoError(t, sc.Err())
	return 0, false
}
