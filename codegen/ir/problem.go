// This file implements positioned diagnostics: a Problem names the
// function, block and instruction it concerns; VerifyError collects them.

package ir

import (
	"fmt"
	"strings"
)

// Problem is one diagnostic about a function: where (function, block,
// instruction index and text) and what.
type Problem struct {
	Func  string // function name
	Block string // block name, empty for function-level problems
	Index int    // instruction index in the block, -1 for the block itself
	Instr string // the instruction as printed, empty when none
	Pos   Pos    // the instruction's source position, zero when none
	Msg   string
}

// String formats the problem as "@func: block b, instr 3 (%4 = add.s32 ...): msg",
// prefixed with "file:line:col: " when the instruction has a position.
func (p Problem) String() string {
	var sb strings.Builder
	if p.Pos.IsValid() {
		sb.WriteString(p.Pos.String() + ": ")
	}
	sb.WriteString("@" + p.Func)
	if p.Block != "" {
		sb.WriteString(": block " + p.Block)
		if p.Index >= 0 {
			fmt.Fprintf(&sb, ", instr %d", p.Index)
		}
		if p.Instr != "" {
			sb.WriteString(" (" + p.Instr + ")")
		}
	}
	sb.WriteString(": " + p.Msg)
	return sb.String()
}

// VerifyError is the error Verify returns: every problem found, in block
// and instruction order.
type VerifyError struct {
	Problems []Problem
}

// Error lists all problems, one per line.
func (e *VerifyError) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	return fmt.Sprintf("ir: %d problem(s):\n  %s", len(e.Problems), strings.Join(lines, "\n  "))
}
