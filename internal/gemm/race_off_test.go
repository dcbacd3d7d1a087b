//go:build !race

package gemm_test

const raceOn = false
