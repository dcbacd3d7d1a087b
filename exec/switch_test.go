package exec

import "testing"

func TestSwitchResolve(t *testing.T) {
	tests := []struct {
		s    Switch
		env  string
		want bool
	}{
		{FromEnv, "", false},
		{FromEnv, "1", true},
		{FromEnv, "0", false},
		{On, "", true},
		{On, "0", true},
		{Off, "1", false},
		{Off, "", false},
	}
	for _, tc := range tests {
		t.Setenv("FUSEFLOW_FASTMATH", tc.env)
		if got := tc.s.Resolve("FUSEFLOW_FASTMATH"); got != tc.want {
			t.Errorf("%v with FUSEFLOW_FASTMATH=%q: got:%v want:%v", tc.s, tc.env, got, tc.want)
		}
	}
	for s, want := range map[Switch]string{FromEnv: "FromEnv", On: "On", Off: "Off", 7: "Switch(7)"} {
		if got := s.String(); got != want {
			t.Errorf("String got:%q want:%q", got, want)
		}
	}
}
