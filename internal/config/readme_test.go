// The README's Environment table names exactly the variables of Vars, in
// their order, each switch written NAME=1.

package config

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readmeVars returns the first column of the README's Environment table,
// without the backquotes.
func readmeVars(t *testing.T) []string {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## "):
			in = line == "## Environment"
		case in && strings.HasPrefix(line, "| `"):
			cell := strings.TrimSpace(strings.Split(line, "|")[1])
			out = append(out, strings.Trim(cell, "`"))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestREADMEListsEveryVariable(t *testing.T) {
	var want []string
	for _, v := range Vars {
		name := v.Name
		if v.Kind == Switch {
			name += "=1"
		}
		want = append(want, name)
	}
	got := readmeVars(t)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("README's Environment table:\ngot:%v\nwant:%v", got, want)
	}
}
