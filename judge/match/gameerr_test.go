package match_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/game/referee"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/sandbox"
)

// failed is a match its game ended with err (an added game's referee).
type failed struct {
	game.Match
	err error
}

func (f failed) Err() error { return f.err }

// Whose an added game's early end is: the job's (an option it refused), the machine's (no
// program started, or no CPU given it: judged again), or the referee's (everything else, a
// refusal of options its manifest allows included).
func TestGameErr(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want result.Code
	}{
		{"not ended", nil, ""},
		{"not started", &referee.Error{Msg: "its image", NotStarted: true}, result.Infrastructure},
		{"given no CPU", &referee.Error{Msg: "no answer", Err: fmt.Errorf("%w: the machine is overloaded", sandbox.ErrStarved)}, result.Infrastructure},
		{"its CPU spent", &referee.Error{Msg: "no answer", Err: sandbox.ErrCPULimit}, result.Referee},
		{"an option refused", &game.OptionError{Problems: []string{"option turns: 0 is below 1"}}, result.BadOption},
		{"options its manifest allows refused", &referee.Error{Msg: "it refused options its manifest allows", Err: &game.OptionError{Problems: []string{"no"}}}, result.Referee},
		{"anything else", errors.New("contradicts itself"), result.Referee},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := match.GameErr(failed{err: tc.err})
			var re *result.Error
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("%v", err)
			case tc.want != "" && (!errors.As(err, &re) || re.Code != tc.want):
				t.Errorf("%v; want code %s", err, tc.want)
			}
		})
	}
}
