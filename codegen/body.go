// Body lowering: a kernel's scalar expression DAG (Body or Epilogue)
// evaluated at one point of the iteration space, instruction by
// instruction, with loads, generated leaves and accumulators supplied by
// the template that owns the point.

package codegen

import (
	"fmt"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// pointEnv supplies what a body reads at one point.
type pointEnv struct {
	// load returns operand op's element at the point, in register form.
	load func(op int) *ir.Value
	// index returns the element index of operand op at the point
	// (unsigned index type), for generated leaves.
	index func(op int) *ir.Value
	// acc returns the value of accumulator i (epilogues).
	acc func(i int) *ir.Value
	// offset returns the element offset of operand op at the point
	// (unsigned index type), for gathers.
	offset func(op int) *ir.Value
}

// laneEnv is the pointEnv of lane j of a vector of points whose operands
// were read into lanes (per operand, per lane: the loaded value, or the
// element index for an operand without a buffer, a generated leaf).
func (l *lowerer) laneEnv(lanes [][]*ir.Value, j int) pointEnv {
	return pointEnv{
		load: func(op int) *ir.Value {
			if o := l.k.Operands[op]; o.Buffer == fuse.NoBuffer {
				return l.load(o.Buffer, o.DType, nil)
			}
			return lanes[op][j]
		},
		index: func(op int) *ir.Value { return lanes[op][j] },
	}
}

// evalBody lowers instrs at one point and returns the value of each. Only
// the instructions in need (nil: all) are lowered.
func (l *lowerer) evalBody(instrs []fuse.Instr, env pointEnv, need []bool) ([]*ir.Value, error) {
	vals := make([]*ir.Value, len(instrs))
	for i := range instrs {
		if need != nil && !need[i] {
			continue
		}
		in := &instrs[i]
		l.b.SetComment(comment(in))
		v, err := l.evalInstr(in, instrs, vals, env)
		if err != nil {
			l.b.SetComment("")
			return nil, fmt.Errorf("instruction %d (%s %v %v): %w", i, in.Kind, in.Op, in.DType, err)
		}
		vals[i] = v
	}
	l.b.SetComment("")
	return vals, nil
}

// needed marks the instructions that the roots depend on.
func needed(instrs []fuse.Instr, roots []int) []bool {
	need := make([]bool, len(instrs))
	for _, r := range roots {
		if r >= 0 && r < len(need) {
			need[r] = true
		}
	}
	for i := len(instrs) - 1; i >= 0; i-- {
		if need[i] {
			for _, a := range instrs[i].Args {
				need[a] = true
			}
		}
	}
	return need
}

func comment(in *fuse.Instr) string {
	switch in.Kind {
	case fuse.InstrOp, fuse.InstrGen:
		return in.Op.String()
	case fuse.InstrLoad:
		return fmt.Sprintf("load operand %d", in.Operand)
	}
	return ""
}

func (l *lowerer) evalInstr(in *fuse.Instr, instrs []fuse.Instr, vals []*ir.Value, env pointEnv) (*ir.Value, error) {
	if regType(in.DType) == ir.Invalid {
		return nil, fmt.Errorf("unsupported dtype %v", in.DType)
	}
	for _, a := range in.Args {
		if a < 0 || a >= len(vals) || vals[a] == nil {
			return nil, fmt.Errorf("argument %d is not an earlier instruction", a)
		}
	}
	switch in.Kind {
	case fuse.InstrLoad:
		if env.load == nil {
			return nil, fmt.Errorf("no operand loads here")
		}
		return env.load(in.Operand), nil
	case fuse.InstrConst:
		return l.constOf(in.Value, in.DType), nil
	case fuse.InstrGen:
		if env.index == nil || in.Gen == nil {
			return nil, fmt.Errorf("generated leaf without an index or attributes")
		}
		return l.gen(in, env.index(in.Operand))
	case fuse.InstrGather:
		if env.offset == nil || env.index == nil || in.Gather == nil || len(in.Args) != 1 {
			return nil, fmt.Errorf("gather outside a map body or a reduce prologue")
		}
		return l.gather(in, vals[in.Args[0]], env.offset(in.Operand), env.index(in.Gather.Pos))
	case fuse.InstrAcc:
		if env.acc == nil {
			return nil, fmt.Errorf("accumulator outside an epilogue")
		}
		return env.acc(in.Acc), nil
	case fuse.InstrOp:
		args := make([]*ir.Value, len(in.Args))
		dts := make([]graph.DType, len(in.Args))
		for j, a := range in.Args {
			args[j] = vals[a]
			dts[j] = instrs[a].DType
		}
		return l.elementwise(in, args, dts)
	}
	return nil, fmt.Errorf("unknown instruction kind %v", in.Kind)
}
