// FUSEFLOW_DEBUG: which debug output is on.

package config

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"unicode"
)

// Debug topics: what FUSEFLOW_DEBUG can turn on; "all" turns on every one.
const (
	DebugPlan = "plan" // each new plan (fuse.Explain) on standard error
	DebugPTX  = "ptx"  // each generated PTX module, with line numbers
)

// debugTopics lists the topics, in the order messages name them.
var debugTopics = []string{DebugPlan, DebugPTX}

// debugState is a parsed value of FUSEFLOW_DEBUG, kept until it changes.
type debugState struct {
	raw string
	on  map[string]bool
}

var lastDebug atomic.Pointer[debugState]

// Debugging reports whether FUSEFLOW_DEBUG turns on topic (DebugPlan or
// DebugPTX). The variable lists topics separated by commas or spaces, in
// any case; "all" turns on every topic. An unknown word is reported once
// on standard error. It panics for a topic it does not know. Safe for
// concurrent use.
func Debugging(topic string) bool {
	if !slices.Contains(debugTopics, topic) {
		panic(fmt.Sprintf("config: unknown debug topic %q", topic))
	}
	return parseDebug(os.Getenv(Debug)).on[topic]
}

// parseDebug returns the topics raw turns on, reporting unknown words.
func parseDebug(raw string) *debugState {
	if s := lastDebug.Load(); s != nil && s.raw == raw {
		return s
	}
	s := &debugState{raw: raw, on: map[string]bool{}}
	sep := func(r rune) bool { return r == ',' || unicode.IsSpace(r) }
	for _, w := range strings.FieldsFunc(raw, sep) {
		w = strings.ToLower(w)
		switch {
		case w == "all":
			for _, t := range debugTopics {
				s.on[t] = true
			}
		case slices.Contains(debugTopics, w):
			s.on[w] = true
		default:
			warnOnce(Debug, w, "unknown topic (want "+strings.Join(debugTopics, ", ")+" or all); ignored")
		}
	}
	lastDebug.Store(s)
	return s
}
