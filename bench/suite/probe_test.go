package suite

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// TestProbe checks that Probe draws the same list from the same seed and
// different ones from others, that names are unique and carry the kind,
// that the text form reads back, that every kind is drawn, and that
// every workload builds at full size and runs scaled down.
func TestProbe(t *testing.T) {
	kinds := map[string]int{}
	for seed := uint64(1); seed <= 6; seed++ {
		ws := Probe(seed, 60)
		if !reflect.DeepEqual(ws, Probe(seed, 60)) {
			t.Fatalf("seed %d: two draws differ", seed)
		}
		if reflect.DeepEqual(ws[0].Inputs, Probe(seed+100, 60)[0].Inputs) && ws[0].Expr == Probe(seed+100, 60)[0].Expr {
			t.Errorf("seed %d and %d: same first workload %s", seed, seed+100, ws[0].Name)
		}
		names := map[string]bool{}
		for _, w := range ws {
			if names[w.Name] {
				t.Fatalf("seed %d: name %s twice", seed, w.Name)
			}
			names[w.Name] = true
			kinds[strings.Split(w.Name, ".")[2]]++
		}
		var buf bytes.Buffer
		if err := FormatWith(&buf, "probe\nsecond line", ws); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(buf.String(), "# probe\n# second line\n") {
			t.Fatalf("header: got:%q", buf.String()[:30])
		}
		got, err := Parse(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, ws) {
			t.Fatalf("seed %d: Parse(FormatWith) differs", seed)
		}
		requireRuns(t, ws)
	}
	for _, k := range ProbeKinds {
		if kinds[k] == 0 {
			t.Errorf("kind %s never drawn in 360 workloads (got:%v)", k, kinds)
		}
	}
}

// TestInCacheList checks that bench/incache.txt reads and that each of
// its workloads builds and runs.
func TestInCacheList(t *testing.T) {
	ws, err := Load("../incache.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) < 50 {
		t.Fatalf("got:%d workloads want:at least 50", len(ws))
	}
	requireRuns(t, ws)
}
