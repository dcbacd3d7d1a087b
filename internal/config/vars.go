// The variables: their names, kinds and the accessors that read them.

package config

import (
	"fmt"
	"os"
	"strings"
)

// The variables fuseflow reads.
const (
	Device       = "FUSEFLOW_DEVICE"
	Debug        = "FUSEFLOW_DEBUG"
	Profile      = "FUSEFLOW_PROFILE"
	NoASM        = "FUSEFLOW_NOASM"
	FastMath     = "FUSEFLOW_FASTMATH"
	PTXISA       = "FUSEFLOW_PTX_ISA"
	PTXAS        = "FUSEFLOW_PTXAS"
	Cache        = "FUSEFLOW_CACHE"
	RequirePTXAS = "FUSEFLOW_REQUIRE_PTXAS"
	RequireGCC   = "FUSEFLOW_REQUIRE_GCC"
	HalfLong     = "FUSEFLOW_HALF_LONG"
	LibCUDA      = "FUSEFLOW_LIBCUDA"
)

// Kind says how a variable's value is read.
type Kind uint8

const (
	// Text is a value used as given: a device name, a path, a version.
	Text Kind = iota
	// Switch is on or off: 1, true, on or yes; 0, false, off or no (in
	// any case). Unset or empty leaves the decision to the default.
	Switch
	// Topics is a list of words separated by commas or spaces, in any
	// case (FUSEFLOW_DEBUG; see Debugging).
	Topics
)

// Var describes one variable.
type Var struct {
	Name string
	Kind Kind
}

// Vars lists every variable, in the order of the README's table.
var Vars = []Var{
	{Device, Text},
	{Debug, Topics},
	{Profile, Switch},
	{NoASM, Switch},
	{FastMath, Switch},
	{PTXISA, Text},
	{PTXAS, Text},
	{Cache, Text},
	{RequirePTXAS, Switch},
	{RequireGCC, Switch},
	{HalfLong, Switch},
	{LibCUDA, Text},
}

// kindOf returns the kind of variable name; it panics for a name Vars
// does not list, so that no variable is read without being listed.
func kindOf(name string) Kind {
	for _, v := range Vars {
		if v.Name == name {
			return v.Kind
		}
	}
	panic(fmt.Sprintf("config: %s is not a listed variable", name))
}

// Value returns the value of the Text variable name as set ("" when
// unset); its reader checks it (a device name, a path, a version). It panics when name is not a listed
// Text variable (a broken invariant). Safe for concurrent use.
func Value(name string) string {
	if k := kindOf(name); k != Text {
		panic(fmt.Sprintf("config: %s is not a text variable", name))
	}
	return os.Getenv(name)
}

// Flag reads the Switch variable name: on is its value, set whether it
// has one. Unset, empty or malformed (reported once on standard error),
// set is false. It panics when name is not a listed Switch variable.
// Safe for concurrent use.
func Flag(name string) (on, set bool) {
	if k := kindOf(name); k != Switch {
		panic(fmt.Sprintf("config: %s is not a switch", name))
	}
	raw := os.Getenv(name)
	switch strings.ToLower(strings.TrimSpace(raw)) {
	case "":
		return false, false
	case "1", "true", "on", "yes":
		return true, true
	case "0", "false", "off", "no":
		return false, true
	}
	warnOnce(name, raw, "want 1 or 0 (true or false, on or off, yes or no); ignored")
	return false, false
}

// Enabled is Flag's on: whether the Switch variable name is set and on.
func Enabled(name string) bool {
	on, _ := Flag(name)
	return on
}
