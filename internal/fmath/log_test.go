package fmath

import (
	"math"
	"testing"
)

func TestLog(t *testing.T) {
	tests := []struct {
		x, want float64
	}{
		// Expected values are the correctly rounded logarithms.
		{1e-310, -713.8013788281542},
		{5e-324, -744.4400719213812},
		{0x1p-1022, -708.3964185322641},
		{1, 0},
		{math.E, 1},
		{0, math.Inf(-1)},
	}
	for _, tt := range tests {
		if got := Log(tt.x); got != tt.want {
			t.Errorf("Log(%g) got:%v want:%v", tt.x, got, tt.want)
		}
	}
	if got := Log(-1); !math.IsNaN(got) {
		t.Errorf("Log(-1) got:%v want:NaN", got)
	}
}
