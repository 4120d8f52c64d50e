package result

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// A result keeps the end of a bot's stderr: whole lines, at most 20 of them and 2 KiB, after a
// line saying what was cut.
func TestStderrTail(t *testing.T) {
	var lines strings.Builder
	for i := 1; i <= 25; i++ {
		fmt.Fprintf(&lines, "line %d\n", i)
	}
	long := strings.Repeat("é", StderrBytes) // 2 bytes each
	for _, tc := range []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"short", "a\nb", "a\nb"},
		{"20 lines", "x\n" + strings.Repeat("y\n", 19), "x\n" + strings.Repeat("y\n", 19)},
		{"25 lines", lines.String(), "[judge: 35 earlier bytes of stderr not shown]\n" + lines.String()[35:]},
		{"2 KiB", "head\n" + strings.Repeat("z", StderrBytes-3) + "\nw\n",
			"[judge: 5 earlier bytes of stderr not shown]\n" + strings.Repeat("z", StderrBytes-3) + "\nw\n"},
		{"over 2 KiB", "head\n" + strings.Repeat("z", StderrBytes-2) + "\nw\n",
			"[judge: 2052 earlier bytes of stderr not shown]\nw\n"},
		{"one long line", "a\n" + long, fmt.Sprintf("[judge: %d earlier bytes of stderr not shown]\n", 2+StderrBytes) + long[StderrBytes:]},
	} {
		got := StderrTail(tc.in)
		if got != tc.want {
			t.Errorf("%s: %q; want %q", tc.name, got, tc.want)
		}
		if body, _ := strings.CutPrefix(got, "[judge:"); body != got {
			_, body, _ = strings.Cut(body, "\n")
			if len(body) > StderrBytes || strings.Count(strings.TrimSuffix(body, "\n"), "\n") >= StderrLines || !utf8.ValidString(body) {
				t.Errorf("%s: kept %d bytes, %d lines", tc.name, len(body), strings.Count(body, "\n"))
			}
		}
	}
}
