// Package philox implements the Philox4x32-10 counter-based random number
// generator (Salmon et al., "Parallel Random Numbers: As Easy as 1, 2, 3",
// SC 2011) and the conversions fuseflow uses to turn its words into
// uniform and normal floats. Every backend draws the same bits for the same
// seed and element index, so random arrays are bit-identical on CPU and GPU.
//
// Element i of a random array of seed s uses the counter (lo32(i),
// hi32(i), 0, 0) and the key (lo32(s), hi32(s)).
package philox
