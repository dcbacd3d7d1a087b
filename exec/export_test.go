// Internal functions exported to the external tests.

package exec

// ReadMeminfo is readMeminfo, for tests.
var ReadMeminfo = readMeminfo
