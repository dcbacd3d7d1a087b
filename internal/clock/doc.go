// Package clock is the timer the caching allocators (exec.Pool and the
// CUDA device pool) use to give back memory left idle: Real schedules
// calls with time.AfterFunc, which needs no goroutine until a call falls
// due, and Fake is a clock whose time moves only when a test advances it,
// so that tests of idle expiry neither sleep nor depend on the machine's
// speed.
package clock
