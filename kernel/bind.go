// This file implements Bind0 to Bind12, the Spec.Bind of a Go kernel
// function by its number of parameters after the Thread: kernelgen
// writes Bind: kernel.Bind3(Saxpy) instead of a closure per kernel. The
// arguments are unpacked once per launch; each thread calls the function
// directly, with no reflection.

package kernel

import "reflect"

// MaxBindParams is the most parameters after the Thread that a Bind
// function takes (Bind12).
const MaxBindParams = 12

// argAs returns args[i] as T, the Go type of the kernel's parameter: the
// checked argument itself, or that argument converted to T where T is a
// named type of the argument's type (type Celsius float32). It panics
// where neither holds, which Kernel's argument checks rule out.
func argAs[T any](args []any, i int) T {
	if v, ok := args[i].(T); ok {
		return v
	}
	return reflect.ValueOf(args[i]).Convert(reflect.TypeFor[T]()).Interface().(T)
}

// Bind0 returns the Spec.Bind of a kernel without parameters after the
// Thread.
func Bind0(f func(Thread)) func([]any) func(Thread) {
	return func([]any) func(Thread) { return f }
}

// Bind1 returns the Spec.Bind of a kernel with one parameter after the
// Thread.
func Bind1[A any](f func(Thread, A)) func([]any) func(Thread) {
	return func(args []any) func(Thread) {
		a := argAs[A](args, 0)
		return func(t Thread) { f(t, a) }
	}
}

// Bind2 is Bind1 for two parameters.
func Bind2[A, B any](f func(Thread, A, B)) func([]any) func(Thread) {
	return func(args []any) func(Thread) {
		a, b := argAs[A](args, 0), argAs[B](args, 1)
		return func(t Thread) { f(t, a, b) }
	}
}

// Bind3 is Bind1 for three parameters.
func Bind3[A, B, C any](f func(Thread, A, B, C)) func([]any) func(Thread) {
	return func(args []any) func(Thread) {
		a, b, c := argAs[A](args, 0), argAs[B](args, 1), argAs[C](args, 2)
		return func(t Thread) { f(t, a, b, c) }
	}
}

// Bind4 is Bind1 for four parameters.
func Bind4[A, B, C, D any](f func(Thread, A, B, C, D)) func([]any) func(Thread) {
	return func(args []any) func(Thread) {
		a, b, c, d := argAs[A](args, 0), argAs[B](args, 1), argAs[C](args, 2), argAs[D](args, 3)
		return func(t Thread) { f(t, a, b, c, d) }
	}
}

// Bind5 is Bind1 for five parameters.
func Bind5[A, B, C, D, E any](f func(Thread, A, B, C, D, E)) func([]any) func(Thread) {
	return func(args []any) func(Thread) {
		a, b, c, d := argAs[A](args, 0), argAs[B](args, 1), argAs[C](args, 2), argAs[D](args, 3)
		e := argAs[E](args, 4)
		return func(t Thread) { f(t, a, b, c, d, e) }
	}
}

// Bind6 is Bind1 for six parameters.
func Bind6[A, B, C, D, E, F any](f func(Thread, A, B, C, D, E, F)) func([]any) func(Thread) {
	return func(args []any) func(Thread) {
		a, b, c, d := argAs[A](args, 0), argAs[B](args, 1), argAs[C](args, 2), argAs[D](args, 3)
		e, g := argAs[E](args, 4), argAs[F](args, 5)
		return func(t Thread) { f(t, a, b, c, d, e, g) }
	}
}

// Bind7 is Bind1 for seven parameters.
func Bind7[A, B, C, D, E, F, G any](f func(Thread, A, B, C, D, E, F, G)) func([]any) func(Thread) {
	return func(args []any) func(Thread) {
		a, b, c, d := argAs[A](args, 0), argAs[B](args, 1), argAs[C](args, 2), argAs[D](args, 3)
		e, g, h := argAs[E](args, 4), argAs[F](args, 5), argAs[G](args, 6)
		return func(t Thread) { f(t, a, b, c, d, e, g, h) }
	}
}

// Bind8 is Bind1 for eight parameters.
func Bind8[A, B, C, D, E, F, G, H any](f func(Thread, A, B, C, D, E, F, G, H)) func([]any) func(Thread) {
	return func(args []any) func(Thread) {
		a, b, c, d := argAs[A](args, 0), argAs[B](args, 1), argAs[C](args, 2), argAs[D](args, 3)
		e, g, h, i := argAs[E](args, 4), argAs[F](args, 5), argAs[G](args, 6), argAs[H](args, 7)
		return func(t Thread) { f(t, a, b, c, d, e, g, h, i) }
	}
}

// Bind9 is Bind1 for nine parameters.
func Bind9[A, B, C, D, E, F, G, H, I any](f func(Thread, A, B, C, D, E, F, G, H, I)) func([]any) func(Thread) {
	return func(args []any) func(Thread) {
		a, b, c, d := argAs[A](args, 0), argAs[B](args, 1), argAs[C](args, 2), argAs[D](args, 3)
		e, g, h, i := argAs[E](args, 4), argAs[F](args, 5), argAs[G](args, 6), argAs[H](args, 7)
		j := argAs[I](args, 8)
		return func(t Thread) { f(t, a, b, c, d, e, g, h, i, j) }
	}
}

// Bind10 is Bind1 for ten parameters.
func Bind10[A, B, C, D, E, F, G, H, I, J any](f func(Thread, A, B, C, D, E, F, G, H, I, J)) func([]any) func(Thread) {
	return func(args []any) func(Thread) {
		a, b, c, d := argAs[A](args, 0), argAs[B](args, 1), argAs[C](args, 2), argAs[D](args, 3)
		e, g, h, i := argAs[E](args, 4), argAs[F](args, 5), argAs[G](args, 6), argAs[H](args, 7)
		j, k := argAs[I](args, 8), argAs[J](args, 9)
		return func(t Thread) { f(t, a, b, c, d, e, g, h, i, j, k) }
	}
}

// Bind11 is Bind1 for eleven parameters.
func Bind11[A, B, C, D, E, F, G, H, I, J, K any](f func(Thread, A, B, C, D, E, F, G, H, I, J, K)) func([]any) func(Thread) {
	return func(args []any) func(Thread) {
		a, b, c, d := argAs[A](args, 0), argAs[B](args, 1), argAs[C](args, 2), argAs[D](args, 3)
		e, g, h, i := argAs[E](args, 4), argAs[F](args, 5), argAs[G](args, 6), argAs[H](args, 7)
		j, k, l := argAs[I](args, 8), argAs[J](args, 9), argAs[K](args, 10)
		return func(t Thread) { f(t, a, b, c, d, e, g, h, i, j, k, l) }
	}
}

// Bind12 is Bind1 for twelve parameters.
func Bind12[A, B, C, D, E, F, G, H, I, J, K, L any](f func(Thread, A, B, C, D, E, F, G, H, I, J, K, L)) func([]any) func(Thread) {
	return func(args []any) func(Thread) {
		a, b, c, d := argAs[A](args, 0), argAs[B](args, 1), argAs[C](args, 2), argAs[D](args, 3)
		e, g, h, i := argAs[E](args, 4), argAs[F](args, 5), argAs[G](args, 6), argAs[H](args, 7)
		j, k, l, m := argAs[I](args, 8), argAs[J](args, 9), argAs[K](args, 10), argAs[L](args, 11)
		return func(t Thread) { f(t, a, b, c, d, e, g, h, i, j, k, l, m) }
	}
}
