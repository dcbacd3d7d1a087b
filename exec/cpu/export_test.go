// Test hooks for the external tests.

package cpu

// SetVector installs the vector inner loops (on) or the scalar ones and
// returns the previous setting; see setVector.
var SetVector = setVector
