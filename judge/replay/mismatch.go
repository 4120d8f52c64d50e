package replay

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/result"
)

// Difference is one way a replay departs from what its game makes of it: a field of the
// recorded result or of an exchange, with the recorded and the re-judged value in words, as
// a person reads them (the viewer's banner, `judge replay verify`).
type Difference struct {
	Field    string `json:"field"`
	Recorded string `json:"recorded"`
	Rejudged string `json:"rejudged"`
}

func (d Difference) String() string {
	return fmt.Sprintf("%s: recorded %s, re-judged %s", d.Field, d.Recorded, d.Rejudged)
}

// MismatchError is a replay that does not re-judge to what it records: the file was edited,
// or written by a judge whose rules differ from this one's.
type MismatchError struct {
	Differences []Difference
}

func (e *MismatchError) Error() string {
	parts := make([]string, len(e.Differences))
	for i, d := range e.Differences {
		parts[i] = d.String()
	}
	return "replay: does not re-judge to its record: " + strings.Join(parts, "; ")
}

// Check re-judges the replay (Watch, calling watch) and lists how it departs from what it
// records: in a move, where the re-judging stopped, or else in its result (compare). Empty: the
// replay is what its game makes of its moves.
func (rp *Replay) Check(g game.Game, watch func(step int, m game.Match)) ([]Difference, error) {
	got, err := rp.Watch(g, watch)
	var m *MismatchError
	switch {
	case errors.As(err, &m):
		return m.Differences, nil
	case err != nil:
		return nil, err
	}
	return rp.compare(got), nil
}

// compare lists the differences between the result a replay records and the one its game
// re-judged: each player's score, rank and fault, the winner, and the game and seed the
// result names against the header's. It is empty when they agree.
func (rp *Replay) compare(got game.Result) []Difference {
	rec := rp.Result
	var out []Difference
	add := func(field, recorded, rejudged string) {
		if recorded != rejudged {
			out = append(out, Difference{Field: field, Recorded: recorded, Rejudged: rejudged})
		}
	}
	add("game", quoted(rec.Game), quoted(rp.Header.Game))
	add("seed", strconv.FormatUint(rec.Seed, 10), strconv.FormatUint(rp.Header.Seed, 10))
	add("players", players(len(rec.Players)), players(len(got.Scores)))
	for i, p := range rec.Players {
		if i >= len(got.Scores) {
			break
		}
		name := fmt.Sprintf("player %d (%s)", i, quoted(p.Name))
		add(name+" score", number(p.Score), number(got.Scores[i]))
		add(name+" rank", strconv.Itoa(p.Rank), strconv.Itoa(rankOf(got, i)))
		if !reflect.DeepEqual(p.Fault, asRecorded(faultOrNil(got.Faults, i))) {
			out = append(out, Difference{Field: name + " fault", Recorded: faultWords(p.Fault), Rejudged: faultWords(faultOrNil(got.Faults, i))})
		}
	}
	add("winner", winnerWords(rec.Winner, rec.Players), winnerWords(got.Winner, rec.Players))
	return out
}

func rankOf(r game.Result, i int) int {
	if i < len(r.Ranks) {
		return r.Ranks[i]
	}
	return 0
}

func players(n int) string {
	if n == 1 {
		return "1 player"
	}
	return fmt.Sprintf("%d players", n)
}

func quoted(s string) string { return strconv.Quote(s) }

// number writes a score as the result's JSON does: 170, 5.666666666666667.
func number(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// faultWords is a fault as the viewer shows it, or says there is none.
func faultWords(f *game.Fault) string {
	if f == nil {
		return "no fault"
	}
	return fmt.Sprintf("%s at turn %d: %s", f.Kind, f.Turn, quoted(f.Detail))
}

// verdictWords is the game's judgement of an answer: none means the answer was accepted.
func verdictWords(f *game.Fault) string {
	if f == nil {
		return "the answer accepted"
	}
	return faultWords(f)
}

func winnerWords(w *int, ps []result.Player) string {
	if w == nil {
		return "a draw"
	}
	if *w >= 0 && *w < len(ps) {
		return fmt.Sprintf("player %d (%s)", *w, quoted(ps[*w].Name))
	}
	return fmt.Sprintf("player %d", *w)
}

// requestDifferences lists how the request an exchange records differs from the one the
// game makes at that point.
func requestDifferences(i int, x *Exchange, req game.Request) []Difference {
	var out []Difference
	at := fmt.Sprintf("exchange %d", i+1)
	add := func(field, recorded, rejudged string) {
		if recorded != rejudged {
			out = append(out, Difference{Field: at + " " + field, Recorded: recorded, Rejudged: rejudged})
		}
	}
	add("player", strconv.Itoa(x.Player), strconv.Itoa(req.Player))
	add("turn", strconv.Itoa(x.Turn), strconv.Itoa(req.Turn))
	add("sent", quoted(x.Sent), quoted(req.Send))
	add("lines asked for", strconv.Itoa(x.Expect), strconv.Itoa(req.Expect))
	add("ready line", quoted(x.Ready), quoted(req.Ready))
	// A replay records the limit in microseconds.
	us := func(n int64) string { return (time.Duration(n) * time.Microsecond).String() }
	add("time limit", us(x.LimitUS), us(req.Limit.Microseconds()))
	return out
}

func mismatch(d ...Difference) *MismatchError { return &MismatchError{Differences: d} }
