// The fake driver's record of the last launch, read the same way by every
// test package that binds fake_last_launch.

package fake

import "bytes"

// LastLaunchFunc is fake_last_launch as purego binds it: it copies the
// grid, the block and the dynamic shared memory size into dims (7
// values), up to max parameter words into params and the kernel's name
// into name, and returns the number of parameter words.
type LastLaunchFunc = func(dims *uint32, params *uint64, max int32, name *byte, namelen int32) int32

// Launch is what the fake recorded about the last launch.
type Launch struct {
	Grid, Block [3]uint32
	Shared      uint32
	Params      []uint64
	Name        string
}

// LastLaunch reads the record of the last launch with last.
func LastLaunch(last LastLaunchFunc) Launch {
	var dims [7]uint32
	var params [32]uint64
	var name [128]byte
	n := last(&dims[0], &params[0], int32(len(params)), &name[0], int32(len(name)))
	end := bytes.IndexByte(name[:], 0)
	if end < 0 {
		end = len(name)
	}
	return Launch{
		Grid:   [3]uint32{dims[0], dims[1], dims[2]},
		Block:  [3]uint32{dims[3], dims[4], dims[5]},
		Shared: dims[6],
		Params: append([]uint64(nil), params[:n]...),
		Name:   string(name[:end]),
	}
}
