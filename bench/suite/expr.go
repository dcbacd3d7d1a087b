// The expression syntax of a workload: statements of calls, names and
// numbers, parsed into a small tree.

package suite

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// Expr is a parsed expression: a call (Func and Args), a name (Name) or a
// number (Num; IsInt when written without a point or exponent).
type Expr struct {
	Func  string
	Args  []*Expr
	Name  string
	Num   float64
	IsNum bool
	IsInt bool
}

// Stmt is one statement: Bind = Value, or the result when Bind is "".
type Stmt struct {
	Bind  string
	Value *Expr
}

// ParseExpr parses a workload's expression: statements separated by
// ";", each but the last "name = expr", the last an expression. It
// returns an error naming the position of the first syntax error.
func ParseExpr(src string) ([]Stmt, error) {
	parts := strings.Split(src, ";")
	var out []Stmt
	for i, part := range parts {
		p := &parser{src: strings.TrimSpace(part)}
		var st Stmt
		if i < len(parts)-1 {
			name, rest, ok := strings.Cut(p.src, "=")
			name = strings.TrimSpace(name)
			if !ok || !isName(name) {
				return nil, fmt.Errorf("expression %q: statement %d: want \"name = expr\"", src, i+1)
			}
			st.Bind, p.src = name, strings.TrimSpace(rest)
		}
		e, err := p.expr()
		if err == nil && p.pos < len(p.src) {
			err = fmt.Errorf("unexpected %q", p.src[p.pos:])
		}
		if err != nil {
			return nil, fmt.Errorf("expression %q: statement %d: %w", src, i+1, err)
		}
		st.Value = e
		out = append(out, st)
	}
	return out, nil
}

func isName(s string) bool {
	if s == "" || !unicode.IsLetter(rune(s[0])) && s[0] != '_' {
		return false
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' {
			return false
		}
	}
	return true
}

type parser struct {
	src string
	pos int
}

func (p *parser) skip() {
	for p.pos < len(p.src) && p.src[p.pos] == ' ' {
		p.pos++
	}
}

func (p *parser) expr() (*Expr, error) {
	p.skip()
	start := p.pos
	if p.pos < len(p.src) && (p.src[p.pos] == '-' || p.src[p.pos] == '.' || unicode.IsDigit(rune(p.src[p.pos]))) {
		p.pos++
		for p.pos < len(p.src) && strings.ContainsRune("0123456789.eE+-", rune(p.src[p.pos])) {
			p.pos++
		}
		text := p.src[start:p.pos]
		v, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return nil, fmt.Errorf("bad number %q at %d", text, start)
		}
		return &Expr{Num: v, IsNum: true, IsInt: !strings.ContainsAny(text, ".eE")}, nil
	}
	for p.pos < len(p.src) && (unicode.IsLetter(rune(p.src[p.pos])) || unicode.IsDigit(rune(p.src[p.pos])) || p.src[p.pos] == '_') {
		p.pos++
	}
	name := p.src[start:p.pos]
	if !isName(name) {
		return nil, fmt.Errorf("want a name, a number or a call at %d", start)
	}
	p.skip()
	if p.pos >= len(p.src) || p.src[p.pos] != '(' {
		return &Expr{Name: name}, nil
	}
	p.pos++
	e := &Expr{Func: name}
	for {
		p.skip()
		if p.pos < len(p.src) && p.src[p.pos] == ')' && len(e.Args) == 0 {
			p.pos++
			return e, nil
		}
		a, err := p.expr()
		if err != nil {
			return nil, err
		}
		e.Args = append(e.Args, a)
		p.skip()
		if p.pos >= len(p.src) {
			return nil, fmt.Errorf("unclosed call of %s", name)
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
		case ')':
			p.pos++
			return e, nil
		default:
			return nil, fmt.Errorf("want \",\" or \")\" at %d", p.pos)
		}
	}
}
