package tournament

import (
	"strings"
	"testing"
	"time"
)

// On a terminal the bar is redrawn in place and ends with a newline; elsewhere a line every
// tenth of the way. Both say the count, the rate of this run's matches and the ETA.
func TestPrinter(t *testing.T) {
	steps := []Progress{
		{Done: 2, Total: 10, Stored: 2, Elapsed: time.Second},
		{Done: 3, Total: 10, Stored: 2, Elapsed: time.Minute},
		{Done: 3, Total: 10, Stored: 2, Failed: 1, Elapsed: time.Minute},
		{Done: 10, Total: 10, Stored: 2, Elapsed: 4 * time.Minute},
	}
	var log strings.Builder
	p := printer(&log, false)
	for _, s := range steps {
		p(s)
	}
	want := "2/10 matches  0.0/min  ETA -  (2 judged before)\n" +
		"3/10 matches  1.0/min  ETA 7m0s  (2 judged before)\n" +
		"10/10 matches  2.0/min  ETA -  (2 judged before)\n"
	if log.String() != want {
		t.Errorf("not a terminal:\n%s\nwant\n%s", log.String(), want)
	}

	var term strings.Builder
	p = printer(&term, true)
	for _, s := range steps {
		p(s)
	}
	out := term.String()
	for _, w := range []string{"\r", "[###", "....]", "3/10 matches  1.0/min  ETA 7m0s  (2 judged before)  1 failed by the judge",
		"100% [##############################]  10/10 matches  2.0/min  ETA -"} {
		if !strings.Contains(out, w) {
			t.Errorf("the terminal's bar %q does not show %q", out, w)
		}
	}
	if !strings.HasSuffix(out, "\n") {
		t.Errorf("the finished bar does not end its line: %q", out)
	}
}
