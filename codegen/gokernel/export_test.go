// This file exports to the package's external tests the slice encoding
// a launch uses, so that they lay out memory for the PTX simulator the
// same way.

package gokernel

// HostBytes and ReadHost are hostBytes and readHost.
var (
	HostBytes = hostBytes
	ReadHost  = readHost
)
