// This file implements Module and Kernel, the parsed and decoded form of
// a PTX module: Parse checks every instruction, type and modifier of
// every kernel up front, so a module that parses can only fail at run
// time for what the launch does (its addresses, its synchronization).

package ptxsim

import (
	"fmt"
	"sort"
	"sync"
)

// Module is a parsed PTX module. It is immutable and safe for concurrent
// use.
type Module struct {
	// Version and Target are the .version and .target directives.
	Version, Target string
	kernels         map[string]*Kernel
	names           []string
}

// Param is one kernel parameter in the parameter state space.
type Param struct {
	Name   string
	Type   string // the PTX type: "u64", "s32", "b8" for an array
	Offset int    // byte offset in the parameter space
	Size   int    // bytes
}

// Kernel is one decoded .entry. It is immutable and safe for concurrent
// launches.
type Kernel struct {
	Name   string
	Params []Param
	// MaxThreads and ReqThreads are the .maxntid and .reqntid
	// directives, zero when absent.
	MaxThreads, ReqThreads [3]int
	// SharedBytes is the static shared memory of a block; LocalBytes the
	// local memory of a thread. DynamicShared says whether the module
	// declares .extern .shared arrays, which start at byte
	// DynamicSharedOffset of the block's shared memory (SharedBytes
	// rounded up to their alignment) and span Config.DynamicSharedBytes.
	SharedBytes, LocalBytes int
	DynamicShared           bool
	DynamicSharedOffset     int

	code       []inst
	nslots     int      // value register slots, constants included
	npreds     int      // predicate registers
	consts     []uint64 // values of the constant slots nslots-len(consts)..nslots-1
	paramBytes int
	vars       []varInfo // shared and local arrays, for messages
	bank       []Region  // the module's .const variables, from ConstBankAddr
	files      map[int]string
	// free holds block contexts of finished launches for reuse (a plain
	// list: sync.Pool drops its items under the race detector, and a
	// block's registers and shadow memory are large).
	freeMu sync.Mutex
	free   []*block
}

// maxFree bounds the block contexts a kernel keeps.
const maxFree = 16

// varInfo is a shared, local or const array with its window address;
// size is -1 for an .extern .shared array (the launch sizes it).
type varInfo struct {
	name  string
	space uint8
	addr  uint64
	size  int
}

// Parse parses and decodes the PTX module text. The error, a *ParseError,
// names the line: a syntax error, or an instruction, type or modifier the
// simulator does not implement (which it never ignores).
func Parse(text string) (*Module, error) {
	raw, err := parseModule(text)
	if err != nil {
		return nil, err
	}
	m := &Module{Version: raw.version, Target: raw.target, kernels: map[string]*Kernel{}}
	lines := splitLines(text)
	mv, err := layoutModuleVars(raw, lines)
	if err != nil {
		return nil, err
	}
	for _, rk := range raw.kernels {
		if _, dup := m.kernels[rk.name]; dup {
			return nil, &ParseError{Line: rk.line, Msg: fmt.Sprintf("two kernels are named %s", rk.name)}
		}
		k, err := decodeKernel(rk, lines, mv)
		if err != nil {
			return nil, err
		}
		m.kernels[rk.name] = k
		m.names = append(m.names, rk.name)
	}
	return m, nil
}

// Kernel returns the kernel named name, or an error listing the module's
// kernels.
func (m *Module) Kernel(name string) (*Kernel, error) {
	if k, ok := m.kernels[name]; ok {
		return k, nil
	}
	names := append([]string(nil), m.names...)
	sort.Strings(names)
	return nil, fmt.Errorf("ptxsim: the module has no kernel %q (it has %v)", name, names)
}

// Kernels returns the names of the module's kernels in source order.
func (m *Module) Kernels() []string { return append([]string(nil), m.names...) }

// Instructions returns the number of instructions of the kernel.
func (k *Kernel) Instructions() int { return len(k.code) }

// Opcodes returns the distinct opcodes of the kernel with their
// modifiers, as written ("ld.global.nc.v4.f32"), sorted.
func (k *Kernel) Opcodes() []string {
	seen := map[string]bool{}
	for i := range k.code {
		if t := k.code[i].text; t != "" && t[0] != '(' {
			seen[opcodeOf(t)] = true
		}
	}
	out := make([]string, 0, len(seen))
	for s := range seen {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// opcodeOf returns the opcode of an instruction's text.
func opcodeOf(text string) string {
	i := 0
	if len(text) > 0 && text[0] == '@' {
		for i < len(text) && text[i] != ' ' && text[i] != '\t' {
			i++
		}
		for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
			i++
		}
	}
	j := i
	for j < len(text) && text[j] != ' ' && text[j] != '\t' && text[j] != ';' {
		j++
	}
	return text[i:j]
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// source returns "file:line" of in from the .file and .loc directives,
// or "" when it has no position.
func (k *Kernel) source(in *inst) string {
	if in.srcLine <= 0 {
		return ""
	}
	name, ok := k.files[int(in.file)]
	if !ok {
		name = fmt.Sprintf("file %d", in.file)
	}
	return fmt.Sprintf("%s:%d", name, in.srcLine)
}
