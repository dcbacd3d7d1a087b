// This file implements the tokenizer of PTX source (PTX ISA 4.1-4.5):
// identifiers (opcodes with their dotted modifiers, directives, registers,
// labels), numeric literals, string literals (the file names of .file),
// punctuation, and C-style comments, each token with its line.

package ptxsim

import "fmt"

// tokKind classifies a token.
type tokKind uint8

const (
	tokEOF   tokKind = iota
	tokIdent         // ld.global.f32, .reg, %r1, %tid.x, $L1, name
	tokNum           // 42, 0x1F, 0f3F800000, 0d3FF0..., 1.5e-3
	tokPunct         // , ; : [ ] { } ( ) < > @ ! | + - =
	tokStr           // "name.go", its text without the quotes, escapes resolved
)

// token is one token with its 1-based line.
type token struct {
	kind tokKind
	text string
	line int
}

func (t token) String() string {
	if t.kind == tokEOF {
		return "end of input"
	}
	return fmt.Sprintf("%q", t.text)
}

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$' || c == '%' || c == '.'
}

func isIdentChar(c byte) bool {
	return isIdentStart(c) || c >= '0' && c <= '9' || c == ':'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// lex splits src into tokens. Errors name the line of an unterminated
// comment or an unexpected character.
func lex(src string) ([]token, error) {
	toks := make([]token, 0, len(src)/4)
	line := 1
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			start := line
			i += 2
			for {
				if i+1 >= len(src) {
					return nil, &ParseError{Line: start, Msg: "unterminated /* comment"}
				}
				if src[i] == '*' && src[i+1] == '/' {
					i += 2
					break
				}
				if src[i] == '\n' {
					line++
				}
				i++
			}
		case c == '"':
			str, n, err := lexString(src[i:], line)
			if err != nil {
				return nil, err
			}
			toks = append(toks, token{tokStr, str, line})
			i += n
		case isDigit(c):
			j := i + 1
			hex := c == '0' && j < len(src) && (src[j]|0x20 == 'x' || src[j]|0x20 == 'f' || src[j]|0x20 == 'd' || src[j]|0x20 == 'b')
			for j < len(src) {
				d := src[j]
				if isDigit(d) || d >= 'a' && d <= 'z' || d >= 'A' && d <= 'Z' || d == '.' {
					j++
					continue
				}
				// A signed exponent of a decimal float: 1.5e-3.
				if (d == '+' || d == '-') && !hex && (src[j-1]|0x20 == 'e') {
					j++
					continue
				}
				break
			}
			toks = append(toks, token{tokNum, src[i:j], line})
			i = j
		case isIdentStart(c):
			j := i + 1
			for j < len(src) && isIdentChar(src[j]) {
				// A label definition "name:" ends at the colon, but
				// "shared::cta" keeps its double colons.
				if src[j] == ':' && (j+1 >= len(src) || src[j+1] != ':') && src[j-1] != ':' {
					break
				}
				j++
			}
			toks = append(toks, token{tokIdent, src[i:j], line})
			i = j
		default:
			switch c {
			case ',', ';', ':', '[', ']', '{', '}', '(', ')', '<', '>', '@', '!', '|', '+', '-', '=':
				toks = append(toks, token{tokPunct, string(c), line})
				i++
			default:
				return nil, &ParseError{Line: line, Msg: fmt.Sprintf("unexpected character %q", c)}
			}
		}
	}
	toks = append(toks, token{tokEOF, "", line})
	return toks, nil
}

// lexString reads the string literal at the start of s (PTX ISA 4.2
// follows C: a backslash escapes the next character) and returns its
// text and the bytes it took. A string ends on its line.
func lexString(s string, line int) (string, int, error) {
	var b []byte
	for i := 1; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			return string(b), i + 1, nil
		case '\n':
			return "", 0, &ParseError{Line: line, Msg: "unterminated string literal"}
		case '\\':
			if i+1 >= len(s) || s[i+1] == '\n' {
				return "", 0, &ParseError{Line: line, Msg: "unterminated string literal"}
			}
			i++
			switch e := s[i]; e {
			case 'n':
				b = append(b, '\n')
			case 't':
				b = append(b, '\t')
			default:
				b = append(b, e)
			}
		default:
			b = append(b, c)
		}
	}
	return "", 0, &ParseError{Line: line, Msg: "unterminated string literal"}
}
