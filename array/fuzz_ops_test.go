// The API calls of FuzzArrayAPI: constructors, elementwise ops, views,
// reductions, joins and Where/Clip decoded with random (also invalid)
// arguments, each with the oracle's model of its result.

package array_test

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/fuseflow/fuseflow/array"
)

// step decodes and runs one API call.
func (p *prog) step() {
	f := p.f
	switch op := f.intn(14); op {
	case 0, 1:
		p.input()
	case 2:
		p.fill()
	case 3:
		x := p.pick()
		if x == nil {
			return
		}
		u := unaryOps[f.intn(len(unaryOps))]
		p.add(u.name, u.call(x.a), x.ctx, unaryModel(u, x.m), []string{u.name}, x)
	case 4, 5:
		x := p.pick()
		if x == nil {
			return
		}
		b := binaryOps[f.intn(len(binaryOps))]
		if f.intn(2) == 0 {
			y := p.pick()
			p.add(b.name+" array", b.call(x.a, y.a), x.ctx, binaryModel(b, x.m, y.m, promote(x.m.dt, y.m.dt)), []string{b.name}, x, y)
			return
		}
		v, w, desc := p.weakOperand()
		m := bad()
		if w != nil {
			if wm := weakModel(*w, x.m.dt); !wm.err {
				m = binaryModel(b, x.m, wm, wm.dt)
			}
		}
		p.add(b.name+" "+desc, b.call(x.a, v), x.ctx, m, []string{b.name}, x)
	case 6:
		p.view()
	case 7:
		if f.intn(2) == 0 {
			p.view()
		} else {
			p.rearrange()
		}
	case 8:
		p.reduce()
	case 9:
		x, y := p.pick(), p.pick()
		if x == nil {
			return
		}
		p.add("MatMul", array.MatMul(x.a, y.a), x.ctx, matmulModel(x.m, y.m), []string{"MatMul"}, x, y)
	case 10:
		p.join()
	case 11:
		x := p.pick()
		if x == nil {
			return
		}
		d := f.dtype()
		p.add("AsType "+d.String(), x.a.AsType(d), x.ctx, asTypeModel(x.m, d), []string{"AsType"}, x)
	case 12:
		p.where()
	case 13:
		p.evalSome()
	}
}

// input adds FromSlice data of a random dtype and shape (sometimes with a
// wrong element count).
func (p *prog) input() {
	f := p.f
	d, s := f.dtype(), f.shape()
	ctx := 0
	if f.intn(8) == 0 {
		ctx = 1
	}
	n := size(s)
	if n > maxModel {
		n = 0 // a shape too big to give data for: an error
	}
	if f.intn(10) == 0 {
		n += f.in(-1, 1)
		n = max(n, 0)
	}
	// The data are the decoded values converted to d as AsType converts
	// them (saturating), so an int64 array may hold MinInt64 and MaxInt64.
	vals := make([]num, n)
	for i := range vals {
		vals[i] = fromFloat(f.value(), d)
	}
	c := p.ctxs[ctx]
	var a *array.Array
	switch d {
	case array.Bool:
		data := make([]bool, n)
		for i, v := range vals {
			data[i] = v.i != 0
		}
		a = array.FromSlice(c, data, s...)
	case array.Int32:
		a = array.FromSlice(c, convert(vals, func(v num) int32 { return int32(v.i) }), s...)
	case array.Int64:
		if f.intn(2) == 0 {
			a = array.FromSlice(c, convert(vals, func(v num) int { return int(v.i) }), s...)
		} else {
			a = array.FromSlice(c, convert(vals, func(v num) int64 { return v.i }), s...)
		}
	case array.Float32:
		a = array.FromSlice(c, convert(vals, func(v num) float32 { return float32(v.f) }), s...)
	default:
		a = array.FromSlice(c, convert(vals, func(v num) float64 { return v.f }), s...)
	}
	m := model{shape: s, dt: d, vals: vals}
	if len(s) == 0 {
		// No shape given: FromSlice makes a 1-d array of the data.
		m.shape = []int{n}
	} else if n != size(s) || !validShape(s, d) {
		m = bad()
	}
	p.add(fmt.Sprintf("FromSlice %v %v (%d elements)", d, s, n), a, ctx, m, []string{"FromSlice"})
}

