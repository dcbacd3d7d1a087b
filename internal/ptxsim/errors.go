// This file implements the simulator's errors: ParseError for PTX it
// cannot parse or decode, and Error for a fault while a kernel runs,
// which names what compute-sanitizer would: the kernel, the instruction
// with its PTX line, the block and thread, and the address.

package ptxsim

import (
	"fmt"
	"strings"
)

// ParseError is PTX text the simulator rejects: a syntax error, an
// unknown instruction, type or modifier, or a construct it does not
// implement. Line is 1-based in the module text.
type ParseError struct {
	Line int
	Text string // the offending source line, trimmed
	Msg  string
}

// Error returns "ptxsim: line N (text): msg".
func (e *ParseError) Error() string {
	if e.Text != "" {
		return fmt.Sprintf("ptxsim: line %d (%s): %s", e.Line, e.Text, e.Msg)
	}
	return fmt.Sprintf("ptxsim: line %d: %s", e.Line, e.Msg)
}

// Fault kinds of an Error, so that callers can map them to driver error
// codes.
const (
	FaultOther      = iota
	FaultAddress    // an access outside every buffer, or in no state space
	FaultMisaligned // an access not aligned to its size
	FaultSync       // divergent or deadlocked barrier or warp-synchronous op
	FaultUndefined  // an operation whose result PTX leaves undefined
	FaultSteps      // the step budget ran out (a runaway loop)
	FaultHazard     // ld.global.nc of memory the kernel writes
	FaultTrap       // a thread executed trap
)

// Error is a fault of a running kernel.
type Error struct {
	Kernel string
	Kind   int    // FaultAddress, ...
	Line   int    // PTX line of the instruction, 0 if none
	Instr  string // the instruction's text
	CTA    [3]int // %ctaid of the thread
	Thread [3]int // %tid of the thread
	// Addr is the address involved, valid when HasAddr.
	Addr    uint64
	HasAddr bool
	// Source is "file:line" of the instruction from the module's .file
	// and .loc directives, "" when it has none.
	Source string
	Msg    string
}

// Error formats the fault with everything it knows.
func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "ptxsim: kernel %s", e.Kernel)
	if e.Line > 0 {
		fmt.Fprintf(&b, ", line %d (%s)", e.Line, e.Instr)
	}
	if e.Source != "" {
		fmt.Fprintf(&b, " at %s", e.Source)
	}
	if e.Kind != FaultHazard {
		fmt.Fprintf(&b, ", block (%d,%d,%d) thread (%d,%d,%d)",
			e.CTA[0], e.CTA[1], e.CTA[2], e.Thread[0], e.Thread[1], e.Thread[2])
	}
	if e.HasAddr {
		fmt.Fprintf(&b, ", address %#x", e.Addr)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}
