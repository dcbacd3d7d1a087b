// Switch: an option that code turns on or off, or leaves to an
// environment variable.

package exec

import (
	"fmt"

	"github.com/fuseflow/fuseflow/internal/config"
)

// Switch is a backend option that code sets On or Off, winning over the
// environment, or leaves at FromEnv (the zero value) for an environment
// variable to decide (off when unset). cuda.Options.FastMath and
// cuda.Options.Profile are Switches: FastMath: Off keeps accurate math
// even under FUSEFLOW_FASTMATH=1.
type Switch uint8

const (
	// FromEnv leaves the choice to the option's environment variable.
	FromEnv Switch = iota
	// On turns the option on, whatever the environment says.
	On
	// Off turns the option off, whatever the environment says.
	Off
)

// Resolve returns whether the option is on: On and Off say so; FromEnv
// reads env, the name of the option's switch variable (such as
// "FUSEFLOW_FASTMATH"; see the README's Environment table). It panics
// when env is not a fuseflow switch variable. Safe for concurrent use.
func (s Switch) Resolve(env string) bool {
	switch s {
	case On:
		return true
	case Off:
		return false
	}
	return config.Enabled(env)
}

// String returns "FromEnv", "On" or "Off".
func (s Switch) String() string {
	switch s {
	case On:
		return "On"
	case Off:
		return "Off"
	case FromEnv:
		return "FromEnv"
	}
	return fmt.Sprintf("Switch(%d)", uint8(s))
}
