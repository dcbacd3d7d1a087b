// Package ptxas runs NVIDIA's PTX assembler, ptxas, on PTX text: it proves
// that generated PTX is valid for a GPU architecture and reports what the
// assembler made of it (registers, shared, local and constant memory, stack
// and spills per function).
//
// The binary is found by Find: the FUSEFLOW_PTXAS environment variable, else
// the project's cache (CachePath, filled by scripts/fetch-ptxas.sh, which
// fetches CUDA 11.8's standalone ptxas from Debian's non-free section), else
// ptxas on PATH. Nothing here needs a GPU or a CUDA installation.
//
// Assemble runs ptxas on a PTX module for one architecture. A module that
// does not assemble comes back as an *AssembleError holding ptxas's
// diagnostics verbatim, parsed into line-numbered Diagnostics, followed by
// the PTX lines they point at.
//
// Tests of other packages use Require, which returns the path of ptxas or
// skips the test with a message saying how to fetch it (or fails it when
// FUSEFLOW_REQUIRE_PTXAS=1, as in CI), and AssembleAll, which asserts that a
// module assembles for sm_80 and sm_90.
package ptxas
