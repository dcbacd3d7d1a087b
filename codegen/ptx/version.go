// This file implements the PTX ISA version tables: which ISA version each
// CUDA release (driver or ptxas) accepts, and which ISA version each
// target architecture needs.

package ptx

import (
	"fmt"
	"sort"
)

// Capability is a GPU's compute capability, as in sm_80 (8.0) or sm_90
// (9.0). The zero Capability means the default, 8.0.
type Capability struct{ Major, Minor int }

// String returns the PTX target name: "sm_80".
func (c Capability) String() string { return fmt.Sprintf("sm_%d%d", c.Major, c.Minor) }

// less reports whether c is older than d.
func (c Capability) less(d Capability) bool {
	return c.Major < d.Major || c.Major == d.Major && c.Minor < d.Minor
}

// AtLeast reports whether c is the architecture major.minor or newer.
func (c Capability) AtLeast(major, minor int) bool { return !c.less(Capability{major, minor}) }

// Version is a major.minor version: of CUDA (the driver's or ptxas's
// release, 11.8) or of the PTX ISA (7.8).
type Version struct{ Major, Minor int }

// String returns "major.minor".
func (v Version) String() string { return fmt.Sprintf("%d.%d", v.Major, v.Minor) }

// IsZero reports whether v is the zero Version (unset).
func (v Version) IsZero() bool { return v == Version{} }

func (v Version) less(w Version) bool {
	return v.Major < w.Major || v.Major == w.Major && v.Minor < w.Minor
}

// cudaISA maps a CUDA release to the newest PTX ISA version its ptxas and
// its driver's JIT accept. Sorted by CUDA version.
var cudaISA = []struct{ cuda, isa Version }{
	{Version{9, 0}, Version{6, 0}},
	{Version{9, 1}, Version{6, 1}},
	{Version{9, 2}, Version{6, 2}},
	{Version{10, 0}, Version{6, 3}},
	{Version{10, 1}, Version{6, 4}},
	{Version{10, 2}, Version{6, 5}},
	{Version{11, 0}, Version{7, 0}},
	{Version{11, 1}, Version{7, 1}},
	{Version{11, 2}, Version{7, 2}},
	{Version{11, 3}, Version{7, 3}},
	{Version{11, 4}, Version{7, 4}},
	{Version{11, 5}, Version{7, 5}},
	{Version{11, 6}, Version{7, 6}},
	{Version{11, 7}, Version{7, 7}},
	{Version{11, 8}, Version{7, 8}},
	{Version{12, 0}, Version{8, 0}},
	{Version{12, 1}, Version{8, 1}},
	{Version{12, 2}, Version{8, 2}},
	{Version{12, 3}, Version{8, 3}},
	{Version{12, 4}, Version{8, 4}},
	{Version{12, 5}, Version{8, 5}},
	{Version{12, 6}, Version{8, 5}},
	{Version{12, 7}, Version{8, 6}},
	{Version{12, 8}, Version{8, 7}},
	{Version{12, 9}, Version{8, 8}},
	{Version{13, 0}, Version{9, 0}},
}

// archISA maps a target architecture to the oldest PTX ISA version that
// knows it. Sorted by architecture. Architectures between two entries
// (sm_61 after sm_60) need the version of the nearest entry below them
// unless listed.
var archISA = []struct {
	arch Capability
	isa  Version
}{
	{Capability{5, 0}, Version{6, 0}}, // warp-synchronous shfl.sync and vote.sync need 6.0
	{Capability{7, 0}, Version{6, 0}},
	{Capability{7, 2}, Version{6, 1}},
	{Capability{7, 5}, Version{6, 3}},
	{Capability{8, 0}, Version{7, 0}},
	{Capability{8, 6}, Version{7, 1}},
	{Capability{8, 7}, Version{7, 4}},
	{Capability{8, 9}, Version{7, 8}},
	{Capability{9, 0}, Version{7, 8}},
	{Capability{10, 0}, Version{8, 6}},
	{Capability{10, 3}, Version{8, 8}},
	{Capability{11, 0}, Version{9, 0}},
	{Capability{12, 0}, Version{8, 7}},
	{Capability{12, 1}, Version{8, 8}},
}

