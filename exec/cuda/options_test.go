// Options given in code win over the environment: FastMath and Profile
// set Off stay off under FUSEFLOW_FASTMATH=1 and FUSEFLOW_PROFILE=1.

package cuda

import (
	"strings"
	"testing"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

func TestSwitchesWinOverEnv(t *testing.T) {
	needFake(t)
	x := graph.Input(graph.Float32, graph.Shape{64}, "x")
	y := graph.Input(graph.Float32, graph.Shape{64}, "y")
	div := graph.Binary(graph.OpDiv, x, y)
	tests := []struct {
		env        string
		opt        exec.Switch
		fast, prof bool
	}{
		{"", exec.FromEnv, false, false},
		{"1", exec.FromEnv, true, true},
		{"1", exec.Off, false, false},
		{"0", exec.On, true, true},
		{"", exec.On, true, true},
	}
	for _, tc := range tests {
		t.Setenv(FastMathEnv, tc.env)
		t.Setenv(ProfileEnv, tc.env)
		_, b := fakeBackend(t, Options{FastMath: tc.opt, Profile: tc.opt})
		text := compiledPTX(t, b, div)
		// Fast math divides float32 with div.full.f32, accurate math
		// with the correctly rounded div.rn.f32.
		if got := strings.Contains(text, "div.full.f32"); got != tc.fast || strings.Contains(text, "div.rn.f32") == tc.fast {
			t.Errorf("env=%q FastMath=%v: fast division got:%v want:%v", tc.env, tc.opt, got, tc.fast)
		}
		if b.profile != tc.prof {
			t.Errorf("env=%q Profile=%v: profiling got:%v want:%v", tc.env, tc.opt, b.profile, tc.prof)
		}
	}
}
