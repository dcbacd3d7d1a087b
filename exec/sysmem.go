// The memory the process may use: physical memory and swap
// (/proc/meminfo), the memory limit of its cgroup (v2 memory.max and
// memory.swap.max, v1 memory.limit_in_bytes and
// memory.memsw.limit_in_bytes, over the cgroup and its ancestors) and
// RLIMIT_AS less the address space already mapped, read through an fs.FS
// so that tests can give fake files.

package exec

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path"
	"strconv"
	"strings"
)

// MemoryBound is one limit on the memory the process may use.
type MemoryBound struct {
	// Source names where the limit comes from ("/proc/meminfo
	// MemTotal+SwapTotal", "cgroup v2 /sys/fs/cgroup/app/memory.max",
	// "RLIMIT_AS").
	Source string
	// Bytes is the limit.
	Bytes int64
}

// noLimit marks a limit file that says "unlimited": v2's "max", and
// values of v1 and of rlimits at or above 2^62 (v1 writes
// 9223372036854771712, RLIM_INFINITY is 2^64-1 on Linux and 2^63-1 on
// macOS).
const noLimit = int64(1) << 62

// memoryBounds returns the limits on the process's memory that fsys (a
// file system rooted at /, such as os.DirFS("/")) and rlimitAS (nil on
// systems without one) report; limits that are absent, unreadable or
// unlimited are left out.
func memoryBounds(fsys fs.FS, rlimitAS func() (uint64, bool)) []MemoryBound {
	var out []MemoryBound
	swap := int64(-1) // SwapTotal, when known: the most a cgroup's swap limit can add
	if m, err := readMeminfo(fsys, "proc/meminfo"); err == nil {
		out = append(out, MemoryBound{"/proc/meminfo MemTotal+SwapTotal", m.total + m.swap})
		swap = m.swap
	}
	out = append(out, cgroupBounds(fsys, swap)...)
	if rlimitAS != nil {
		if v, ok := rlimitAS(); ok && v < uint64(noLimit) {
			b := MemoryBound{"RLIMIT_AS", int64(v)}
			// The limit is on the address space, some of which the
			// runtime has already mapped (a Go process starts with more
			// than 1 GiB reserved).
			if vm, err := readVmSize(fsys); err == nil && vm < b.Bytes {
				b = MemoryBound{"RLIMIT_AS less VmSize", b.Bytes - vm}
			}
			out = append(out, b)
		}
	}
	return out
}

// readVmSize returns the address space the process has mapped (VmSize of
// /proc/self/status) in bytes.
func readVmSize(fsys fs.FS) (int64, error) {
	data, err := fs.ReadFile(fsys, "proc/self/status")
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(data)) {
		rest, ok := strings.CutPrefix(line, "VmSize:")
		if !ok {
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) > 0 {
			if kb, err := strconv.ParseInt(fields[0], 10, 64); err == nil && kb >= 0 && kb <= math.MaxInt64/1024 {
				return kb * 1024, nil
			}
		}
		return 0, fmt.Errorf("exec: /proc/self/status: bad VmSize line %q", line)
	}
	return 0, errors.New("exec: /proc/self/status has no VmSize")
}

// leastBound returns the smallest of bs, or ok false when there is none.
func leastBound(bs []MemoryBound) (MemoryBound, bool) {
	if len(bs) == 0 {
		return MemoryBound{}, false
	}
	least := bs[0]
	for _, b := range bs[1:] {
		if b.Bytes < least.Bytes {
			least = b
		}
	}
	return least, true
}

// meminfo holds the fields of /proc/meminfo the guard reads, in bytes.
type meminfo struct{ total, swap int64 }

// readMeminfo reads MemTotal and SwapTotal of a /proc/meminfo file.
func readMeminfo(fsys fs.FS, name string) (meminfo, error) {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return meminfo{}, err
	}
	var m meminfo
	found := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		key, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok || (key != "MemTotal" && key != "SwapTotal") {
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) == 0 {
			continue
		}
		kb, err := strconv.ParseInt(fields[0], 10, 64)
		if err != nil || kb < 0 || kb > math.MaxInt64/4096 {
			return meminfo{}, fmt.Errorf("exec: /%s: bad %s line %q", name, key, sc.Text())
		}
		if key == "MemTotal" {
			m.total, found = kb*1024, true
		} else {
			m.swap = kb * 1024
		}
	}
	if err := sc.Err(); err != nil {
		return meminfo{}, err
	}
	if !found {
		return meminfo{}, fmt.Errorf("exec: /%s has no MemTotal", name)
	}
	return m, nil
}

// cgroupMount is where a cgroup hierarchy is mounted: the mount point
// (relative to the file system's root) and the cgroup path of the mount's
// root directory.
type cgroupMount struct{ point, root string }

