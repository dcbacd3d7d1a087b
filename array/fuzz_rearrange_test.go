// The rearranging views in FuzzArrayAPI: Flip, Roll, Triu, Tril,
// Diagonal, Tile, Repeat, Pad and PadEdge with random (also invalid)
// arguments, each with the oracle's model of its result.

package array_test

import (
	"fmt"
	"slices"
)

func init() {
	viewNames = append(viewNames, "Flip", "Roll", "Triu", "Tril", "Diagonal", "Tile", "Repeat", "Pad", "PadEdge")
}

// mapModel is the model of a result of shape out whose element at each
// index is x's element at src(index), or fill where src reports none.
func mapModel(x model, out []int, fill num, src func(o []int) ([]int, bool)) model {
	m := model{shape: nz(out), dt: x.dt}
	if x.vals == nil || size(out) > maxModel {
		return m
	}
	st := strides(x.shape)
	m.vals = make([]num, size(out))
	o := make([]int, len(out))
	for k := range m.vals {
		rem := k
		for i := len(out) - 1; i >= 0; i-- {
			o[i] = rem % out[i]
			rem /= out[i]
		}
		in, ok := src(o)
		if !ok {
			m.vals[k] = fill
			continue
		}
		flat := 0
		for i, v := range in {
			flat += v * st[i]
		}
		m.vals[k] = x.vals[flat]
	}
	return m
}

