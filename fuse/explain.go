// Explain and WriteDOT: a plan as text (with what a target decides about
// each kernel, when it annotates the plan) and as a Graphviz graph with
// one cluster per kernel.

package fuse

import (
	"fmt"
	"io"
	"strings"
)

// kernelName describes a kernel by its kind and up to four distinct
// non-view ops it computes ("map_exp_mul_add").
func kernelName(k *Kernel) string {
	if k.Call() != nil {
		return "call_" + k.Call().Kernel.Name()
	}
	if s := k.Index(); s != nil {
		return "index_" + strings.ToLower(s.Op.String())
	}
	if so := k.Sort(); so != nil { // "sort_sort_argsort": the outputs it stores
		name := "sort"
		for i, o := range k.Fused {
			if i == 0 || o != k.Fused[i-1] {
				name += "_" + strings.ToLower(o.String())
			}
		}
		if so.Desc {
			name += "_topk"
		}
		return name
	}
	parts := []string{k.Kind().String()}
	seen := map[string]bool{}
	for _, o := range k.Fused {
		name := strings.ToLower(o.String())
		if opCost[o] == 0 && o.String() != "Concat" || seen[name] {
			continue
		}
		seen[name] = true
		if len(parts) == 5 {
			parts = append(parts, "etc")
			break
		}
		parts = append(parts, name)
	}
	return strings.Join(parts, "_")
}

func instrString(in *Instr) string {
	switch in.Kind {
	case InstrLoad:
		return fmt.Sprintf("load op%d", in.Operand)
	case InstrConst:
		return "const " + in.Value.String()
	case InstrGen:
		g := in.Gen
		switch in.Op.String() {
		case "Iota":
			return fmt.Sprintf("iota op%d start=%g step=%g len=%d", in.Operand, g.Start, g.Step, g.Len)
		case "Eye":
			return fmt.Sprintf("eye op%d cols=%d k=%d", in.Operand, g.Cols, g.K)
		}
		return fmt.Sprintf("%s op%d seed=%d", strings.ToLower(in.Op.String()), in.Operand, g.Seed)
	case InstrAcc:
		return fmt.Sprintf("acc r%d", in.Acc)
	case InstrGather:
		return gatherString(in)
	}
	args := make([]string, len(in.Args))
	for i, a := range in.Args {
		args[i] = fmt.Sprintf("%%%d", a)
	}
	return fmt.Sprintf("%v(%s)", in.Op, strings.Join(args, ", "))
}

// Annotator is what a target adds to Explain: its name, and for each
// kernel a line saying how the target runs it (launch geometry, chunks
// and workers). codegen and exec/cpu provide one for a plan.
type Annotator interface {
	// Target names the target ("H100", "cpu").
	Target() string
	// Kernel describes how the target runs kernel i of the plan; "" adds
	// nothing.
	Kernel(i int) string
}

// Explain describes a plan: its inputs and buffers, then per kernel the
// ops it fused, its iteration space, operands with strides, body,
// reductions, stores and bytes read and written, then the outputs. The
// plan holds nothing about threads; ExplainFor adds a target's view.
func Explain(p *Plan) string { return ExplainFor(p, nil) }

