package le

import "testing"

func TestRoundTrip(t *testing.T) {
	const v = 0x8877665544332211
	tests := []struct {
		n    int
		want uint64
		mem  []byte
	}{
		{1, 0x11, []byte{0x11}},
		{2, 0x2211, []byte{0x11, 0x22}},
		{4, 0x44332211, []byte{0x11, 0x22, 0x33, 0x44}},
		{8, v, []byte{0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88}},
	}
	for _, tc := range tests {
		b := make([]byte, 9)
		Put(b, tc.n, v)
		if string(b[:tc.n]) != string(tc.mem) || b[tc.n] != 0 {
			t.Errorf("Put(%d) got:%x want:%x", tc.n, b, tc.mem)
		}
		if got := Get(b, tc.n); got != tc.want {
			t.Errorf("Get(%d) got:%#x want:%#x", tc.n, got, tc.want)
		}
	}
}