// rearrange adds one rearranging view of a pool node.
func (p *prog) rearrange() {
	f := p.f
	x := p.pick()
	if x == nil {
		return
	}
	s, r := x.m.shape, len(x.m.shape)
	var zero num // 0 of every dtype
	switch f.intn(7) {
	case 0: // Flip
		axes := make([]int, f.intn(3))
		for i := range axes {
			axes[i] = f.in(-r-1, r)
		}
		m := bad()
		if red, ok := normAxes(axes, r); ok && !x.m.err {
			m = mapModel(x.m, s, zero, func(o []int) ([]int, bool) {
				in := slices.Clone(o)
				for i := range in {
					if red[i] {
						in[i] = s[i] - 1 - o[i]
					}
				}
				return in, true
			})
		}
		p.add(fmt.Sprintf("Flip %v", axes), x.a.Flip(axes...), x.ctx, m, []string{"Flip"}, x)
	case 1: // Roll, flat or along one axis
		shift := f.in(-7, 7)
		var axes []int
		if f.intn(2) == 0 {
			axes = []int{f.in(-r-1, r)}
		}
		m := bad()
		switch {
		case x.m.err:
		case len(axes) == 0:
			n := size(s)
			m = mapModel(x.m, s, zero, func(o []int) ([]int, bool) {
				flat := 0
				for i, v := range o {
					flat = flat*s[i] + v
				}
				flat = ((flat-shift)%n + n) % n
				in := make([]int, r)
				for i := r - 1; i >= 0; i-- {
					in[i] = flat % s[i]
					flat /= s[i]
				}
				return in, true
			})
		default:
			if ax, ok := normAxis(axes[0], r); ok {
				m = mapModel(x.m, s, zero, func(o []int) ([]int, bool) {
					in := slices.Clone(o)
					in[ax] = ((o[ax]-shift)%s[ax] + s[ax]) % s[ax]
					return in, true
				})
			}
		}
		p.add(fmt.Sprintf("Roll %d %v", shift, axes), x.a.Roll(shift, axes...), x.ctx, m, []string{"Roll"}, x)
	case 2: // Triu, Tril
		k := f.in(-3, 3)
		upper := f.intn(2) == 0
		name := map[bool]string{true: "Triu", false: "Tril"}[upper]
		m := bad()
		if r > 0 && !x.m.err {
			out := slices.Clone(s)
			if r == 1 {
				out = []int{s[0], s[0]}
			}
			m = mapModel(x.m, out, zero, func(o []int) ([]int, bool) {
				row, col := o[len(o)-2], o[len(o)-1]
				if upper && col-row < k || !upper && col-row > k {
					return nil, false
				}
				if r == 1 {
					return []int{col}, true
				}
				return o, true
			})
		}
		a := x.a.Triu(k)
		if !upper {
			a = x.a.Tril(k)
		}
		p.add(fmt.Sprintf("%s %d", name, k), a, x.ctx, m, []string{name}, x)
	case 3: // Diagonal
		off, a1, a2 := f.in(-3, 3), f.in(-r-1, r), f.in(-r-1, r)
		m := bad()
		n1, ok1 := normAxis(a1, r)
		n2, ok2 := normAxis(a2, r)
		if r >= 2 && ok1 && ok2 && n1 != n2 && !x.m.err {
			var out, rest []int
			for i, e := range s {
				if i != n1 && i != n2 {
					out = append(out, e)
					rest = append(rest, i)
				}
			}
			n := max(0, min(s[n1], s[n2]-off))
			if off < 0 {
				n = max(0, min(s[n1]+off, s[n2]))
			}
			out = append(out, n)
			m = mapModel(x.m, out, zero, func(o []int) ([]int, bool) {
				in := make([]int, r)
				for j, ax := range rest {
					in[ax] = o[j]
				}
				d := o[len(o)-1]
				in[n1], in[n2] = d+max(0, -off), d+max(0, off)
				return in, true
			})
		}
		p.add(fmt.Sprintf("Diagonal %d %d %d", off, a1, a2), x.a.Diagonal(off, a1, a2), x.ctx, m, []string{"Diagonal"}, x)
	case 4: // Tile
		reps := make([]int, f.intn(4))
		for i := range reps {
			reps[i] = f.in(-1, 3)
		}
		m := bad()
		if !x.m.err && !slices.ContainsFunc(reps, func(v int) bool { return v < 0 }) {
			d := max(len(reps), r)
			full := slices.Concat(slices.Repeat([]int{1}, d-r), s)
			rr := slices.Concat(slices.Repeat([]int{1}, d-len(reps)), reps)
			out := make([]int, d)
			for i := range out {
				out[i] = full[i] * rr[i]
			}
			m = mapModel(x.m, out, zero, func(o []int) ([]int, bool) {
				in := make([]int, r)
				for i := range in {
					in[i] = o[d-r+i] % s[i]
				}
				return in, true
			})
		}
		p.add(fmt.Sprintf("Tile %v", reps), x.a.Tile(reps...), x.ctx, m, []string{"Tile"}, x)
	case 5: // Repeat along one axis
		n, axis := f.in(-1, 3), f.in(-r-1, r)
		m := bad()
		if ax, ok := normAxis(axis, r); ok && n >= 0 && !x.m.err {
			out := slices.Clone(s)
			out[ax] *= n
			m = mapModel(x.m, out, zero, func(o []int) ([]int, bool) {
				in := slices.Clone(o)
				in[ax] = o[ax] / n
				return in, true
			})
		}
		p.add(fmt.Sprintf("Repeat %d %d", n, axis), x.a.Repeat(n, axis), x.ctx, m, []string{"Repeat"}, x)
	default: // Pad, PadEdge
		ws := make([][2]int, f.in(max(r-1, 0), r))
		for i := range ws {
			ws[i] = [2]int{f.in(-1, 2), f.in(0, 2)}
		}
		edge := f.intn(2) == 0
		v := f.in(-2, 2)
		name := map[bool]string{true: "PadEdge", false: "Pad"}[edge]
		m := bad()
		full := ws
		if len(ws) == 1 && r != 1 {
			full = slices.Repeat(ws, r)
		}
		valid := !x.m.err && len(full) == r
		for ax, w := range full {
			if !valid {
				break
			}
			valid = w[0] >= 0 && w[1] >= 0 && !(edge && s[ax] == 0 && w != [2]int{})
		}
		if valid {
			out := slices.Clone(s)
			for ax, w := range full {
				out[ax] += w[0] + w[1]
			}
			fill := weakNum(weak{kind: kInt, i: int64(v), f: float64(v)}, x.m.dt)
			m = mapModel(x.m, out, fill, func(o []int) ([]int, bool) {
				in := make([]int, r)
				for i := range in {
					j := o[i] - full[i][0]
					if j < 0 || j >= s[i] {
						if !edge {
							return nil, false
						}
						j = min(max(j, 0), s[i]-1)
					}
					in[i] = j
				}
				return in, true
			})
		}
		a := x.a.Pad(ws, v)
		if edge {
			a = x.a.PadEdge(ws)
		}
		p.add(fmt.Sprintf("%s %v %d", name, ws, v), a, x.ctx, m, []string{name}, x)
	}
}