// ExplainFor is Explain with the target's name in the heading and its
// line for each kernel (see Annotator); a nil a adds nothing.
func ExplainFor(p *Plan, a Annotator) string {
	var b strings.Builder
	b.WriteString("plan")
	if a != nil {
		fmt.Fprintf(&b, " for %s", a.Target())
	}
	fmt.Fprintf(&b, ": %d kernels, %d graph nodes, %d bytes moved (unfused %d)\n",
		len(p.Kernels), p.Nodes, p.Bytes, p.UnfusedBytes)
	for i, in := range p.Inputs {
		fmt.Fprintf(&b, "input %d %q: %v %v strides %v offset %d -> buf%d\n", i, in.Label, in.Layout.DType, in.Layout.Shape,
			in.Layout.Strides, in.Layout.Offset, in.Buffer)
	}
	for i, bf := range p.Buffers {
		fmt.Fprintf(&b, "buf%d %v %d bytes", i, bf.Kind, bf.Bytes)
		if bf.First >= 0 {
			fmt.Fprintf(&b, " kernels %d..%d", bf.First, bf.Last)
		}
		if len(bf.Values) > 0 {
			fmt.Fprintf(&b, ": %s", strings.Join(bf.Values, "; "))
		}
		b.WriteByte('\n')
	}
	for i := range p.Kernels {
		k := &p.Kernels[i]
		fmt.Fprintf(&b, "kernel %d %s: space %v", i, k.Name, k.Space)
		if rs := k.Reduce(); rs != nil {
			fmt.Fprintf(&b, " reduce axes %v", rs.Axes)
		}
		if s := k.Scan(); s != nil {
			fmt.Fprintf(&b, " scan axis %d: acc = %v(%%%d) %v", s.Axis, s.Op, s.Value, s.DType)
		}
		b.WriteByte('\n')
		fused := make([]string, len(k.Fused))
		for j, o := range k.Fused {
			fused[j] = o.String()
		}
		fmt.Fprintf(&b, "  fused: %s\n", strings.Join(fused, " "))
		for j, o := range k.Operands {
			if o.Buffer == NoBuffer {
				fmt.Fprintf(&b, "  op%d index map: offset %d strides %v\n", j, o.Offset, o.Strides)
				continue
			}
			fmt.Fprintf(&b, "  op%d buf%d %v offset %d strides %v\n", j, o.Buffer, o.DType, o.Offset, o.Strides)
		}
		if m := k.MatMul(); m != nil {
			for _, x := range []struct {
				name string
				o    MatOperand
			}{{"A", m.A}, {"B", m.B}} {
				fmt.Fprintf(&b, "  %s buf%d %v offset %d strides %v trans %v ld %d\n", x.name, x.o.Buffer, x.o.DType, x.o.Offset, x.o.Strides, x.o.Trans, x.o.LD)
			}
			fmt.Fprintf(&b, "  gemm M %d N %d K %d\n", m.M, m.N, m.K)
		}
		if c := k.Call(); c != nil {
			explainCall(&b, c)
		}
		if s := k.Index(); s != nil {
			explainIndex(&b, s)
		}
		if so := k.Sort(); so != nil {
			order := "ascending, NaN last"
			if so.Desc {
				order = "descending, NaN first"
			}
			fmt.Fprintf(&b, "  sort rows of %d keys of op0, %s, keep %d\n", so.N, order, so.K)
		}
		body, epi := k.Bodies()
		for j := range body {
			fmt.Fprintf(&b, "  %%%d = %s %v\n", j, instrString(&body[j]), body[j].DType)
		}
		for j, r := range reductions(k) {
			fmt.Fprintf(&b, "  r%d = %v(%%%d) %v\n", j, r.Op, r.Value, r.DType)
		}
		for j := range epi {
			fmt.Fprintf(&b, "  epilogue %%%d = %s %v\n", j, instrString(&epi[j]), epi[j].DType)
		}
		for _, s := range k.Stores {
			fmt.Fprintf(&b, "  store %%%d -> buf%d %v offset %d strides %v\n", s.Value, s.Buffer, s.DType, s.Offset, s.Strides)
		}
		if a != nil {
			if note := a.Kernel(i); note != "" {
				fmt.Fprintf(&b, "  %s: %s\n", a.Target(), note)
			}
		}
		fmt.Fprintf(&b, "  bytes: read %d written %d\n", k.BytesRead, k.BytesWritten)
	}
	for i, o := range p.Outputs {
		fmt.Fprintf(&b, "output %d: buf%d %v %v strides %v offset %d", i, o.Buffer, o.Layout.DType, o.Layout.Shape, o.Layout.Strides, o.Layout.Offset)
		if o.View {
			b.WriteString(" (view)")
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// WriteDOT writes the plan in Graphviz DOT syntax: one cluster per kernel
// holding its instructions, buffers as boxes outside, edges from buffers
// to the loads that read them and from stores to the buffers they write.
func WriteDOT(w io.Writer, p *Plan) error {
	var b strings.Builder
	b.WriteString("digraph plan {\n  node [fontname=\"monospace\"];\n")
	for i, bf := range p.Buffers {
		fmt.Fprintf(&b, "  buf%d [shape=box, label=\"buf%d %v %dB\"];\n", i, i, bf.Kind, bf.Bytes)
	}
	for ki := range p.Kernels {
		k := &p.Kernels[ki]
		fmt.Fprintf(&b, "  subgraph cluster_k%d {\n    label=%q;\n", ki, fmt.Sprintf("kernel %d %s %v", ki, k.Name, k.Space))
		body := func(prefix string, ins []Instr) {
			for j := range ins {
				fmt.Fprintf(&b, "    k%d%s%d [label=%q];\n", ki, prefix, j, instrString(&ins[j])+" "+ins[j].DType.String())
				for _, a := range ins[j].Args {
					fmt.Fprintf(&b, "    k%d%s%d -> k%d%s%d;\n", ki, prefix, a, ki, prefix, j)
				}
			}
		}
		kb, epi := k.Bodies()
		body("b", kb)
		for j, r := range reductions(k) {
			fmt.Fprintf(&b, "    k%dr%d [label=%q, shape=diamond];\n    k%db%d -> k%dr%d;\n", ki, j, r.Op.String(), ki, r.Value, ki, j)
		}
		body("e", epi)
		for j := range epi {
			if epi[j].Kind == InstrAcc {
				src := fmt.Sprintf("k%dr%d", ki, epi[j].Acc)
				if k.Kind() == KindMatMul {
					src = fmt.Sprintf("k%dgemm", ki)
				}
				fmt.Fprintf(&b, "    %s -> k%de%d;\n", src, ki, j)
			}
		}
		if m := k.MatMul(); m != nil {
			fmt.Fprintf(&b, "    k%dgemm [label=\"gemm %dx%dx%d\", shape=diamond];\n", ki, m.M, m.N, m.K)
		}
		b.WriteString("  }\n")
		for _, ins := range []struct {
			prefix string
			list   []Instr
		}{{"b", kb}, {"e", epi}} {
			for j, in := range ins.list {
				if in.Kind == InstrLoad {
					fmt.Fprintf(&b, "  buf%d -> k%d%s%d;\n", k.Operands[in.Operand].Buffer, ki, ins.prefix, j)
				}
			}
		}
		if m := k.MatMul(); m != nil {
			fmt.Fprintf(&b, "  buf%d -> k%dgemm;\n  buf%d -> k%dgemm;\n", m.A.Buffer, ki, m.B.Buffer, ki)
		}
		if s := k.Index(); s != nil {
			fmt.Fprintf(&b, "  k%dindex [label=%q, shape=octagon];\n", ki, s.Op.String())
			for _, a := range []IndexArg{s.X, s.Index, s.Updates} {
				if a.Buffer != NoBuffer && a.Len > 0 {
					fmt.Fprintf(&b, "  buf%d -> k%dindex;\n", a.Buffer, ki)
				}
			}
			if s.Out.Buffer != NoBuffer {
				fmt.Fprintf(&b, "  k%dindex -> buf%d [style=bold];\n", ki, s.Out.Buffer)
			}
		}
		if c := k.Call(); c != nil {
			fmt.Fprintf(&b, "  k%dcall [label=%q, shape=doubleoctagon];\n", ki, c.Kernel.Name())
			for _, a := range c.Args {
				if a.Buffer == NoBuffer {
					continue
				}
				fmt.Fprintf(&b, "  buf%d -> k%dcall;\n", a.Buffer, ki)
				if a.Written {
					fmt.Fprintf(&b, "  k%dcall -> buf%d [style=bold];\n", ki, a.Buffer)
				}
			}
		}
		prefix := "b"
		if k.Kind() != KindMap {
			prefix = "e"
		}
		for _, s := range k.Stores {
			fmt.Fprintf(&b, "  k%d%s%d -> buf%d [style=bold];\n", ki, prefix, s.Value, s.Buffer)
		}
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// reductions returns the reductions of a Reduce kernel, else nil.
func reductions(k *Kernel) []Reduction {
	if rs := k.Reduce(); rs != nil {
		return rs.Reductions
	}
	return nil
}

// explainCall writes the geometry and the arguments of a Call kernel.
func explainCall(b *strings.Builder, c *CallSpec) {
	if c.ForAll {
		fmt.Fprintf(b, "  call %s forall %d\n", c.Kernel.Name(), c.Tasks)
	} else {
		fmt.Fprintf(b, "  call %s grid %v block %v shared %d\n", c.Kernel.Name(), c.Grid, c.Block, c.SharedBytes)
	}
	for _, a := range c.Args {
		switch {
		case a.Buffer == NoBuffer && a.Len == 0 && a.Value != nil:
			fmt.Fprintf(b, "  arg %s = %v\n", a.Name, a.Value)
		case a.Buffer == NoBuffer:
			fmt.Fprintf(b, "  arg %s empty %v\n", a.Name, a.DType)
		default:
			fmt.Fprintf(b, "  arg %s buf%d %v offset %d len %d", a.Name, a.Buffer, a.DType, a.Offset, a.Len)
			if a.Written {
				b.WriteString(" written")
			}
			b.WriteByte('\n')
		}
	}
}
