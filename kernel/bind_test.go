// This file tests Bind0 to Bind12 (each passes its arguments in order,
// converting to named parameter types) and what New fills into a Spec.

package kernel_test

import (
	"fmt"
	"testing"

	"github.com/fuseflow/fuseflow/kernel"
	"github.com/stretchr/testify/require"
)

func TestBindArity(t *testing.T) {
	var got []int
	rec := func(vs ...int) { got = append([]int{}, vs...) }
	type i = int
	cases := []func([]any) func(kernel.Thread){
		kernel.Bind0(func(kernel.Thread) { rec() }),
		kernel.Bind1(func(_ kernel.Thread, a i) { rec(a) }),
		kernel.Bind2(func(_ kernel.Thread, a, b i) { rec(a, b) }),
		kernel.Bind3(func(_ kernel.Thread, a, b, c i) { rec(a, b, c) }),
		kernel.Bind4(func(_ kernel.Thread, a, b, c, d i) { rec(a, b, c, d) }),
		kernel.Bind5(func(_ kernel.Thread, a, b, c, d, e i) { rec(a, b, c, d, e) }),
		kernel.Bind6(func(_ kernel.Thread, a, b, c, d, e, f i) { rec(a, b, c, d, e, f) }),
		kernel.Bind7(func(_ kernel.Thread, a, b, c, d, e, f, g i) { rec(a, b, c, d, e, f, g) }),
		kernel.Bind8(func(_ kernel.Thread, a, b, c, d, e, f, g, h i) { rec(a, b, c, d, e, f, g, h) }),
		kernel.Bind9(func(_ kernel.Thread, a, b, c, d, e, f, g, h, j i) { rec(a, b, c, d, e, f, g, h, j) }),
		kernel.Bind10(func(_ kernel.Thread, a, b, c, d, e, f, g, h, j, k i) { rec(a, b, c, d, e, f, g, h, j, k) }),
		kernel.Bind11(func(_ kernel.Thread, a, b, c, d, e, f, g, h, j, k, l i) { rec(a, b, c, d, e, f, g, h, j, k, l) }),
		kernel.Bind12(func(_ kernel.Thread, a, b, c, d, e, f, g, h, j, k, l, m i) { rec(a, b, c, d, e, f, g, h, j, k, l, m) }),
	}
	require.Len(t, cases, kernel.MaxBindParams+1)
	for n, bind := range cases {
		args, want := make([]any, n), make([]int, n)
		for j := range n {
			args[j], want[j] = 10+j, 10+j
		}
		got = nil
		bind(args)(kernel.Thread{})
		require.Equal(t, want, got, "Bind%d", n)
	}
}

type celsius float32

type temps []float32

func TestBindNamedTypes(t *testing.T) {
	var gotC celsius
	var gotT temps
	body := kernel.Bind2(func(_ kernel.Thread, c celsius, ts temps) { gotC, gotT = c, ts })(
		[]any{float32(21.5), []float32{1, 2}})
	body(kernel.Thread{})
	require.Equal(t, celsius(21.5), gotC)
	require.Equal(t, temps{1, 2}, gotT)
}

func TestNewFillsSpec(t *testing.T) {
	const text = "//\n// Generated\n\n.version 7.8\n.target sm_90, debug\n.address_size 64\n"
	for _, c := range []struct {
		in                        kernel.Spec
		entry, target, ptxVersion string
	}{
		{kernel.Spec{Name: "k", PTX: text}, "k", "sm_90", "7.8"},
		{kernel.Spec{Name: "k", Entry: "e", PTX: text, Target: "sm_80", PTXVersion: "8.0"}, "e", "sm_80", "8.0"},
		{kernel.Spec{Name: "k"}, "k", "", ""},
	} {
		s := kernel.New(c.in).Spec()
		got := fmt.Sprint(s.Entry, " ", s.Target, " ", s.PTXVersion)
		want := fmt.Sprint(c.entry, " ", c.target, " ", c.ptxVersion)
		if got != want {
			t.Errorf("New(%+v) got:%v want:%v", c.in, got, want)
		}
	}
}
