package match

import (
	"strings"
	"testing"

	"github.com/botjudge/judge/sandbox"
)

// A crash's detail quotes the line of stderr that names the error, not a stack frame.
func TestCrashDetailQuotesTheError(t *testing.T) {
	long := strings.Repeat("x", 199) + "é and more" // é's two bytes straddle the cut
	for _, tc := range []struct {
		name   string
		x      sandbox.Exit
		exited bool
		stderr string
		want   string
	}{
		{"java", sandbox.Exit{Code: 1}, true,
			"Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space\n\tat Hostile.main(Hostile.java:26)\n",
			"exited: exit status 1; stderr: Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space"},
		{"go", sandbox.Exit{Code: 2}, true,
			"\nfatal error: newosproc\n\ngoroutine 1 [running]:\nruntime.goexit({})\n\truntime/asm_amd64.s:1771 +0x1\n",
			"exited: exit status 2; stderr: fatal error: newosproc"},
		{"pascal", sandbox.Exit{Code: 232}, true,
			"Runtime error 232 at $000000000041A8DD\r\n  $000000000041A8DD\n",
			"exited: exit status 232; stderr: Runtime error 232 at $000000000041A8DD"},
		{"python", sandbox.Exit{Code: 1}, true,
			"Traceback (most recent call last):\n  File \"/bot/main.py\", line 9, in <module>\n    main()\n  File \"/bot/main.py\", line 5, in main\n    x = int(line)\nValueError: invalid literal for int() with base 10: 'go'\n",
			"exited: exit status 1; stderr: Traceback (most recent call last): ... ValueError: invalid literal for int() with base 10: 'go'"},
		{"javascript", sandbox.Exit{Code: 1}, true,
			"/bot/main.js:4\n  throw new Error('boom');\n  ^\n\nError: boom\n    at Object.<anonymous> (/bot/main.js:4:9)\n    at node:internal/main:1:1\n\nNode.js v18.19.0\n",
			"exited: exit status 1; stderr: /bot/main.js:4 ... Error: boom"},
		{"signal, no stderr", sandbox.Exit{Code: 139, Signal: 11}, true, " \n\n", "exited: killed by signal 11"},
		{"still running", sandbox.Exit{}, false, "", "closed its output and kept running"},
		{"long", sandbox.Exit{}, true, long, "exited: exit status 0; stderr: " + strings.Repeat("x", 199) + "..."},
		{"not UTF-8", sandbox.Exit{}, true, "bad \xff\xfe byte\n", "exited: exit status 0; stderr: bad \uFFFD byte"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := crashDetail(tc.x, tc.exited, []byte(tc.stderr)); got != tc.want {
				t.Errorf("got %q\nwant %q", got, tc.want)
			}
		})
	}
}