// CUDAISA returns the newest PTX ISA version that CUDA release cuda (its
// ptxas, or a driver of that release) accepts. A release newer than the
// table gives the newest version the table knows, which such a release
// still accepts; one older than CUDA 9.0 is an error.
func CUDAISA(cuda Version) (Version, error) {
	i := sort.Search(len(cudaISA), func(i int) bool { return cuda.less(cudaISA[i].cuda) })
	if i == 0 {
		return Version{}, fmt.Errorf("ptx: CUDA %s is too old: warp-synchronous PTX needs CUDA 9.0 or newer", cuda)
	}
	return cudaISA[i-1].isa, nil
}

// MinISA returns the oldest PTX ISA version that can target arch, or an
// error for architectures older than sm_50.
func MinISA(arch Capability) (Version, error) {
	i := sort.Search(len(archISA), func(i int) bool { return arch.less(archISA[i].arch) })
	if i == 0 {
		return Version{}, fmt.Errorf("ptx: %s is not supported (sm_50 or newer)", arch)
	}
	return archISA[i-1].isa, nil
}

// ISAVersion returns the PTX ISA version to write for a kernel that
// targets arch and is compiled by CUDA release cuda (the driver's JIT or
// ptxas): the newest version that release accepts. It is an error when
// that release does not know arch (sm_90 needs CUDA 11.8 or newer).
func ISAVersion(arch Capability, cuda Version) (Version, error) {
	have, err := CUDAISA(cuda)
	if err != nil {
		return Version{}, err
	}
	need, err := MinISA(arch)
	if err != nil {
		return Version{}, err
	}
	if have.less(need) {
		return Version{}, fmt.Errorf("ptx: %s needs PTX ISA %s, but CUDA %s accepts at most %s", arch, need, cuda, have)
	}
	return have, nil
}

// knownISA reports whether v is a PTX ISA version of the cudaISA table.
func knownISA(v Version) bool {
	for _, e := range cudaISA {
		if e.isa == v {
			return true
		}
	}
	return false
}

// ParseISA parses a PTX ISA version written major.minor, as in "8.5". It
// is an error for text of another form ("8", "v8.5", "8.5.1") and for a
// version no CUDA release of the table has (6.0 to 9.0: "8.9", "5.0").
func ParseISA(s string) (Version, error) {
	var v Version
	var rest string
	if n, err := fmt.Sscanf(s, "%d.%d%s", &v.Major, &v.Minor, &rest); n < 2 || (err != nil && n != 2) || rest != "" ||
		s != v.String() {
		return Version{}, fmt.Errorf("ptx: PTX ISA version %q: want major.minor, such as 8.5", s)
	}
	if !knownISA(v) {
		return Version{}, fmt.Errorf("ptx: PTX ISA version %s does not exist: versions go from %s to %s (CUDA %s to %s)",
			v, cudaISA[0].isa, cudaISA[len(cudaISA)-1].isa, cudaISA[0].cuda, cudaISA[len(cudaISA)-1].cuda)
	}
	return v, nil
}

// CheckISA returns nil when PTX ISA isa can target arch and CUDA release
// cuda (the driver's JIT or ptxas) accepts it, else an error saying which
// of the two fails and what would do.
func CheckISA(isa Version, arch Capability, cuda Version) error {
	need, err := MinISA(arch)
	if err != nil {
		return err
	}
	if isa.less(need) {
		return fmt.Errorf("ptx: %s needs PTX ISA %s or newer, not %s", arch, need, isa)
	}
	have, err := CUDAISA(cuda)
	if err != nil {
		return err
	}
	if have.less(isa) {
		return fmt.Errorf("ptx: CUDA %s accepts PTX ISA %s at most, not %s", cuda, have, isa)
	}
	return nil
}