// cgroupBounds returns the memory limits of the process's cgroups: for
// v2 the least memory.max over the cgroup and its ancestors plus the least
// memory.swap.max (at most SwapTotal, swap; swap < 0: unknown, no swap
// counted), for v1 the least memory.memsw.limit_in_bytes (memory and swap
// together) or, where swap is not accounted, memory.limit_in_bytes.
func cgroupBounds(fsys fs.FS, swap int64) []MemoryBound {
	data, err := fs.ReadFile(fsys, "proc/self/cgroup")
	if err != nil {
		return nil
	}
	var v2Path, v1Path string
	hasV2, hasV1 := false, false
	for line := range strings.Lines(string(data)) {
		parts := strings.SplitN(strings.TrimRight(line, "\n"), ":", 3)
		if len(parts) != 3 {
			continue
		}
		switch {
		case parts[0] == "0" && parts[1] == "":
			v2Path, hasV2 = parts[2], true
		case containsWord(parts[1], ",", "memory"):
			v1Path, hasV1 = parts[2], true
		}
	}
	v2Mount, v1Mount := cgroupMounts(fsys)
	var out []MemoryBound
	if hasV2 && v2Mount.point != "" {
		dirs := cgroupDirs(fsys, v2Mount, v2Path)
		mem, memDir := leastLimit(fsys, dirs, "memory.max")
		if mem < noLimit {
			src := "cgroup v2 /" + path.Join(memDir, "memory.max")
			if sw, _ := leastLimit(fsys, dirs, "memory.swap.max"); swap > 0 && sw > 0 {
				mem += min(sw, swap)
				src += " + swap"
			}
			out = append(out, MemoryBound{src, mem})
		}
	}
	if hasV1 && v1Mount.point != "" {
		dirs := cgroupDirs(fsys, v1Mount, v1Path)
		file := "memory.memsw.limit_in_bytes"
		mem, memDir := leastLimit(fsys, dirs, file)
		if memDir == "" {
			file = "memory.limit_in_bytes"
			mem, memDir = leastLimit(fsys, dirs, file)
		}
		if mem < noLimit {
			out = append(out, MemoryBound{"cgroup v1 /" + path.Join(memDir, file), mem})
		}
	}
	return out
}

// containsWord reports whether list, split at sep, contains w.
func containsWord(list, sep, w string) bool {
	for f := range strings.SplitSeq(list, sep) {
		if f == w {
			return true
		}
	}
	return false
}

// cgroupMounts finds the cgroup v2 mount and the cgroup v1 mount of the
// memory controller in /proc/self/mountinfo. Without mountinfo it assumes
// the usual places, /sys/fs/cgroup and /sys/fs/cgroup/memory.
func cgroupMounts(fsys fs.FS) (v2, v1 cgroupMount) {
	data, err := fs.ReadFile(fsys, "proc/self/mountinfo")
	if err != nil {
		return cgroupMount{"sys/fs/cgroup", "/"}, cgroupMount{"sys/fs/cgroup/memory", "/"}
	}
	for line := range strings.Lines(string(data)) {
		pre, post, ok := strings.Cut(strings.TrimRight(line, "\n"), " - ")
		if !ok {
			continue
		}
		f, g := strings.Fields(pre), strings.Fields(post)
		if len(f) < 5 || len(g) < 3 {
			continue
		}
		point := strings.TrimPrefix(unescapeMount(f[4]), "/")
		if point == "" {
			point = "." // mounted at the root
		}
		m := cgroupMount{point: point, root: unescapeMount(f[3])}
		switch {
		case g[0] == "cgroup2" && v2.point == "":
			v2 = m
		case g[0] == "cgroup" && v1.point == "" && containsWord(g[2], ",", "memory"):
			v1 = m
		}
	}
	return v2, v1
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(v))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// cgroupDirs returns the directories (relative to fsys's root) of the
// cgroup at cgroup path p and of its ancestors up to the mount point,
// innermost first. A cgroup outside the mount's root (a container that
// sees its own cgroup as the mount's root) is the mount point itself.
func cgroupDirs(fsys fs.FS, m cgroupMount, p string) []string {
	rel := "/"
	if r, ok := strings.CutPrefix(p, m.root); ok && (m.root == "/" || r == "" || strings.HasPrefix(r, "/")) {
		rel = path.Clean("/" + r)
	}
	var dirs []string
	for {
		dirs = append(dirs, path.Join(m.point, rel))
		if rel == "/" {
			return dirs
		}
		rel = path.Dir(rel)
	}
}

// leastLimit returns the least limit that file gives in dirs, and the
// directory it came from ("" when no dir has the file). Files that say
// "max" or a value of at least 2^62 are unlimited.
func leastLimit(fsys fs.FS, dirs []string, file string) (int64, string) {
	least, from := noLimit, ""
	for _, d := range dirs {
		data, err := fs.ReadFile(fsys, path.Join(d, file))
		if err != nil {
			continue
		}
		if from == "" {
			from = d
		}
		v, err := parseLimit(string(data))
		if err != nil {
			continue
		}
		if v < least {
			least, from = v, d
		}
	}
	return least, from
}

// parseLimit parses the contents of a cgroup limit file.
func parseLimit(s string) (int64, error) {
	s = strings.TrimSpace(s)
	if s == "max" {
		return noLimit, nil
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, err
	}
	if v >= uint64(noLimit) {
		return noLimit, nil
	}
	return int64(v), nil
}
