// The generator draws sorts only when asked, and then often.

package randgraph_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/internal/randgraph"
)

func TestSortGenerated(t *testing.T) {
	for _, on := range []bool{false, true} {
		sorts := 0
		for seed := range uint64(60) {
			alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
			c, err := randgraph.Generate(rand.New(rand.NewPCG(seed, 1)), alloc, randgraph.Config{Sort: on})
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range c.Desc {
				if strings.Contains(d, "Sort(") || strings.Contains(d, "TopK(") {
					sorts++
				}
			}
			c.Release()
			alloc.AssertSize(t, 0)
		}
		if on && sorts < 20 || !on && sorts != 0 {
			t.Errorf("Sort %v: got:%d sorts in 60 graphs want:%s", on, sorts, map[bool]string{true: ">= 20", false: "0"}[on])
		}
	}
}
