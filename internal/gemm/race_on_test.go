//go:build race

package gemm_test

// raceOn shrinks the larger test cases under the race detector.
const raceOn = true
