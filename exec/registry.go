// The backend registry: backends register themselves from init, as
// database/sql drivers do, and the default device is resolved here, in
// one place.

package exec

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/fuseflow/fuseflow/internal/config"
)

// Factory is what a backend package registers: how to open the backend,
// whether it has numbered devices, and how much it is preferred as the
// default.
type Factory struct {
	// Open returns a new backend on device ordinal: N for "name:N", 0
	// for a bare "name". It returns an error, never a fallback, when the
	// device cannot be opened.
	Open func(ordinal int) (Backend, error)
	// Numbered says the backend has numbered devices: "name:N" opens
	// device N and "name" device 0. Without it only "name" opens.
	Numbered bool
	// Preference ranks the backend for the default device when
	// FUSEFLOW_DEVICE is unset: the backends with a Preference above 0
	// are tried from the highest down, and the first that opens is the
	// default. 0 means it is never chosen unless named.
	Preference int
}

var registry = struct {
	sync.RWMutex
	m map[string]Factory
}{m: map[string]Factory{}}

// Register makes a backend available to Open under name ("cpu", "cuda").
// Backend packages call it from init; importing the package for its side
// effects registers it (exec/all imports every backend of this module,
// and the array package imports exec/all). It panics when name is empty
// or holds a colon, when f.Open is nil, or when name is registered twice.
// Safe for concurrent use.
func Register(name string, f Factory) {
	if name == "" || strings.Contains(name, ":") {
		panic(fmt.Sprintf("exec: Register(%q): a backend name is a nonempty word without a colon", name))
	}
	if f.Open == nil {
		panic(fmt.Sprintf("exec: Register(%q): nil Open", name))
	}
	registry.Lock()
	defer registry.Unlock()
	if _, dup := registry.m[name]; dup {
		panic(fmt.Sprintf("exec: Register(%q): registered twice", name))
	}
	registry.m[name] = f
}

// Backends returns the registered backend names, sorted.
func Backends() []string {
	registry.RLock()
	defer registry.RUnlock()
	return namesLocked()
}

// namesLocked returns the registered names, sorted. The caller holds
// registry's lock.
func namesLocked() []string {
	names := make([]string, 0, len(registry.m))
	for n := range registry.m {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Open returns a new backend on device, written as the name a backend
// registered ("cpu", "ref", "cuda") or, for a backend with numbered
// devices, "name:N" ("cuda:1"). An unknown name, a malformed device number
// and the backend's own failure to open (no driver, no such device) are
// errors naming device; nothing falls back to another backend. The
// caller owns the backend (a backend that holds resources implements
// io.Closer). Safe for concurrent use.
func Open(device string) (Backend, error) {
	b, err := open(device)
	if err != nil {
		return nil, fmt.Errorf("exec: Open(%q): %w", device, err)
	}
	return b, nil
}

// DefaultDevice returns the device FUSEFLOW_DEVICE names, "" when it is
// unset (OpenDefault then chooses).
func DefaultDevice() string { return config.Value(config.Device) }

// OpenDefault returns a new backend on the default device: the one
// FUSEFLOW_DEVICE names (see Open), or when it is unset the most
// preferred registered backend that opens (CUDA device 0 when a driver
// and a device are present, else the CPU executor). Asking for a device
// that cannot be opened is an error naming the variable, never a silent
// fallback. Safe for concurrent use.
func OpenDefault() (Backend, error) {
	d := DefaultDevice()
	if d != "" {
		b, err := open(d)
		if err != nil {
			return nil, fmt.Errorf("%s=%q: %w", config.Device, d, err)
		}
		return b, nil
	}
	var errs []error
	for _, c := range candidates() {
		b, err := c.f.Open(0)
		if err == nil {
			return b, nil
		}
		errs = append(errs, fmt.Errorf("%s: %w", c.name, err))
	}
	if len(errs) == 0 {
		return nil, fmt.Errorf("exec: %w", errNone)
	}
	return nil, fmt.Errorf("exec: no default backend opens: %w", errors.Join(errs...))
}

// errNone is the error of a program that registered no backend.
var errNone = errors.New("no backend is registered (import github.com/fuseflow/fuseflow/exec/all)")

// named is a registered backend with its name.
type named struct {
	name string
	f    Factory
}

// candidates returns the backends OpenDefault tries, most preferred
// first (ties by name).
func candidates() []named {
	registry.RLock()
	defer registry.RUnlock()
	var cs []named
	for n, f := range registry.m {
		if f.Preference > 0 {
			cs = append(cs, named{n, f})
		}
	}
	slices.SortFunc(cs, func(a, b named) int {
		return cmp.Or(cmp.Compare(b.f.Preference, a.f.Preference), strings.Compare(a.name, b.name))
	})
	return cs
}

// open parses device and opens it; errors do not repeat device.
func open(device string) (Backend, error) {
	name, num, numbered := strings.Cut(device, ":")
	registry.RLock()
	f, ok := registry.m[name]
	registry.RUnlock()
	if !ok || (numbered && !f.Numbered) {
		w := wanted()
		if w == "" {
			return nil, errNone
		}
		return nil, fmt.Errorf("unknown backend (want %s)", w)
	}
	ordinal := 0
	if numbered {
		n, err := strconv.Atoi(num)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("want %s:N with a device number", name)
		}
		ordinal = n
	}
	b, err := f.Open(ordinal)
	if err == nil && b == nil {
		err = fmt.Errorf("backend %s opened nothing", name)
	}
	return b, err
}

// wanted lists the devices Open accepts: "cpu, ref, cuda or cuda:N"
// (backends with one device first, then the numbered ones).
func wanted() string {
	registry.RLock()
	defer registry.RUnlock()
	if len(registry.m) == 0 {
		return ""
	}
	var one, many []string
	for _, n := range namesLocked() {
		if registry.m[n].Numbered {
			many = append(many, n, n+":N")
		} else {
			one = append(one, n)
		}
	}
	all := append(one, many...)
	if len(all) == 1 {
		return all[0]
	}
	return strings.Join(all[:len(all)-1], ", ") + " or " + all[len(all)-1]
}
