package tournament

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/botjudge/judge/judge/rating"
)

// Printer shows a tournament's progress on w: a bar redrawn in place when w is a terminal, a
// line every tenth of the way (and at the end) otherwise, so that a log keeps a readable record.
func Printer(w io.Writer) func(Progress) { return printer(w, terminal(w)) }

// terminal reports whether w is a terminal, where a line can be redrawn in place.
func terminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// ComparePrinter shows a comparison as it goes on w: the log-likelihood ratio between its
// bounds and the difference (as difference words it), a line redrawn in place on a terminal,
// every tenth pair (and the verdict) otherwise.
func ComparePrinter(w io.Writer, difference func(CompareOutcome) string) func(CompareOutcome) {
	tty := terminal(w)
	return func(o CompareOutcome) {
		line := fmt.Sprintf("%d pairs, %d matches  LLR %.2f in [%.2f, %.2f]  %s", o.Pairs, o.Matches, o.LLR, o.Bounds[0], o.Bounds[1], difference(o))
		switch decided := o.Verdict != rating.Undecided; {
		case tty && !decided:
			fmt.Fprintf(w, "\r\033[K%s", line)
		case tty:
			fmt.Fprintf(w, "\r\033[K%s\n", line)
		case o.Pairs%10 == 0 || decided:
			fmt.Fprintln(w, line)
		}
	}
}

func printer(w io.Writer, tty bool) func(Progress) {
	if tty {
		return barPrinter(w)
	}
	lastTenth, lastOpen := -1, -1
	return func(p Progress) {
		if tenth := 10 * p.Done / max(p.Total, 1); tenth != lastTenth || p.Done == p.Total || p.PlayingOn && p.Open != lastOpen {
			lastTenth, lastOpen = tenth, p.Open
			fmt.Fprintln(w, progressLine(p))
		}
	}
}

// barPrinter draws the bar with progressbar; the count, rate and ETA are progressLine's, not
// the bar's own, because results an earlier run stored arrive at once and are no work done.
func barPrinter(w io.Writer) func(Progress) {
	var bar *progressbar.ProgressBar
	return func(p Progress) {
		if bar == nil {
			bar = progressbar.NewOptions(max(p.Total, 1),
				progressbar.OptionSetWriter(w),
				progressbar.OptionSetWidth(30),
				progressbar.OptionSetTheme(progressbar.Theme{Saucer: "#", SaucerPadding: ".", BarStart: "[", BarEnd: "]"}),
				progressbar.OptionSetElapsedTime(false),
				progressbar.OptionSetPredictTime(false),
				progressbar.OptionShowDescriptionAtLineEnd(),
				progressbar.OptionOnCompletion(func() { fmt.Fprintln(w) }))
		}
		bar.ChangeMax(max(p.Total, 1)) // a round played until separated grows
		bar.Describe(progressLine(p))
		bar.Set(p.Done)
	}
}

// progressLine says how far p is: the count, the rate of matches judged in this run, and the
// time they suggest is left.
func progressLine(p Progress) string {
	rate := 0.0
	if m := p.Elapsed.Minutes(); m > 0 {
		rate = float64(p.Done-p.Stored) / m
	}
	eta := "-"
	if rate > 0 && p.Done < p.Total {
		eta = (time.Duration(float64(p.Total-p.Done)/rate*float64(time.Minute)) / time.Second * time.Second).String()
	}
	line := fmt.Sprintf("%d/%d matches  %.1f/min  ETA %s", p.Done, p.Total, rate, eta)
	if p.Stored > 0 {
		line += fmt.Sprintf("  (%d judged before)", p.Stored)
	}
	if p.Failed > 0 {
		line += fmt.Sprintf("  %d failed by the judge", p.Failed)
	}
	if p.PlayingOn {
		line += fmt.Sprintf("  playing on: %d pairs open, %d of %d more matches spent", p.Open, p.Extra, p.Budget)
	}
	return line
}
