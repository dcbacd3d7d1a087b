// Registration: CUDA devices are the backends "cuda" and "cuda:N", and
// device 0 is the default where it opens.

package cuda

import "github.com/fuseflow/fuseflow/exec"

func init() {
	exec.Register("cuda", exec.Factory{
		Open: func(ordinal int) (exec.Backend, error) {
			b, err := New(ordinal)
			if err != nil {
				return nil, err
			}
			return b, nil
		},
		Numbered:   true,
		Preference: 2,
	})
}
