// Command calculator evaluates arithmetic expressions, one per line, with a
// recursive-descent parser. It knows + - * / % ^, parentheses, unary minus,
// the constants pi and e, a few functions (sqrt, abs, sin, cos, ln) and
// variables: "x = 3 * 4" stores x, and "ans" is the last result.
package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"unicode"
)

type parser struct {
	src  []rune
	pos  int
	vars map[string]float64
}

type parseError struct{ msg string }

func (p *parser) fail(format string, args ...any) {
	panic(parseError{fmt.Sprintf("at %d: ", p.pos+1) + fmt.Sprintf(format, args...)})
}

func (p *parser) skip() {
	for p.pos < len(p.src) && unicode.IsSpace(p.src[p.pos]) {
		p.pos++
	}
}

func (p *parser) peek() rune {
	p.skip()
	if p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0
}

// expr := term { ("+" | "-") term }
func (p *parser) expr() float64 {
	v := p.term()
	for {
		switch p.peek() {
		case '+':
			p.pos++
			v += p.term()
		case '-':
			p.pos++
			v -= p.term()
		default:
			return v
		}
	}
}

// term := power { ("*" | "/" | "%") power }
func (p *parser) term() float64 {
	v := p.power()
	for {
		switch op := p.peek(); op {
		case '*':
			p.pos++
			v *= p.power()
		case '/', '%':
			p.pos++
			d := p.power()
			if d == 0 {
				p.fail("division by zero")
			}
			if op == '/' {
				v /= d
			} else {
				v = math.Mod(v, d)
			}
		default:
			return v
		}
	}
}

// power := unary [ "^" power ]   (right associative)
func (p *parser) power() float64 {
	base := p.unary()
	if p.peek() == '^' {
		p.pos++
		return math.Pow(base, p.power())
	}
	return base
}

// unary := "-" unary | primary
func (p *parser) unary() float64 {
	if p.peek() == '-' {
		p.pos++
		return -p.unary()
	}
	return p.primary()
}

var funcs = map[string]func(float64) float64{
	"sqrt": math.Sqrt, "abs": math.Abs, "sin": math.Sin, "cos": math.Cos, "ln": math.Log,
}

func (p *parser) primary() float64 {
	ch := p.peek()
	switch {
	case ch == '(':
		p.pos++
		v := p.expr()
		if p.peek() != ')' {
			p.fail("missing )")
		}
		p.pos++
		return v
	case unicode.IsDigit(ch) || ch == '.':
		start := p.pos
		for p.pos < len(p.src) && (unicode.IsDigit(p.src[p.pos]) || p.src[p.pos] == '.') {
			p.pos++
		}
		v, err := strconv.ParseFloat(string(p.src[start:p.pos]), 64)
		if err != nil {
			p.fail("bad number %q", string(p.src[start:p.pos]))
		}
		return v
	case unicode.IsLetter(ch):
		name := p.ident()
		if f, ok := funcs[name]; ok {
			if p.peek() != '(' {
				p.fail("%s needs parentheses", name)
			}
			return f(p.primary())
		}
		if v, ok := p.vars[name]; ok {
			return v
		}
		p.fail("unknown name %q", name)
	}
	p.fail("unexpected %q", string(ch))
	return 0
}

func (p *parser) ident() string {
	start := p.pos
	for p.pos < len(p.src) && (unicode.IsLetter(p.src[p.pos]) || unicode.IsDigit(p.src[p.pos])) {
		p.pos++
	}
	return string(p.src[start:p.pos])
}

// eval evaluates one line, which may be an assignment "name = expr".
func eval(line string, vars map[string]float64) (result float64, err error) {
	defer func() {
		if r := recover(); r != nil {
			pe, ok := r.(parseError)
			if !ok {
				panic(r)
			}
			err = fmt.Errorf("%s", pe.msg)
		}
	}()
	target := ""
	if i := strings.Index(line, "="); i > 0 {
		target = strings.TrimSpace(line[:i])
		line = line[i+1:]
	}
	p := &parser{src: []rune(line), vars: vars}
	result = p.expr()
	if p.peek() != 0 {
		p.fail("unexpected %q", string(p.peek()))
	}
	if target != "" {
		vars[target] = result
	}
	return result, nil
}

func main() {
	vars := map[string]float64{"pi": math.Pi, "e": math.E}
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		v, err := eval(line, vars)
		if err != nil {
			fmt.Println("error", err)
			continue
		}
		vars["ans"] = v
		fmt.Println(strconv.FormatFloat(v, 'g', 12, 64))
	}
}
