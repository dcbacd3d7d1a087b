package enum

import "testing"

type mode uint8

type level int

func TestName(t *testing.T) {
	names := []string{"zero", "", "two"}
	for _, tc := range []struct {
		got, want string
	}{
		{Name(names, mode(0), "mode?"), "zero"},
		{Name(names, mode(2), "mode?"), "two"},
		{Name(names, mode(1), "mode?"), "mode?"},   // no name
		{Name(names, mode(3), "mode?"), "mode?"},   // past the table
		{Name(names, mode(255), "mode?"), "mode?"}, // far past it
		{Name(names, level(-1), "level?"), "level?"},
		{Numbered(names, level(2), "level"), "two"},
		{Numbered(names, level(-1), "level"), "level(-1)"},
		{Numbered(names, mode(3), "mode"), "mode(3)"},
		{Numbered(names, mode(1), "mode"), ""}, // an empty name is a name
		{Numbered(names, mode(200), "Op"), "Op(200)"},
		{Numbered(nil, uint64(1<<63), "big"), "big(9223372036854775808)"},
	} {
		if tc.got != tc.want {
			t.Errorf("got:%q want:%q", tc.got, tc.want)
		}
	}
}
