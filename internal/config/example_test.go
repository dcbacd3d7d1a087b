package config_test

import (
	"fmt"
	"os"

	"github.com/fuseflow/fuseflow/internal/config"
)

// Debug topics are words in any case, separated by commas or spaces.
func ExampleDebugging() {
	os.Setenv(config.Debug, "PTX, plan")
	defer os.Unsetenv(config.Debug)
	fmt.Println(config.Debugging(config.DebugPlan), config.Debugging(config.DebugPTX))
	// Output: true true
}

// A switch is set or not; code that has an option of its own asks only
// when its caller left the choice to the environment.
func ExampleFlag() {
	os.Setenv(config.FastMath, "off")
	defer os.Unsetenv(config.FastMath)
	on, set := config.Flag(config.FastMath)
	fmt.Println(on, set)
	// Output: false true
}
