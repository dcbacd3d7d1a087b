package ir

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestHalfConversionsVerify(t *testing.T) {
	f := NewFunc("badhalf")
	x := f.AddParam("x", gptrU32)
	b := NewBuilder(f)
	v := b.Load(b.Index(x, b.TidX()))
	b.Emit(OpF32ToF16, U16, v) // a u32 operand: must be f32
	b.Ret()
	err := f.Verify()
	require.Error(t, err)
	require.Contains(t, err.Error(), "f32tof16 converts f32 to u16, got u32 to u16")
}
