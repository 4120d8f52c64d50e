package match

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/botjudge/judge/judge/replay"
)

// DefaultStderrMatch is the default of Runner.StderrMatch: four bots' worth of
// sandbox.DefaultOutput's stderr, so that by default only each bot's own limit cuts.
const DefaultStderrMatch = 256 << 10

// stderrLog writes the bots' stderr to the replay, each text with the exchange it belongs
// to, within the match's limit.
type stderrLog struct {
	w     *replay.Writer
	limit int64
	left  int64 // bytes the limit still allows; -1 once it cut
}

// take takes what bot b, player p, wrote to stderr since the previous take: it belongs to the
// bot's last exchange, or, before its first, to its first.
func (l *stderrLog) take(p int, b *bot) {
	if b.proc == nil {
		return
	}
	text := string(b.proc.TakeStderr())
	b.stderr.WriteString(text)
	if b.last < 0 {
		b.early += text
		return
	}
	l.write(p, b.last, text)
}

// moved records that exchange is bot b's (player p's) latest: its start-up's stderr, the
// first time, goes to it.
func (l *stderrLog) moved(p int, b *bot, exchange int) {
	b.last = exchange
	l.write(p, exchange, b.early)
	b.early = ""
}

// write writes text as player p's stderr during exchange, cut with a line saying so where it
// passes the match's limit; past that it writes nothing.
func (l *stderrLog) write(p, exchange int, text string) {
	if text == "" || l.left < 0 {
		return
	}
	if int64(len(text)) > l.left {
		cut := int(l.left)
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut]
		if text != "" && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		size := fmt.Sprintf("%d bytes", l.limit)
		if l.limit%1024 == 0 {
			size = fmt.Sprintf("%d KiB", l.limit>>10)
		}
		text += "[judge: stderr cut here: the match's " + size + " limit for all bots' stderr in its replay; no more is kept]\n"
		l.left = -1
	} else {
		l.left -= int64(len(text))
	}
	l.w.Stderr(p, exchange, text)
}
