// This file implements the record of a compiled kernel in its PTX file:
// kernelgen writes a Spec (all of it but Bind and the PTX itself) as
// //fuseflow: comment lines at the top of the PTX it emits, and FromPTX
// reads them back, so that a generated kernel is declared in Go as its
// binding and its PTX alone:
//
//	//fuseflow:kernel Saxpy
//	//fuseflow:param a float32
//	//fuseflow:param y []float32 written
//	//fuseflow:sync barrier warp shared
//	//fuseflow:shared 4096
//	//fuseflow:check saxpy.go:18:13: index out of range
//	//fuseflow:nobounds

package kernel

import (
	"fmt"
	"io/fs"
	"strconv"
	"strings"
)

// recordPrefix starts every line of a record.
const recordPrefix = "//fuseflow:"

// syncNames are the words of the sync line, in flag order.
var syncNames = [...]struct {
	flag Sync
	name string
}{{SyncBarrier, "barrier"}, {SyncWarp, "warp"}, {SyncShared, "shared"}}

// Record returns the record of s that kernelgen writes at the top of the
// PTX file: its name, one line per parameter, the cooperation flags, the
// shared memory, one line per check site in the order of their codes,
// and NoBounds. Entry, Bind, PTX, Target and PTXVersion are not in it
// (FromPTX sets Entry to the name and reads the others from the PTX).
func (s Spec) Record() string {
	var b strings.Builder
	line := func(key, value string) { b.WriteString(recordPrefix + strings.TrimSpace(key+" "+value) + "\n") }
	line("kernel", s.Name)
	for _, p := range s.Params {
		param := p.String()
		if p.Written {
			param += " written"
		}
		line("param", param)
	}
	var sync []string
	for _, n := range syncNames {
		if s.Sync&n.flag != 0 {
			sync = append(sync, n.name)
		}
	}
	if len(sync) > 0 {
		line("sync", strings.Join(sync, " "))
	}
	if s.SharedBytes > 0 {
		line("shared", strconv.Itoa(s.SharedBytes))
	}
	for _, c := range s.Checks {
		line("check", c)
	}
	if s.NoBounds {
		line("nobounds", "")
	}
	return b.String()
}

// FromPTX returns the kernel whose record (see Spec.Record) heads the PTX
// text, launching the Go function through bind (Bind0 to Bind12) on the
// CPU and the PTX on a GPU. It is an error for a PTX without a record or
// with a line of it that does not parse.
func FromPTX(bind func([]any) func(Thread), ptx string) (*Kernel, error) {
	s, err := parseRecord(ptx)
	if err != nil {
		return nil, err
	}
	s.Bind, s.PTX = bind, ptx
	return New(s), nil
}

// FromFS is FromPTX of the PTX in the file name of fsys: kernelgen's
// generated files embed the PTX files of their kernels in an embed.FS.
func FromFS(bind func([]any) func(Thread), fsys fs.FS, name string) (*Kernel, error) {
	text, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("kernel: %w", err)
	}
	k, err := FromPTX(bind, string(text))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return k, nil
}

// MustFromFS is FromFS for the files kernelgen generates: it panics where
// FromFS fails, which only a generated file edited or removed by hand
// makes happen (go generate rewrites them).
func MustFromFS(bind func([]any) func(Thread), fsys fs.FS, name string) *Kernel {
	k, err := FromFS(bind, fsys, name)
	if err != nil {
		panic(err.Error() + " (run go generate)")
	}
	return k
}

// parseRecord reads the record from the comment lines at the top of the
// PTX text.
func parseRecord(text string) (Spec, error) {
	var s Spec
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "//") {
			if line == "" {
				continue
			}
			break // the end of the leading comments
		}
		rest, ok := strings.CutPrefix(line, recordPrefix)
		if !ok {
			continue
		}
		key, value, _ := strings.Cut(rest, " ")
		if err := s.parseLine(key, strings.TrimSpace(value)); err != nil {
			return Spec{}, fmt.Errorf("kernel: PTX record line %q: %w", line, err)
		}
	}
	if s.Name == "" {
		return Spec{}, fmt.Errorf("kernel: the PTX has no %skernel line", recordPrefix)
	}
	return s, nil
}

// parseLine sets what one record line says in s.
func (s *Spec) parseLine(key, value string) error {
	switch key {
	case "kernel":
		if s.Name != "" || value == "" {
			return fmt.Errorf("want one kernel line with the kernel's name")
		}
		s.Name = value
	case "param":
		p, err := parseParam(value)
		if err != nil {
			return err
		}
		s.Params = append(s.Params, p)
	case "sync":
	words:
		for w := range strings.FieldsSeq(value) {
			for _, n := range syncNames {
				if w == n.name {
					s.Sync |= n.flag
					continue words
				}
			}
			return fmt.Errorf("unknown cooperation %q", w)
		}
	case "shared":
		n, err := strconv.Atoi(value)
		if err != nil || n <= 0 {
			return fmt.Errorf("want a positive byte count")
		}
		s.SharedBytes = n
	case "check":
		if value == "" {
			return fmt.Errorf("want a check site")
		}
		s.Checks = append(s.Checks, value)
	case "nobounds":
		s.NoBounds = true
	default:
		return fmt.Errorf("unknown key %q", key)
	}
	return nil
}

// parseParam reads "name T", "name []T" or "name []T written".
func parseParam(value string) (Param, error) {
	f := strings.Fields(value)
	written := len(f) == 3 && f[2] == "written"
	if len(f) != 2 && !written {
		return Param{}, fmt.Errorf("want name, type and an optional written")
	}
	p := Param{Name: f[0], Written: written}
	elem, slice := strings.CutPrefix(f[1], "[]")
	p.Slice = slice
	for t := Bool; t < numTypes; t++ {
		if typeInfo[t].name == elem {
			p.Type = t
		}
	}
	if p.Type == Invalid {
		return Param{}, fmt.Errorf("unknown type %q", f[1])
	}
	if p.Written && !p.Slice {
		return Param{}, fmt.Errorf("only a slice can be written")
	}
	return p, nil
}