func convert[S, T any](vals []S, f func(S) T) []T {
	out := make([]T, len(vals))
	for i, v := range vals {
		out[i] = f(v)
	}
	return out
}

// fill adds a computed constructor with random (also invalid) arguments.
func (p *prog) fill() {
	f := p.f
	c := p.ctxs[0]
	d := f.dtype()
	s := f.shape()
	if f.intn(10) == 0 && len(s) > 0 {
		s[f.intn(len(s))] = -1
	}
	m := model{shape: s, dt: d}
	if !validShape(s, d) {
		m = bad()
	}
	filled := func(v float64) model {
		if m.err || size(s) > maxModel {
			return m
		}
		vals := make([]num, size(s))
		for i := range vals {
			vals[i] = fromFloat(v, d)
		}
		return model{shape: s, dt: d, vals: vals}
	}
	switch f.intn(9) {
	case 0:
		p.add(fmt.Sprintf("Zeros %v %v", d, s), c.Zeros(d, s...), 0, filled(0), []string{"Zeros"})
	case 1:
		p.add(fmt.Sprintf("Ones %v %v", d, s), c.Ones(d, s...), 0, filled(1), []string{"Ones"})
	case 2:
		v := f.value()
		p.add(fmt.Sprintf("Full %v %v %v", d, v, s), c.Full(d, v, s...), 0, filled(v), []string{"Full"})
	case 3:
		v := f.value()
		var a *array.Array
		var dd array.DType
		var val num // the Go value given, exactly
		switch f.intn(4) {
		case 0:
			a, dd, val = c.Scalar(v != 0), array.Bool, num{i: b2i(v != 0)}
		case 1:
			a, dd, val = c.Scalar(int32(v)), array.Int32, num{i: int64(int32(v))}
		case 2:
			a, dd, val = c.Scalar(int(v)), array.Int64, num{i: int64(int(v))}
		default:
			a, dd, val = c.Scalar(v), array.Float64, num{f: v}
		}
		p.add(fmt.Sprintf("Scalar %v %v", dd, v), a, 0, model{shape: []int{}, dt: dd, vals: []num{val}}, []string{"Scalar"})
	case 4:
		start, stop, step := float64(f.in(-4, 4)), float64(f.in(-4, 6)), float64(f.in(-3, 3))/2
		m := bad()
		if step != 0 && d != array.Bool {
			n := max(int(math.Ceil((stop-start)/step)), 0)
			vals := make([]num, n)
			for i := range vals {
				vals[i] = fromFloat(start+float64(i)*step, d)
			}
			m = model{shape: []int{n}, dt: d, vals: vals}
		}
		p.add(fmt.Sprintf("Arange %v %v %v %v", start, stop, step, d), c.ArangeStep(d, start, stop, step), 0, m, []string{"Arange"})
	case 5:
		start, stop, n := float64(f.in(-4, 4)), float64(f.in(-4, 4)), f.in(-1, 5)
		m := bad()
		if n >= 0 && d != array.Bool {
			m = model{shape: []int{n}, dt: d}
			if kindOf(d) == kFloat {
				m.tol = true
				vals := make([]num, n)
				for i := range vals {
					vals[i] = fromFloat(start+float64(i)*(stop-start)/float64(max(n-1, 1)), d)
				}
				if n > 1 {
					vals[n-1] = fromFloat(stop, d)
				}
				m.vals = vals
			}
		}
		p.add(fmt.Sprintf("Linspace %v %v %d %v", start, stop, n, d), c.Linspace(d, start, stop, n), 0, m, []string{"Linspace"})
	case 6:
		r, cl, k := f.in(-1, 3), f.in(0, 3), f.in(-3, 3)
		m := bad()
		if r >= 0 {
			vals := make([]num, r*cl)
			for i := range vals {
				vals[i] = fromFloat(b2f(i%cl-i/cl == k), d)
			}
			m = model{shape: []int{r, cl}, dt: d, vals: vals}
		}
		p.add(fmt.Sprintf("Eye %d %d %d %v", r, cl, k, d), c.Eye(d, r, cl, k), 0, m, []string{"Eye"})
	default:
		normal := f.intn(2) == 0
		name := "Rand"
		a := c.Rand(d, 7, s...)
		if normal {
			name, a = "Normal", c.Normal(d, 7, s...)
		}
		if kindOf(d) != kFloat {
			m = bad()
		}
		p.add(fmt.Sprintf("%s %v %v", name, d, s), a, 0, m, []string{name})
	}
}

