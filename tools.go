//go:build tools

// Package fuseflow pins the modules the project builds on, so go mod tidy keeps them.
package fuseflow

import (
	_ "github.com/apache/arrow-go/v18/arrow"
	_ "github.com/apache/arrow-go/v18/arrow/array"
	_ "github.com/apache/arrow-go/v18/arrow/memory"
	_ "github.com/ebitengine/purego"
	_ "github.com/stretchr/testify/require"
	_ "gonum.org/v1/gonum/blas/blas32"
	_ "gonum.org/v1/gonum/blas/blas64"
	_ "gonum.org/v1/gonum/mat"
	_ "golang.org/x/tools/go/ssa"
)
