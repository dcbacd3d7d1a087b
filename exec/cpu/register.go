// Registration: the CPU executor is the backend "cpu", the default where
// no GPU opens.

package cpu

import "github.com/fuseflow/fuseflow/exec"

func init() {
	exec.Register("cpu", exec.Factory{
		Open:       func(int) (exec.Backend, error) { return New(Options{}), nil },
		Preference: 1,
	})
}
