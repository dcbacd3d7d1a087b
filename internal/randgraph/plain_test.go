// The generator with NoExtremes and NoPatterns draws the graphs of its
// first version, so that seeds and fuzz corpora recorded with it replay.

package randgraph_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"

	"testing"

	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/randgraph"
)

// digestOf hashes what gen generates for seeds 0-299 under three
// configurations: each node's description, the outputs and their
// exactness, and the bytes of every bound input.
func digestOf(gen func(seed uint64, cfg randgraph.Config) (*randgraph.Case, error)) string {
	h := sha256.New()
	for seed := range uint64(300) {
		for _, cfg := range []randgraph.Config{{}, {MaxExtent: 12}, {MaxRank: 4, MaxExtent: 7, Steps: 20}} {
			c, err := gen(seed, cfg)
			if err != nil {
				return err.Error()
			}
			fmt.Fprintln(h, strings.Join(c.Desc, "\n"))
			for i, o := range c.Outputs {
				fmt.Fprintln(h, graph.Label(o), c.Exact[i])
			}
			var ins []*graph.Node
			for n := range c.Bound {
				ins = append(ins, n)
			}
			sort.Slice(ins, func(i, j int) bool { return ins[i].Attr().Label < ins[j].Attr().Label })
			for _, n := range ins {
				t := c.Bound[n]
				fmt.Fprintln(h, n.Attr().Label, t.Shape, t.Strides, t.Offset)
				h.Write(t.Buf.Bytes())
			}
			c.Release()
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// firstVersion is digestOf the generator before Config had NoExtremes and
// NoPatterns.
const firstVersion = "0537f7f430ca935437a99015979e08013a988beb8d8d549da8c823c9a9394456"

func TestPlainIsFirstVersion(t *testing.T) {
	got := digestOf(func(seed uint64, cfg randgraph.Config) (*randgraph.Case, error) {
		cfg.NoExtremes, cfg.NoPatterns = true, true
		return randgraph.Generate(seedRand(seed), alloc0, cfg)
	})
	if got != firstVersion {
		t.Fatalf("digest got:%s want:%s", got, firstVersion)
	}
}
