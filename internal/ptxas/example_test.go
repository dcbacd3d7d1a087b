// example_test.go shows how to assemble PTX and where ptxas is cached.

package ptxas_test

import (
	"fmt"
	"os"

	"github.com/fuseflow/fuseflow/internal/ptxas"
)

// A kernel that stores its thread index; ptxas reports its resource usage.
const storeTid = `.version 7.8
.target sm_80
.address_size 64

.visible .entry store_tid(.param .u64 out)
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd3, %r1, 4;
	add.s64 %rd2, %rd2, %rd3;
	st.global.u32 [%rd2], %r1;
	ret;
}
`

// Example assembles a kernel for sm_80. Its output depends on the ptxas
// found, so it is compiled but not run by go test.
func Example() {
	info, err := ptxas.Assemble(storeTid, "sm_80")
	if err != nil {
		fmt.Println(err) // ErrNotFound, or ptxas's diagnostics with line numbers
		return
	}
	k, _ := info.Function("store_tid")
	fmt.Printf("%s: %d registers, %d bytes shared\n", k.Name, k.Registers, k.SharedBytes)
}

// ExampleCachePath shows where scripts/fetch-ptxas.sh puts ptxas.
func ExampleCachePath() {
	old, had := os.LookupEnv(ptxas.EnvCache)
	os.Setenv(ptxas.EnvCache, "/var/cache/fuseflow")
	defer func() {
		if had {
			os.Setenv(ptxas.EnvCache, old)
		} else {
			os.Unsetenv(ptxas.EnvCache)
		}
	}()
	path, _ := ptxas.CachePath()
	fmt.Println(path)
	// Output: /var/cache/fuseflow/cuda-11.8/ptxas
}
