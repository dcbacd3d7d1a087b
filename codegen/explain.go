// Annotate: what Explain shows of a plan on a GPU — each kernel's launch
// geometry and the launches its code makes.

package codegen

import (
	"fmt"
	"strings"

	"github.com/fuseflow/fuseflow/fuse"
)

// annotation is the fuse.Annotator of a plan lowered for a target.
type annotation struct {
	target string
	notes  []string
}

func (a *annotation) Target() string { return a.target }

func (a *annotation) Kernel(i int) string {
	if i < 0 || i >= len(a.notes) {
		return ""
	}
	return a.notes[i]
}

// Annotate returns the fuse.Annotator that shows, in fuse.ExplainFor,
// the geometry ChooseGeometry picks for each kernel of p on t and the
// launches Lower makes of it ("block 256 grid 1056 items 4 vector 4
// index32 true; launch grid 1056 block 256"). It returns the first error
// of ChooseGeometry or Lower, naming the kernel. Safe for concurrent use.
func Annotate(p *fuse.Plan, t Target) (fuse.Annotator, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	a := &annotation{target: t.Name, notes: make([]string, len(p.Kernels))}
	for i := range p.Kernels {
		k := &p.Kernels[i]
		if k.Call() != nil {
			a.notes[i] = "explicit kernel " + k.Call().Kernel.Name() + " (its own PTX)"
			continue
		}
		g, err := ChooseGeometry(k, t)
		if err != nil {
			return nil, err
		}
		_, sig, err := LowerGeometry(k, t, g)
		if err != nil {
			return nil, err
		}
		var sb strings.Builder
		sb.WriteString(g.String())
		for _, l := range sig.Launches {
			fmt.Fprintf(&sb, "; launch %v", l)
		}
		a.notes[i] = sb.String()
	}
	return a, nil
}
