// Package config is the one place fuseflow reads its environment. Every
// FUSEFLOW_* variable is listed in Vars, read through Value, Flag or
// Debug, and described in the README's Environment table (a test keeps
// the table and Vars in step). Malformed values are reported once on
// standard error, naming the variable, and otherwise ignored.
//
// Options given in code win over the environment: a package asks config
// only for what its caller left to the environment (see exec.Switch).
// Values are read when asked for, not cached at start-up, so a test that
// sets a variable sees the change; what a package decides once per
// process (the CPU executor's vector loops, the CUDA driver library) it
// decides on first use.
//
// The test tooling's variables (FUSEFLOW_PTXAS, FUSEFLOW_CACHE,
// FUSEFLOW_REQUIRE_PTXAS, FUSEFLOW_REQUIRE_GCC, FUSEFLOW_HALF_LONG) are listed and read here
// too, so that one list names every variable a fuseflow binary or test
// reads. Shell scripts (scripts/fetch-ptxas.sh, the Makefile, .ci/run)
// read some of them on their own, and a test that runs its own binary
// again may pass it a variable of its own (exec/cuda's
// FUSEFLOW_CUDA_TEST_NODRIVER): that is a message between two test
// processes, not configuration.
package config
