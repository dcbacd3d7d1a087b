// Indexing over every dtype pairing on the CPU backend against the
// reference evaluator.

package array_test

import (
	"testing"

	"github.com/fuseflow/fuseflow/exec/cpu"
	"github.com/fuseflow/fuseflow/exec/ref"
	"github.com/fuseflow/fuseflow/internal/indexcases"
)

func TestIndexEveryDTypeMatchesRef(t *testing.T) {
	indexcases.Check(t, ref.New(), cpu.New(cpu.Options{}))
}
