// info.go implements the results of an assembly: per-function resource
// usage parsed from `ptxas -v` and line-numbered diagnostics.

package ptxas

import (
	"regexp"
	"strconv"
	"strings"
)

// Info is what ptxas reported for a module that assembled.
type Info struct {
	// Arch is the architecture assembled for, such as "sm_80".
	Arch string
	// Functions lists the functions ptxas reported, in its order.
	Functions []Function
	// GlobalBytes is the module's global (.global) data in bytes.
	GlobalBytes int
	// Warnings are ptxas's warnings; generated PTX should have none.
	Warnings []Diagnostic
	// Log is ptxas's output, verbatim.
	Log string
}

// Function is the resource usage of one function after assembly.
type Function struct {
	Name            string
	Entry           bool // a kernel (.entry), not a device function
	Registers       int  // registers per thread
	SharedBytes     int  // static shared memory per block
	LocalBytes      int  // local memory per thread outside the stack frame
	ConstBytes      int  // constant memory in all banks
	StackBytes      int  // stack frame per thread
	SpillStoreBytes int
	SpillLoadBytes  int
}

// Function returns the function called name, and whether there is one.
func (in Info) Function(name string) (Function, bool) {
	for _, f := range in.Functions {
		if f.Name == name {
			return f, true
		}
	}
	return Function{}, false
}

// Diagnostic is one message of ptxas about the PTX it was given.
type Diagnostic struct {
	Line     int    // 1-based line of the PTX text, 0 when ptxas named none
	Severity string // "error", "warning" or "fatal"
	Message  string
	Text     string // the line as ptxas printed it
}

// diagnosticRE matches `ptxas kernel.ptx, line 12; error   : message` and
// `ptxas fatal   : message`.
var diagnosticRE = regexp.MustCompile(`^ptxas(?: (.*?), line (\d+);)? (error|warning|fatal)\s*: (.*)$`)

// parseDiagnostics returns the diagnostics in ptxas's output, in order.
func parseDiagnostics(log string) []Diagnostic {
	var ds []Diagnostic
	for _, l := range strings.Split(log, "\n") {
		l = strings.TrimRight(l, " \r")
		m := diagnosticRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		line, _ := strconv.Atoi(m[2])
		ds = append(ds, Diagnostic{Line: line, Severity: m[3], Message: strings.TrimSpace(m[4]), Text: l})
	}
	return ds
}

// usageField is one "N <unit>" item of ptxas's resource lines and the field
// of Function it sets. Items of several constant banks add up.
type usageField struct {
	re  *regexp.Regexp
	set func(f *Function, n int)
}

// usageFields maps the items of `Used ... registers, ...` and of the line
// after `Function properties for` to Function's fields.
var usageFields = []usageField{
	{regexp.MustCompile(`^Used (\d+) registers$`), func(f *Function, n int) { f.Registers = n }},
	{regexp.MustCompile(`^(\d+) bytes smem$`), func(f *Function, n int) { f.SharedBytes = n }},
	{regexp.MustCompile(`^(\d+) bytes lmem$`), func(f *Function, n int) { f.LocalBytes = n }},
	{regexp.MustCompile(`^(\d+) bytes cmem\[\d+\]$`), func(f *Function, n int) { f.ConstBytes += n }},
	{regexp.MustCompile(`^(\d+) bytes stack frame$`), func(f *Function, n int) { f.StackBytes = n }},
	{regexp.MustCompile(`^(\d+) bytes spill stores$`), func(f *Function, n int) { f.SpillStoreBytes = n }},
	{regexp.MustCompile(`^(\d+) bytes spill loads$`), func(f *Function, n int) { f.SpillLoadBytes = n }},
}

var (
	entryRE      = regexp.MustCompile(`^ptxas info\s*: Compiling entry function '([^']+)' for '([^']+)'$`)
	propertiesRE = regexp.MustCompile(`^ptxas info\s*: Function properties for (\S+)$`)
	usedRE       = regexp.MustCompile(`^ptxas info\s*: (Used \d+ registers.*)$`)
	gmemRE       = regexp.MustCompile(`^ptxas info\s*: (\d+) bytes gmem`)
)

// parseInfo fills in from the output of `ptxas -v`. A `Used` line belongs
// to the entry being compiled; a properties line to the function it names.
func parseInfo(in *Info, log string) {
	index := map[string]int{}
	fn := func(name string) *Function {
		i, ok := index[name]
		if !ok {
			i = len(in.Functions)
			index[name] = i
			in.Functions = append(in.Functions, Function{Name: name})
		}
		return &in.Functions[i]
	}
	current, properties := "", ""
	for _, l := range strings.Split(log, "\n") {
		l = strings.TrimRight(l, " \r")
		if m := entryRE.FindStringSubmatch(l); m != nil {
			current = m[1]
			fn(current).Entry = true
			properties = ""
			continue
		}
		if m := propertiesRE.FindStringSubmatch(l); m != nil {
			properties = m[1]
			fn(properties)
			continue
		}
		if m := usedRE.FindStringSubmatch(l); m != nil && current != "" {
			setUsage(fn(current), m[1])
			continue
		}
		if m := gmemRE.FindStringSubmatch(l); m != nil {
			in.GlobalBytes, _ = strconv.Atoi(m[1])
			continue
		}
		if properties != "" && strings.HasPrefix(l, " ") {
			setUsage(fn(properties), strings.TrimSpace(l))
			properties = ""
		}
	}
}

// setUsage applies each comma-separated item of a resource line that
// usageFields knows; items it does not know are ignored.
func setUsage(f *Function, line string) {
	for _, item := range strings.Split(line, ",") {
		item = strings.TrimSpace(item)
		for _, u := range usageFields {
			if m := u.re.FindStringSubmatch(item); m != nil {
				n, _ := strconv.Atoi(m[1])
				u.set(f, n)
				break
			}
		}
	}
}
