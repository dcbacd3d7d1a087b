// Package enum names the values of the project's small enumerations (ops,
// kinds, strategies, modes) from their tables of names, one entry per
// value, with a fallback for a value outside the table.
package enum

import "fmt"

// Integer is the underlying type of an enumeration.
type Integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// Name returns names[v], or unknown when v is outside names or has no
// name there (""): for tables keyed by value, which may leave gaps.
func Name[T Integer](names []string, v T, unknown string) string {
	if in(names, v) && names[v] != "" {
		return names[v]
	}
	return unknown
}

// Numbered returns names[v], "" included (the name of a default, such as
// an empty qualifier), or kind(v), such as "Op(200)", when v is outside
// names.
func Numbered[T Integer](names []string, v T, kind string) string {
	if in(names, v) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", kind, v)
}

// in reports whether v indexes names.
func in[T Integer](names []string, v T) bool {
	return v >= 0 && uint64(v) < uint64(len(names))
}
