// Without vector loops the comparator networks of sortnet.go are not
// used (netLanes32 is 0): short rows go through the merge sort.

//go:build !amd64 || purego

package cpu

// netLanes32 is 0: no network.
var netLanes32 = 0

// netCmp32 is never called without vector loops.
func netCmp32(block []uint32, pairs []uint32) {
	panic("cpu: netCmp32 without vector loops")
}
