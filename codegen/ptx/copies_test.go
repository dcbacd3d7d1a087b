// This file tests the ordering of parallel copies: swaps, rotations,
// chains, fan-out and self-copies, checked by running the sequential moves
// on a register file and comparing with the parallel semantics.

package ptx

import (
	"maps"
	"strconv"
	"testing"
)

// runMoves returns regs after moves, each reading the registers as the
// moves before it left them (sequential) or as they were at the start.
func runMoves(regs map[string]string, moves []move, sequential bool) map[string]string {
	out := maps.Clone(regs)
	from := regs
	if sequential {
		from = out
	}
	for _, m := range moves {
		out[m.dst] = read(from, m.src)
	}
	return out
}

// read returns a register's content, or an immediate itself.
func read(regs map[string]string, src string) string {
	if v, ok := regs[src]; ok {
		return v
	}
	return src
}

func TestSequence(t *testing.T) {
	mv := func(pairs ...string) []move {
		var ms []move
		for i := 0; i < len(pairs); i += 2 {
			ms = append(ms, move{dst: pairs[i], src: pairs[i+1], class: class32})
		}
		return ms
	}
	tests := []struct {
		name  string
		moves []move
		temps int // scratch registers needed
		count int // moves emitted, scratch saves included
	}{
		{"empty", nil, 0, 0},
		{"self", mv("a", "a", "b", "b"), 0, 0},
		{"chain", mv("a", "b", "b", "c", "c", "d"), 0, 3},
		{"swap", mv("a", "b", "b", "a"), 1, 3},
		{"rotate3", mv("a", "b", "b", "c", "c", "a"), 1, 4},
		{"two swaps", mv("a", "b", "b", "a", "c", "d", "d", "c"), 2, 6},
		{"fan-out", mv("a", "x", "b", "x", "c", "x"), 0, 3},
		{"swap with reader", mv("a", "b", "b", "a", "c", "a"), 0, 3},
		{"cycle feeding a chain", mv("a", "b", "b", "c", "c", "a", "d", "c", "e", "d"), 0, 5},
		{"immediates", mv("a", "1", "b", "a", "c", "0f3F800000"), 0, 3},
		{"swap and self", mv("a", "b", "b", "a", "c", "c"), 1, 3},
		{"rotate5", mv("a", "b", "b", "c", "c", "d", "d", "e", "e", "a"), 1, 6},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			regs := map[string]string{}
			for _, m := range tc.moves {
				regs[m.dst] = "v_" + m.dst
				if _, ok := regs[m.src]; !ok && m.src[0] >= 'a' && m.src[0] <= 'z' {
					regs[m.src] = "v_" + m.src
				}
			}
			temps := 0
			tmp := func(c regClass) string {
				if c != class32 {
					t.Errorf("scratch of class %d, want %d", c, class32)
				}
				temps++
				return "%t" + strconv.Itoa(temps)
			}
			seq := sequence(tc.moves, tmp)
			want := runMoves(regs, tc.moves, false)
			got := runMoves(regs, seq, true)
			for k, v := range want {
				if got[k] != v {
					t.Errorf("register %s: got:%v want:%v (moves %v)", k, got[k], v, seq)
				}
			}
			if temps != tc.temps {
				t.Errorf("scratch registers: got:%v want:%v", temps, tc.temps)
			}
			if len(seq) != tc.count {
				t.Errorf("moves: got:%v want:%v (%v)", len(seq), tc.count, seq)
			}
		})
	}
}