// asTypeModel models x converted to d.
func asTypeModel(x model, d array.DType) model {
	if !validShape(x.shape, d) {
		return bad()
	}
	return model{shape: x.shape, dt: d, vals: castAll(x.vals, x.dt, d)}
}

// view adds a view with random (also invalid) arguments.
func (p *prog) view() {
	f := p.f
	x := p.pick()
	if x == nil {
		return
	}
	s, r := x.m.shape, len(x.m.shape)
	st := strides(s)
	m := model{dt: x.m.dt}
	switch f.intn(9) {
	case 0: // Reshape, with -1 and wrong sizes
		t := make([]int, f.in(0, 3))
		for i := range t {
			t[i] = f.in(-2, 4)
		}
		if f.intn(2) == 0 && len(t) > 0 {
			// A valid target more often: the size split in two.
			t = []int{-1}
			if n := size(s); n > 0 && f.intn(2) == 0 {
				for _, dv := range []int{3, 2, 1} {
					if n%dv == 0 {
						t = []int{dv, -1}
						break
					}
				}
			}
		}
		m = reshapeModel(x.m, t)
		p.add(fmt.Sprintf("Reshape %v", t), x.a.Reshape(t...), x.ctx, m, []string{"Reshape"}, x)
	case 1: // Permute
		perm := make([]int, r)
		for i := range perm {
			perm[i] = i
		}
		for i := range perm {
			j := f.intn(r)
			perm[i], perm[j] = perm[j], perm[i]
		}
		switch f.intn(5) {
		case 0:
			if r > 0 {
				perm[f.intn(r)] = f.in(-r-1, r)
			}
		case 1:
			perm = append(perm, 0)
		case 2:
			if r > 0 {
				perm[0] -= r
			}
		}
		m = permuteModel(x.m, perm)
		p.add(fmt.Sprintf("Permute %v", perm), x.a.Permute(perm...), x.ctx, m, []string{"Permute"}, x)
	case 2: // Slice
		rs := make([]array.Range, f.in(0, r+1))
		for i := range rs {
			rs[i] = array.Range{Start: f.in(-5, 5), Stop: f.in(-5, 5), Step: f.in(-3, 3), NoStart: f.intn(3) == 0, NoStop: f.intn(3) == 0}
		}
		m = sliceModel(x.m, rs)
		p.add(fmt.Sprintf("Slice %+v", rs), x.a.Slice(rs...), x.ctx, m, []string{"Slice"}, x)
	case 3: // Index
		idx := make([]int, f.in(0, r+1))
		for i := range idx {
			idx[i] = f.in(-4, 4)
		}
		m = bad()
		if len(idx) <= r {
			rs := make([]array.Range, len(idx))
			ok := true
			for k, i := range idx {
				if i < -s[k] || i >= s[k] {
					ok = false
					break
				}
				if i < 0 {
					i += s[k]
				}
				rs[k] = array.R(i, i+1)
			}
			if ok {
				m = sliceModel(x.m, rs)
				m.shape = slices.Clone(s[len(idx):])
			}
		}
		p.add(fmt.Sprintf("Index %v", idx), x.a.Index(idx...), x.ctx, m, []string{"Index"}, x)
	case 4: // Squeeze
		axes := make([]int, f.intn(3))
		for i := range axes {
			axes[i] = f.in(-r-1, r)
		}
		red, ok := normAxes(axes, r)
		var out []int
		if len(axes) == 0 {
			red = make([]bool, r)
			for i, e := range s {
				red[i] = e == 1
			}
		}
		for i, e := range s {
			if ok && red[i] && e != 1 {
				ok = false
			}
			if ok && !red[i] {
				out = append(out, e)
			}
		}
		m = bad()
		if ok {
			m = model{shape: nz(out), dt: x.m.dt, vals: x.m.vals}
		}
		p.add(fmt.Sprintf("Squeeze %v", axes), x.a.Squeeze(axes...), x.ctx, m, []string{"Squeeze"}, x)
	case 5: // ExpandDims
		ax := f.in(-r-3, r+2)
		m = bad()
		if n, ok := normAxis(ax, r+1); ok {
			out := slices.Insert(slices.Clone(s), n, 1)
			m = model{shape: out, dt: x.m.dt, vals: x.m.vals}
		}
		p.add(fmt.Sprintf("ExpandDims %d", ax), x.a.ExpandDims(ax), x.ctx, m, []string{"ExpandDims"}, x)
	case 6: // BroadcastTo
		t := slices.Clone(s)
		for range f.intn(3) {
			t = slices.Insert(t, 0, f.in(0, 3))
		}
		if len(t) > 0 && f.intn(2) == 0 {
			t[f.intn(len(t))] = f.in(-1, 3)
		}
		m = bad()
		if b, ok := broadcast(s, t); ok && slices.Equal(b, t) && !slices.ContainsFunc(t, func(e int) bool { return e < 0 }) {
			m = model{shape: t, dt: x.m.dt, vals: stretch(x.m, t)}
		}
		p.add(fmt.Sprintf("BroadcastTo %v", t), x.a.BroadcastTo(t...), x.ctx, m, []string{"BroadcastTo"}, x)
	case 7:
		out := slices.Clone(s)
		slices.Reverse(out)
		rst := slices.Clone(st)
		slices.Reverse(rst)
		m = model{shape: out, dt: x.m.dt, vals: gather(x.m.vals, out, rst, 0)}
		p.add("Transpose", x.a.Transpose(), x.ctx, m, []string{"Transpose"}, x)
	default:
		if f.intn(2) == 0 {
			p.add("Flatten", x.a.Flatten(), x.ctx, model{shape: []int{size(s)}, dt: x.m.dt, vals: x.m.vals}, []string{"Flatten"}, x)
		} else {
			p.add("Contiguous", x.a.Contiguous(), x.ctx, model{shape: s, dt: x.m.dt, vals: x.m.vals}, []string{"Contiguous"}, x)
		}
	}
}

