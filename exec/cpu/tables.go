// The loop tables' set-up and the switch between scalar and vector inner
// loops. The scalar loops fill the tables first; an architecture file
// (asm_amd64.go) then registers vector loops for some entries when the
// CPU has the features they need, and they are installed unless the
// switch FUSEFLOW_NOASM is on (read through internal/config).
// The math functions' loops call internal/vecmath, whose own switch
// between its vector code and its portable code is set with this one.
// Tests flip the switch to run both.

package cpu

import (
	"github.com/fuseflow/fuseflow/internal/config"
	"github.com/fuseflow/fuseflow/internal/vecmath"
)

// vecSlot is a table entry that has a vector loop; set installs it (on)
// or the scalar loop it replaced.
type vecSlot struct {
	name string
	set  func(on bool)
}

var (
	vecSlots []vecSlot
	vecOn    bool
)

// vectorize registers v as the vector loop of the table entry at p,
// keeping the scalar loop p holds now.
func vectorize[T any](name string, p *T, v T) {
	s := *p
	vecSlots = append(vecSlots, vecSlot{name: name, set: func(on bool) {
		if on {
			*p = v
		} else {
			*p = s
		}
	}})
}

// setVector installs the registered vector loops (on) or the scalar ones,
// with internal/gemm's assembly or portable kernels and internal/vecmath's
// vector or portable code to match, and returns the previous setting. It
// must not run while anything evaluates: the tables and vecmath's choice
// are read without synchronization, and plans lowered before keep the
// loops they resolved.
func setVector(on bool) bool {
	was := vecOn
	for _, s := range vecSlots {
		s.set(on)
	}
	vecmath.SetASM(on)
	vecOn = on && (len(vecSlots) > 0 || vecmath.Path() != "portable")
	gemmPortable = !on
	return was
}

func init() {
	initOpTabs()
	initFoldTab()
	registerVector()
	setVector(!config.Enabled(config.NoASM))
}
