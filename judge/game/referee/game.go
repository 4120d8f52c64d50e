package referee

import (
	"errors"
	"io"
	"path"
	"strings"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/game/manifest"
)

// Game is a game whose rules are a referee program: what its manifest says of it (name,
// player counts, options) is answered from the manifest, and a match's steps by the program,
// which Start starts for each match that is played.
//
// A match is started lazily: game.Start checks the options against the manifest and starts
// nothing, so that everything that only checks a match (a job's options, a contest's player
// counts) needs no referee; the program starts at the match's first Setup or Next, and ends
// with the match (or Close).
type Game struct {
	Manifest manifest.Manifest
	// Files are the game directory's files by path (Load's); Sources the referee's among
	// them (the manifest's referee.files); Version their content hash, which results and
	// replays record.
	Files   map[string][]byte
	Sources map[string][]byte
	Version string
	// Start starts the referee program for one match: a Conn to it, and how to end it. A
	// loaded game has none until a match binds it (match.Referee.Bind).
	Start func() (Conn, io.Closer, error)
}

// Renderer is the game's script for the viewer's pictures (the manifest's renderer), or nil.
func (g *Game) Renderer() []byte {
	if g.Manifest.Renderer == "" {
		return nil
	}
	return g.Files[g.Manifest.Renderer]
}

// Name is the manifest's.
func (g *Game) Name() string { return g.Manifest.Name }

// Players are the manifest's.
func (g *Game) Players() (min, max, def int) {
	p := g.Manifest.Players
	return p.Min, p.Max, p.Default
}

// Options are the manifest's, memory last.
func (g *Game) Options() []game.Option { return g.Manifest.Documented() }

// New checks c's options against the manifest and returns the match, its referee not started.
func (g *Game) New(c game.Config) (game.Match, error) {
	opts, err := g.Manifest.Read(c.Options)
	if err != nil {
		return nil, err
	}
	c.Options = opts
	return &lazy{g: g, c: c}, nil
}

// lazy is a match whose referee starts when the match is first played.
type lazy struct {
	g      *Game
	c      game.Config
	m      game.Match
	closer io.Closer
	err    error
}

func (l *lazy) started() bool {
	if l.m == nil && l.err == nil {
		start := l.g.Start
		if start == nil {
			start = func() (Conn, io.Closer, error) { return nil, nil, errors.New("the game is not bound to a sandbox") }
		}
		conn, closer, err := start()
		var re *Error
		if errors.As(err, &re) {
			l.err = err // the program's own failure (it does not compile)
			return false
		}
		if err != nil {
			l.err = &Error{Msg: "it did not start", Err: err, NotStarted: true}
			return false
		}
		l.closer = closer
		l.m, l.err = Start(conn, l.c)
		var oe *game.OptionError
		if errors.As(l.err, &oe) && !l.textGiven() {
			// The manifest took every option and the referee refused them: the two disagree.
			// With a text option given (a map), the referee is the one to read it: its
			// refusal is the job's bad option.
			l.err = &Error{Msg: "it refused options its manifest allows", Err: l.err}
		}
		if l.err != nil {
			l.Close()
		}
	}
	return l.err == nil
}

// textGiven reports whether the match was given a text option, which only the referee reads.
func (l *lazy) textGiven() bool {
	for _, o := range l.g.Manifest.Options {
		if o.Type == "text" && l.c.Options[o.Name] != "" {
			return true
		}
	}
	return false
}

// Err is why the match ended early: the referee's failure (an *Error), or the job's text
// option that the referee refused (a *game.OptionError); nil otherwise.
func (l *lazy) Err() error {
	if l.err != nil {
		return l.err
	}
	if e, ok := l.m.(interface{ Err() error }); ok {
		return e.Err()
	}
	return nil
}

// Close ends the referee program, once.
func (l *lazy) Close() error {
	if l.closer == nil {
		return nil
	}
	c := l.closer
	l.closer = nil
	return c.Close()
}

func (l *lazy) Setup() game.Setup {
	if !l.started() {
		return game.Setup{Options: l.c.Options}
	}
	return l.m.Setup()
}

func (l *lazy) Next() (game.Request, bool) {
	if !l.started() {
		return game.Request{}, true
	}
	req, over := l.m.Next()
	if over {
		l.Close()
	}
	return req, over
}

func (l *lazy) Reply(r game.Reply) *game.Fault {
	if !l.started() {
		return r.Fault
	}
	return l.m.Reply(r)
}

func (l *lazy) Result() game.Result {
	if l.m == nil {
		return game.Result{}
	}
	return l.m.Result()
}

// View is the referee's last picture, or none (no scores) from a referee that draws none.
func (l *lazy) View() game.View {
	if !l.started() {
		return game.View{Scores: make([]float64, l.c.Players)}
	}
	if v, ok := l.m.(game.Viewer); ok {
		return v.View()
	}
	return game.View{Scores: make([]float64, l.c.Players)}
}

// Sample is the manifest's sample bot in lang: the files below its directory, by path in it.
func (g *Game) Sample(lang string) (map[string][]byte, bool) {
	dir, ok := g.Manifest.Samples[lang]
	if !ok {
		return nil, false
	}
	prefix := ""
	if d := path.Clean(dir); d != "." {
		prefix = d + "/"
	}
	files := map[string][]byte{}
	for name, data := range g.Files {
		if rest, ok := strings.CutPrefix(name, prefix); ok {
			files[rest] = data
		}
	}
	return files, len(files) > 0
}

// Directory is the game's directory, every file (Load's).
func (g *Game) Directory() map[string][]byte { return g.Files }

// RulesPage is the manifest's rules page, or nil.
func (g *Game) RulesPage() []byte {
	if g.Manifest.Rules == "" {
		return nil
	}
	return g.Files[g.Manifest.Rules]
}