func nz(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}

func reshapeModel(x model, t []int) model {
	infer, known := -1, 1
	for i, e := range t {
		switch {
		case e == -1 && infer < 0:
			infer = i
		case e < 0:
			return bad()
		default:
			known *= e
		}
	}
	out := slices.Clone(t)
	n := size(x.shape)
	if infer >= 0 {
		if known == 0 || n%known != 0 {
			return bad()
		}
		out[infer] = n / known
	}
	if size(out) != n {
		return bad()
	}
	return model{shape: nz(out), dt: x.dt, vals: x.vals}
}

func permuteModel(x model, perm []int) model {
	r := len(x.shape)
	if len(perm) != r {
		return bad()
	}
	seen := make([]bool, r)
	out := make([]int, r)
	st := strides(x.shape)
	pst := make([]int, r)
	for i, a := range perm {
		n, ok := normAxis(a, r)
		if !ok || seen[n] {
			return bad()
		}
		seen[n] = true
		out[i], pst[i] = x.shape[n], st[n]
	}
	return model{shape: out, dt: x.dt, vals: gather(x.vals, out, pst, 0)}
}

func sliceModel(x model, rs []array.Range) model {
	r := len(x.shape)
	if len(rs) > r {
		return bad()
	}
	st := strides(x.shape)
	out := slices.Clone(x.shape)
	vst := slices.Clone(st)
	off := 0
	for i, rg := range rs {
		start, step, n, ok := sliceIndices(rg, x.shape[i])
		if !ok {
			return bad()
		}
		out[i] = n
		vst[i] = st[i] * step
		if n > 0 {
			off += start * st[i]
		}
	}
	return model{shape: nz(out), dt: x.dt, vals: gather(x.vals, out, vst, off)}
}

