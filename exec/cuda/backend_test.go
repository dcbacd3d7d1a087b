// Tests of backend construction, device discovery into codegen.Target,
// Available, and the missing-driver behaviour.

package cuda

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/codegen"
)

func TestNewDiscoversTarget(t *testing.T) {
	_, b := fakeBackend(t, Options{})
	require.Equal(t, "cuda:0", b.Name())
	got := b.Target()
	want := codegen.Target{
		Name: "cuda:0 Fake GPU", SMs: 132,
		MaxThreadsPerBlock: 1024, MaxThreadsPerSM: 2048,
		MaxBlock: codegen.Dim3{X: 1024, Y: 1024, Z: 64}, MaxGrid: codegen.Dim3{X: 2147483647, Y: 65535, Z: 65535},
		SharedPerBlock: 49152, SharedPerSM: 233472,
		RegistersPerBlock: 65536, RegistersPerSM: 65536,
		WarpSize: 32, ComputeMajor: 9, ComputeMinor: 0,
	}
	require.Equal(t, want, got)
	d := b.Device()
	for _, c := range []struct {
		what      string
		got, want int
	}{
		{"opt-in shared per block", d.SharedMemPerBlockOptin, 232448},
		{"memory GiB", int(d.TotalMem >> 30), 1},
		{"max blocks per SM", d.MaxBlocksPerSM, 32},
	} {
		if c.got != c.want {
			t.Errorf("%s got:%v want:%v", c.what, c.got, c.want)
		}
	}
	require.Positive(t, b.DriverVersion())
}

func TestNewBadOrdinal(t *testing.T) {
	needFake(t)
	_, err := New(3)
	require.Error(t, err)
	require.Contains(t, err.Error(), "no device 3: the driver reports 1 device")
}

func TestTargetOfRejectsBrokenDevice(t *testing.T) {
	_, err := TargetOf(Device{Ordinal: 2, Name: "broken", SMs: 0, WarpSize: 32})
	require.ErrorContains(t, err, "device 2 (broken)")
}

func TestAvailable(t *testing.T) {
	needFake(t)
	ok, why := Available()
	require.True(t, ok)
	require.NoError(t, why)
	devs, v, err := Devices()
	require.NoError(t, err)
	require.Len(t, devs, 1)
	require.Equal(t, "Fake GPU", devs[0].Name)
	require.Positive(t, v)
}

// TestMissingDriver runs the test binary again with a driver path that
// does not exist: New and Available must say so, never fall back.
func TestMissingDriver(t *testing.T) {
	if os.Getenv(noDriverEnv) == "1" {
		ok, why := Available()
		if ok || !errors.Is(why, ErrNoDriver) {
			t.Fatalf("Available got:%v, %v want:false, ErrNoDriver", ok, why)
		}
		_, err := New(0)
		if !errors.Is(err, ErrNoDriver) || !strings.Contains(err.Error(), "/nonexistent/libcuda.so.1") {
			t.Fatalf("New got:%v want an ErrNoDriver naming the library", err)
		}
		if _, err := DeviceCount(); !errors.Is(err, ErrNoDriver) {
			t.Fatalf("DeviceCount got:%v want ErrNoDriver", err)
		}
		return
	}
	if testing.Short() && fake == nil {
		t.Skip("no fake driver")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestMissingDriver$", "-test.count=1")
	cmd.Env = append(os.Environ(), noDriverEnv+"=1")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "child: %s", out)
	require.Contains(t, string(out), "PASS")
}
