package similar

import (
	"strings"
	"testing"
)

func texts(t *testing.T, lang, src string) string {
	t.Helper()
	ts, err := tokenize(lang, []byte(src))
	if err != nil {
		t.Fatalf("%s: %v", lang, err)
	}
	var out []string
	for _, tk := range ts {
		out = append(out, tk.text)
	}
	return strings.Join(out, " ")
}

// In every language, names, literals, comments and layout are normalized away: a program and
// its copy with every name and literal changed, laid out otherwise and commented otherwise
// are the same tokens; a change of structure is not.
func TestTokensIgnoreNamesLiteralsCommentsAndLayout(t *testing.T) {
	for _, c := range []struct{ lang, a, b, other string }{
		{"cpp", "#include <cstdio>\nint best(int x) { // the best\n  return x * 2 + 1; }\n",
			"#include <vector>\n/* renamed */ int top(int value)\n{\n    return value*7+3;\n}\n",
			"int best(int x) { while (x) x--; return x; }"},
		{"csharp", "static int Best(int x) { var s = \"a\"; return x + s.Length; } // c", "static int Top(int v)\n{\n  var t = \"zz\";\n  return v + t.Length;\n}", "static int Best(int x) { return x; }"},
		{"go", "func best(x int) int {\n\t// a\n\treturn x * 2\n}\n", "func top(value int) int { return value * 9 }\n", "func best(x int) int { for { return x } }\n"},
		{"java", "int best(int x) { return x * 2; } /* c */", "int top(int y)\n{ return y * 3; }", "int best(int x) { if (x > 0) return 1; return x; }"},
		{"javascript", "function best(x) { return x * 2; } // c", "function top(y) {\n  return y * 5;\n}", "function best(x) { return [x]; }"},
		{"pascal", "function best(x: integer): integer;\nbegin\n  { c }\n  best := x * 2;\nend;", "function top(y: integer): integer; begin top := y * 3; end;", "function best(x: integer): integer; begin while x > 0 do x := x - 1; best := x; end;"},
		{"python", "def best(x):\n    # c\n    return x * 2\n", "def top(value):\n    return value * 7\n", "def best(x):\n    while x:\n        x -= 1\n    return x\n"},
		{"rust", "fn best(x: i32) -> i32 { // c\n x * 2 }", "fn top(value: i32) -> i32 {\n    value * 3\n}", "fn best(x: i32) -> i32 { loop { return x; } }"},
	} {
		ta, tb := texts(t, c.lang, c.a), texts(t, c.lang, c.b)
		if ta != tb {
			t.Errorf("%s: the copy's tokens differ:\n%s\n%s", c.lang, ta, tb)
		}
		if to := texts(t, c.lang, c.other); to == ta {
			t.Errorf("%s: another program has the same tokens: %s", c.lang, to)
		}
		if strings.Contains(ta, "best") || strings.Contains(ta, "2") {
			t.Errorf("%s: a name or a literal is left: %s", c.lang, ta)
		}
	}
	if _, err := tokenize("cpp", []byte("int x;\x00\x01")); err == nil {
		t.Error("a file with a NUL byte is taken as text")
	}
}