// reduce adds a reduction with random, repeated, negative and
// out-of-range axes.
func (p *prog) reduce() {
	f := p.f
	x := p.pick()
	if x == nil {
		return
	}
	r := len(x.m.shape)
	axes := make([]int, []int{0, 0, 1, 1, 1, 2, 3}[f.intn(7)])
	for i := range axes {
		axes[i] = f.in(-r-1, r)
	}
	keep := f.intn(3) == 0
	ddof := f.in(-1, 4)
	type red struct {
		name string
		call func(a *array.Array) *array.Array
	}
	k := func(plain, kept func(*array.Array, ...int) *array.Array) func(a *array.Array) *array.Array {
		if keep {
			return func(a *array.Array) *array.Array { return kept(a, axes...) }
		}
		return func(a *array.Array) *array.Array { return plain(a, axes...) }
	}
	kd := func(plain, kept func(*array.Array, int, ...int) *array.Array) func(a *array.Array) *array.Array {
		if keep {
			return func(a *array.Array) *array.Array { return kept(a, ddof, axes...) }
		}
		return func(a *array.Array) *array.Array { return plain(a, ddof, axes...) }
	}
	ops := []red{
		{"Sum", k((*array.Array).Sum, (*array.Array).SumKeepDims)},
		{"Prod", k((*array.Array).Prod, (*array.Array).ProdKeepDims)},
		{"Max", k((*array.Array).Max, (*array.Array).MaxKeepDims)},
		{"Min", k((*array.Array).Min, (*array.Array).MinKeepDims)},
		{"Any", k((*array.Array).Any, (*array.Array).AnyKeepDims)},
		{"All", k((*array.Array).All, (*array.Array).AllKeepDims)},
		{"Mean", k((*array.Array).Mean, (*array.Array).MeanKeepDims)},
		{"Var", kd((*array.Array).VarDdof, (*array.Array).VarDdofKeepDims)},
		{"Std", kd((*array.Array).StdDdof, (*array.Array).StdDdofKeepDims)},
		{"ArgMax", func(a *array.Array) *array.Array { return a.ArgMax(axes...) }},
		{"ArgMin", func(a *array.Array) *array.Array { return a.ArgMin(axes...) }},
	}
	o := ops[f.intn(len(ops))]
	if strings.HasPrefix(o.name, "Arg") {
		keep = false
	}
	m := reduceModel(o.name, x.m, axes, keep, ddof)
	if o.name == "Mean" || o.name == "Var" || o.name == "Std" {
		m.tol = true
	}
	p.add(fmt.Sprintf("%s %v keep=%v ddof=%d", o.name, axes, keep, ddof), o.call(x.a), x.ctx, m, []string{o.name}, x)
}

// join adds a Concat or Stack of one to three pool arrays.
func (p *prog) join() {
	f := p.f
	xs, as := p.pickSome(func(*node) bool { return true })
	if len(xs) == 0 {
		return
	}
	r := len(xs[0].m.shape)
	ax := f.in(-r-2, r+1)
	if f.intn(2) == 0 {
		p.add(fmt.Sprintf("Concat axis %d of %d", ax, len(xs)), array.Concat(ax, as...), xs[0].ctx, concatModel(xs, ax), []string{"Concat"}, xs...)
		return
	}
	p.add(fmt.Sprintf("Stack axis %d of %d", ax, len(xs)), array.Stack(ax, as...), xs[0].ctx, stackModel(xs, ax), []string{"Stack"}, xs...)
}

func concatModel(xs []*node, axis int) model {
	r := len(xs[0].m.shape)
	if r == 0 {
		return bad()
	}
	ax, ok := normAxis(axis, r)
	if !ok {
		return bad()
	}
	out := slices.Clone(xs[0].m.shape)
	out[ax] = 0
	d := xs[0].m.dt
	known := true
	for _, x := range xs {
		if len(x.m.shape) != r {
			return bad()
		}
		for i := range r {
			if i != ax && x.m.shape[i] != out[i] {
				return bad()
			}
		}
		if out[ax] > math.MaxInt-x.m.shape[ax] {
			return bad() // the extents along the axis overflow int
		}
		out[ax] += x.m.shape[ax]
		d = promote(d, x.m.dt)
		known = known && x.m.vals != nil
	}
	if !validShape(out, d) {
		return bad()
	}
	m := model{shape: out, dt: d}
	if !known || size(out) > maxModel {
		return m
	}
	if size(out) == 0 {
		m.vals = []num{} // the outer extents may be enormous
		return m
	}
	// Row-major: for each outer index, the blocks of each array in turn.
	outer := size(out[:ax])
	for o := range outer {
		for _, x := range xs {
			blk := size(x.m.shape[ax:])
			for _, v := range x.m.vals[o*blk : (o+1)*blk] {
				m.vals = append(m.vals, castNum(v, x.m.dt, d))
			}
		}
	}
	return m
}

func stackModel(xs []*node, axis int) model {
	s := xs[0].m.shape
	for _, x := range xs {
		if !slices.Equal(x.m.shape, s) {
			return bad()
		}
	}
	ax, ok := normAxis(axis, len(s)+1)
	if !ok {
		return bad()
	}
	ex := make([]*node, len(xs))
	for i, x := range xs {
		ex[i] = &node{m: model{shape: slices.Insert(slices.Clone(s), ax, 1), dt: x.m.dt, vals: x.m.vals}}
	}
	return concatModel(ex, ax)
}

// where adds Where or Clip with array or Go-number operands.
func (p *prog) where() {
	f := p.f
	c := p.pick()
	if c == nil {
		return
	}
	type opnd struct {
		v    any
		n    *node // an array operand
		w    *weak // a Go number
		desc string
	}
	operand := func() opnd {
		if f.intn(2) == 0 {
			y := p.pick()
			return opnd{v: y.a, n: y, desc: "array"}
		}
		v, w, desc := p.weakOperand()
		return opnd{v: v, w: w, desc: desc}
	}
	x, y := operand(), operand()
	ops := []*node{c}
	for _, o := range []opnd{x, y} {
		if o.n != nil {
			ops = append(ops, o.n)
		}
	}
	// against models o meeting an operand of dtype d as a binary op would.
	against := func(o opnd, d array.DType) model {
		switch {
		case o.n != nil:
			return o.n.m
		case o.w == nil:
			return bad()
		}
		return weakModel(*o.w, d)
	}
	desc := x.desc + " " + y.desc
	if f.intn(3) == 0 {
		// Clip(lo, hi) = Minimum(Maximum(c, lo), hi).
		maxi, mini := binaryOps[7], binaryOps[8]
		m := bad()
		if lo := against(x, c.m.dt); !lo.err && !c.m.err {
			m = binaryModel(maxi, c.m, lo, promote(c.m.dt, lo.dt))
			if hi := against(y, m.dt); !m.err && !hi.err {
				m = binaryModel(mini, m, hi, promote(m.dt, hi.dt))
			} else {
				m = bad()
			}
		}
		p.add("Clip "+desc, c.a.Clip(x.v, y.v), c.ctx, m, []string{"Clip"}, ops...)
		return
	}
	var m model
	switch {
	case x.n == nil && x.w == nil, y.n == nil && y.w == nil:
		m = bad()
	case x.w != nil && y.w != nil:
		d := promote(weakDT(x.w.kind), weakDT(y.w.kind))
		m = whereModel(c.m, scalarOf(*x.w, d), scalarOf(*y.w, d))
	case x.w != nil:
		m = whereModel(c.m, against(x, y.n.m.dt), y.n.m)
		if y.n.m.err {
			m = bad()
		}
	case y.w != nil:
		m = whereModel(c.m, x.n.m, against(y, x.n.m.dt))
		if x.n.m.err {
			m = bad()
		}
	default:
		m = whereModel(c.m, x.n.m, y.n.m)
	}
	p.add("Where "+desc, array.Where(c.a, x.v, y.v), c.ctx, m, []string{"Where"}, ops...)
}

// scalarOf is the 0-d model of w converted to d.
func scalarOf(w weak, d array.DType) model {
	return model{shape: []int{}, dt: d, vals: []num{weakNum(w, d)}}
}

func whereModel(c, x, y model) model {
	if c.err || x.err || y.err || c.dt != array.Bool {
		return bad()
	}
	s, ok := broadcast(c.shape, x.shape, y.shape)
	if !ok {
		return bad()
	}
	d := promote(x.dt, y.dt)
	if !validShape(s, d) {
		return bad()
	}
	m := model{shape: s, dt: d}
	cv, xv, yv := stretch(c, s), stretch(x, s), stretch(y, s)
	if cv == nil || xv == nil || yv == nil {
		return m
	}
	vals := make([]num, len(cv))
	for i := range cv {
		if cv[i].i != 0 {
			vals[i] = castNum(xv[i], x.dt, d)
		} else {
			vals[i] = castNum(yv[i], y.dt, d)
		}
	}
	m.vals = vals
	return m
}
