// Package portaladmin is the organisers' commands on the portal's host: judge portal contest,
// user and round, each a shell over the contest engine acting as the host (contest.HostActor).
package portaladmin

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/botjudge/judge/cmd/judge/internal/base"
	"github.com/botjudge/judge/cmd/judge/internal/cli"
	"github.com/botjudge/judge/judge/api"
	"github.com/botjudge/judge/judge/contest"
	"github.com/botjudge/judge/judge/contest/ladder"
	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/tournament/standings"
)

// ContestCmd is judge portal contest.
func ContestCmd(a *base.App) *cobra.Command {
	group := &cobra.Command{Use: "contest", Short: "Make and change contests"}
	group.AddCommand(portalContestCreateCmd(a), portalContestListCmd(a), portalContestShowCmd(a), portalContestCloseCmd(a), portalContestLogCmd(a), portalContestSimilarCmd(a), portalContestSetCmd(a))
	return group
}

func portalContestCreateCmd(a *base.App) *cobra.Command {
	var gameName, deadline string
	var opts, langs, house, leagues []string
	var quota, uploads int
	var peers, onLadder, asJSON bool
	create := &cobra.Command{
		Use:   "create NAME --game G [--opt k=v]... [--langs L,...] [--house NAME=BOT]... [--league NAME=HOUSEBOT]... [--deadline RFC3339] [--quota N] [--upload-quota N] [--peer-matches] [--ladder] [--json]",
		Short: "Make a contest: its game and options, languages, house bots, deadline and test-match quota",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c := store.Contest{Name: args[0], Game: gameName, Langs: langs, TestQuota: quota, UploadQuota: uploads, PeerMatches: peers, Ladder: onLadder}
			if uploads < 1 {
				return cli.Usage(fmt.Errorf("--upload-quota %d: want 1 or more uploads an hour", uploads))
			}
			if err := store.ValidName("contest", c.Name); err != nil {
				return cli.Usage(errors.New(strings.TrimPrefix(err.Error(), "invalid: ")))
			}
			if gameName == "" {
				return cli.Usage(errors.New("--game: which game the contest plays (judge games lists them)"))
			}
			if err := cli.CheckLangs("--langs", langs...); err != nil {
				return err
			}
			var err error
			if c.Options, err = cli.ParseOptions(opts); err != nil {
				return cli.Usage(err)
			}
			if deadline != "" {
				if c.Deadline, err = time.Parse(time.RFC3339, deadline); err != nil {
					return cli.Usage(fmt.Errorf("--deadline %q: want RFC 3339, like 2026-12-24T18:00:00Z", deadline))
				}
			}
			for _, s := range leagues {
				l, err := ladder.ParseLeague(s)
				if err != nil {
					return cli.Usage(fmt.Errorf("--league: %w", err))
				}
				if c.LadderSettings.Unset() {
					c.LadderSettings = ladder.Defaults
				}
				c.LadderSettings.Leagues = append(c.LadderSettings.Leagues, l)
			}
			var bots []contest.HouseBot
			for _, h := range house {
				name, path, ok := strings.Cut(h, "=")
				if !ok || name == "" || path == "" {
					return cli.Usage(fmt.Errorf("--house %q: want NAME=BOT (a source file or directory)", h))
				}
				sub, err := cli.LoadBot(path, int64(a.Cfg.Build.SourceLimit))
				if err != nil {
					return err
				}
				bots = append(bots, contest.HouseBot{Name: name, Lang: sub.Lang, Files: sub.Files})
			}
			// The game is checked before the store is opened to write: opening it waits for
			// a restarting server, and a name no store knows is refused at once.
			if _, err := a.LookupGame("--game", gameName); err != nil {
				return err
			}
			a.CloseLookup() // the store is opened again, to write
			st, q, err := a.PortalStore(cmd.Context())
			if err != nil {
				return err
			}
			defer q.Close()
			c, err = a.ContestEngine(st, q).NewContest(cmd.Context(), contest.HostActor(), c, bots)
			if errors.Is(err, store.ErrInvalid) || errors.Is(err, store.ErrExists) {
				return cli.Usage(errors.New(strings.TrimPrefix(err.Error(), "invalid: ")))
			}
			if err != nil {
				return err
			}
			return cli.PrintOut(cmd.OutOrStdout(), asJSON, c, func(w io.Writer) {
				fmt.Fprintf(w, "contest %s: %s, %d house bot(s); add people with `judge portal user add --contest %s LOGIN`\n",
					c.Name, c.Game, len(c.House), c.Name)
			})
		},
	}
	f := create.Flags()
	f.StringVar(&gameName, "game", "", "the game (judge games)")
	f.StringArrayVar(&opts, "opt", nil, "a game option, k=v (repeat)")
	f.StringSliceVar(&langs, "langs", nil, "the languages allowed (default: all)")
	f.StringArrayVar(&house, "house", nil, "a house bot, NAME=BOT (repeat); validations, test matches, the ladder and rounds seat them where versions leave seats empty")
	f.StringArrayVar(&leagues, "league", nil, "a league of the ladder, NAME=HOUSEBOT (repeat, the lowest first; the top league may be NAME alone): versions start in the lowest and move up by beating its boss")
	f.StringVar(&deadline, "deadline", "", "when submissions close (RFC 3339)")
	f.IntVar(&quota, "quota", store.DefaultTestQuota, "test matches a contestant may ask for per hour")
	f.IntVar(&uploads, "upload-quota", store.DefaultUploadQuota, "versions a contestant may upload per hour")
	f.BoolVar(&peers, "peer-matches", false, "let contestants ask for test matches against each other's active versions")
	f.BoolVar(&onLadder, "ladder", false, "keep rated matches flowing among the active versions until the deadline (docs/portal.md)")
	f.BoolVar(&asJSON, "json", false, "print the contest as JSON")
	return create
}

func portalContestListCmd(a *base.App) *cobra.Command {
	var asJSON bool
	list := &cobra.Command{
		Use:   "list [--json]",
		Short: "The contests: each one's game, people, house bots and deadline",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			st, q, err := a.PortalStore(cmd.Context())
			if err != nil {
				return err
			}
			defer q.Close()
			cs, err := st.Contests(cmd.Context())
			if err != nil {
				return err
			}
			people := map[string]int{}
			for _, c := range cs {
				us, err := st.Users(cmd.Context(), c.Name)
				if err != nil {
					return err
				}
				people[c.Name] = len(us)
			}
			return cli.PrintOut(cmd.OutOrStdout(), asJSON, cs, func(w io.Writer) {
				tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "CONTEST\tGAME\tPEOPLE\tHOUSE BOTS\tDEADLINE\tCREATED\tCLOSED")
				for _, c := range cs {
					deadline, closed := "-", "-"
					if !c.Deadline.IsZero() {
						deadline = c.Deadline.UTC().Format(time.RFC3339)
					}
					if c.ReadOnly() {
						closed = c.ClosedAt.UTC().Format(time.RFC3339)
					}
					fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\t%s\n", c.Name, c.Game, people[c.Name], len(c.House), deadline, c.Created.Format(time.DateOnly), closed)
				}
				tw.Flush()
			})
		},
	}
	list.Flags().BoolVar(&asJSON, "json", false, "print the contests as JSON")
	return list
}

func portalContestShowCmd(a *base.App) *cobra.Command {
	var asJSON bool
	show := &cobra.Command{
		Use:   "show NAME [--json]",
		Short: "A contest's settings: game, options, languages, house bots, quotas, deadline, test rounds, the ladder",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, q, err := a.PortalStore(cmd.Context())
			if err != nil {
				return err
			}
			defer q.Close()
			c, err := st.Contest(cmd.Context(), args[0])
			if errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrInvalid) {
				return noContest("", args[0])
			}
			if err != nil {
				return err
			}
			return cli.PrintOut(cmd.OutOrStdout(), asJSON, c, func(w io.Writer) {
				fmt.Fprintf(w, "contest %s: %s\n", c.Name, c.Game)
				for _, k := range slices.Sorted(maps.Keys(c.Options)) {
					fmt.Fprintf(w, "  option %s=%s\n", k, c.Options[k])
				}
				langs := "all"
				if len(c.Langs) > 0 {
					langs = strings.Join(c.Langs, ", ")
				}
				fmt.Fprintf(w, "  languages: %s\n", langs)
				for _, h := range c.House {
					fmt.Fprintf(w, "  house bot %s (%s)\n", h.Name, h.Lang)
				}
				fmt.Fprintf(w, "  test matches an hour: %d; uploads an hour: %d; peer matches: %v; house bots published: %v\n", c.TestQuota, c.UploadQuota, c.PeerMatches, c.PublishHouse)
				if !c.Deadline.IsZero() {
					fmt.Fprintf(w, "  deadline: %s\n", c.Deadline.UTC().Format(time.RFC3339))
				}
				for _, r := range c.TestRounds {
					fmt.Fprintf(w, "  test round at %s\n", r.UTC().Format(time.RFC3339))
				}
				fmt.Fprintf(w, "  ladder: %v\n", c.Ladder)
				for i, l := range c.LadderSettings.Leagues {
					boss := "no boss"
					if l.Boss != "" {
						boss = "boss " + l.Boss
					}
					fmt.Fprintf(w, "  league %d: %s, %s\n", i+1, l.Name, boss)
				}
				if c.ReadOnly() {
					fmt.Fprintf(w, "  closed at %s: read-only\n", c.ClosedAt.UTC().Format(time.RFC3339))
				}
			})
		},
	}
	show.Flags().BoolVar(&asJSON, "json", false, "print the contest as JSON")
	return show
}

func portalContestCloseCmd(a *base.App) *cobra.Command {
	var asJSON bool
	closeCmd := &cobra.Command{
		Use:   "close NAME [--json]",
		Short: "Close a contest: read-only from now on (no version, test match, round, person or setting more), its pages, matches and standings still to see",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, q, err := a.PortalStore(cmd.Context())
			if err != nil {
				return err
			}
			defer q.Close()
			c, err := a.ContestEngine(st, q).CloseContest(cmd.Context(), contest.HostActor(), args[0])
			if errors.Is(err, store.ErrNotFound) {
				return noContest("", args[0])
			}
			if err != nil {
				return err
			}
			return cli.PrintOut(cmd.OutOrStdout(), asJSON, c, func(w io.Writer) {
				fmt.Fprintf(w, "contest %s: closed at %s, read-only\n", c.Name, c.ClosedAt.UTC().Format(time.RFC3339))
			})
		},
	}
	closeCmd.Flags().BoolVar(&asJSON, "json", false, "print the contest as JSON")
	return closeCmd
}

func portalContestLogCmd(a *base.App) *cobra.Command {
	var asJSON bool
	var last int
	logCmd := &cobra.Command{
		Use:   "log NAME [-n N] [--json]",
		Short: "What the contest's organisers did (who, what, when), newest first: on its pages, by its API, and from here",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if last < 0 {
				return cli.Usage(fmt.Errorf("-n %d: want 0 (all) or more", last))
			}
			st, q, err := a.PortalStore(cmd.Context())
			if err != nil {
				return err
			}
			defer q.Close()
			if _, err := st.Contest(cmd.Context(), args[0]); errors.Is(err, store.ErrNotFound) {
				return noContest("", args[0])
			} else if err != nil {
				return err
			}
			actions, err := st.Actions(cmd.Context(), args[0], last)
			if err != nil {
				return err
			}
			return cli.PrintOut(cmd.OutOrStdout(), asJSON, actions, func(w io.Writer) {
				tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "WHEN\tWHO\tWHAT")
				for _, x := range actions {
					fmt.Fprintf(tw, "%s\t%s\t%s\n", x.At.UTC().Format(time.RFC3339), x.Who, x.What)
				}
				tw.Flush()
			})
		},
	}
	logCmd.Flags().IntVarP(&last, "last", "n", 0, "the newest N actions (0: all)")
	logCmd.Flags().BoolVar(&asJSON, "json", false, "print the actions as JSON")
	return logCmd
}

// UserCmd is judge portal user.
func UserCmd(a *base.App) *cobra.Command {
	user := &cobra.Command{Use: "user", Short: "Add people to contests"}
	var contestName string
	var organiser, asJSON bool
	add := &cobra.Command{
		Use:   "add --contest NAME LOGIN [--organiser] [--json]",
		Short: "Add a contestant (or an organiser): prints an API token and a one-time invite link",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if contestName == "" {
				return cli.Usage(errors.New("--contest: the contest the user takes part in"))
			}
			if err := store.ValidName("login", args[0]); err != nil {
				return cli.Usage(errors.New(strings.TrimPrefix(err.Error(), "invalid: ")))
			}
			st, q, err := a.PortalStore(cmd.Context())
			if err != nil {
				return err
			}
			defer q.Close()
			nu, err := a.ContestEngine(st, q).AddUser(cmd.Context(), contest.HostActor(), contestName, args[0], organiser)
			if errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrExists) {
				return cli.Usage(err)
			}
			if err != nil {
				return err
			}
			out := map[string]string{"login": nu.User.Login, "token": nu.Token, "invite": a.Cfg.Portal.InviteURL(nu.Invite)}
			if asJSON { // one line: a loop of these is JSON Lines (docs/organiser.md)
				return json.NewEncoder(cmd.OutOrStdout()).Encode(out)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s added to %s\ninvite (one time): %s\nAPI token: %s\n", out["login"], contestName, out["invite"], out["token"])
			return nil
		},
	}
	add.Flags().StringVar(&contestName, "contest", "", "the contest")
	add.Flags().BoolVar(&organiser, "organiser", false, "an organiser of the contest (sees everything of it)")
	add.Flags().BoolVar(&asJSON, "json", false, "print {\"login\", \"token\", \"invite\"}")
	list := &cobra.Command{
		Use:   "list --contest NAME [--json]",
		Short: "The contest's people: each one's role, whether the invite was accepted, the versions and the active one",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if contestName == "" {
				return cli.Usage(errors.New("--contest: the contest whose people to list"))
			}
			st, q, err := a.PortalStore(cmd.Context())
			if err != nil {
				return err
			}
			defer q.Close()
			if _, err := st.Contest(cmd.Context(), contestName); errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrInvalid) {
				return noContest("--contest", contestName)
			} else if err != nil {
				return err
			}
			users, err := st.Users(cmd.Context(), contestName)
			if err != nil {
				return err
			}
			people := make([]person, len(users))
			for i, u := range users {
				people[i] = personOf(u)
				if u.Active != "" {
					if sub, err := st.Submission(cmd.Context(), u.Active); err == nil {
						people[i].ActiveVersion = sub.Version
					}
				}
			}
			return cli.PrintOut(cmd.OutOrStdout(), asJSON, people, func(w io.Writer) {
				tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "LOGIN\tROLE\tSTATE\tVERSIONS\tACTIVE\tADDED")
				for _, p := range people {
					active := "-"
					if p.ActiveVersion > 0 {
						active = fmt.Sprintf("v%d", p.ActiveVersion)
					}
					fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\n", p.Login, p.Role, p.State, p.Versions, active, p.Created.Format(time.DateOnly))
				}
				tw.Flush()
			})
		},
	}
	list.Flags().StringVar(&contestName, "contest", "", "the contest")
	list.Flags().BoolVar(&asJSON, "json", false, "print the people as JSON")
	reset := &cobra.Command{
		Use:   "reset --contest NAME LOGIN [--json]",
		Short: "End every session and API token of a user, forget the password, and print a new one-time invite link",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if contestName == "" {
				return cli.Usage(errors.New("--contest: the contest the user takes part in"))
			}
			st, q, err := a.PortalStore(cmd.Context())
			if err != nil {
				return err
			}
			defer q.Close()
			_, code, err := a.ContestEngine(st, q).ResetUser(cmd.Context(), contest.HostActor(), contestName, args[0])
			if errors.Is(err, store.ErrNotFound) {
				return noUser(args[0], contestName)
			}
			if errors.Is(err, store.ErrInvalid) {
				return cli.Usage(errors.New(strings.TrimPrefix(err.Error(), store.ErrInvalid.Error()+": ")))
			}
			if err != nil {
				return err
			}
			out := map[string]string{"login": args[0], "invite": a.Cfg.Portal.InviteURL(code)}
			return cli.PrintOut(cmd.OutOrStdout(), asJSON, out, func(w io.Writer) {
				fmt.Fprintf(w, "%s of %s: every session and API token ended, the password forgotten\ninvite (one time): %s\n", args[0], contestName, out["invite"])
			})
		},
	}
	reset.Flags().StringVar(&contestName, "contest", "", "the contest")
	reset.Flags().BoolVar(&asJSON, "json", false, "print {\"login\", \"invite\"}")
	remove := &cobra.Command{
		Use:   "remove --contest NAME LOGIN [--json]",
		Short: "Take a user out of a contest: no login, session or API token more, off the ladder and the rounds; their versions and matches stay",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if contestName == "" {
				return cli.Usage(errors.New("--contest: the contest the user takes part in"))
			}
			st, q, err := a.PortalStore(cmd.Context())
			if err != nil {
				return err
			}
			defer q.Close()
			u, err := a.ContestEngine(st, q).RemoveUser(cmd.Context(), contest.HostActor(), contestName, args[0])
			if errors.Is(err, store.ErrNotFound) {
				return noUser(args[0], contestName)
			}
			if err != nil {
				return err
			}
			return cli.PrintOut(cmd.OutOrStdout(), asJSON, personOf(u), func(w io.Writer) {
				fmt.Fprintf(w, "%s removed from %s: every session and API token ended; %d version(s) and their matches kept\n", args[0], contestName, u.Versions)
			})
		},
	}
	remove.Flags().StringVar(&contestName, "contest", "", "the contest")
	remove.Flags().BoolVar(&asJSON, "json", false, "print the user as judge portal user list --json does")
	user.AddCommand(add, list, reset, remove)
	return user
}

// noContest and noUser are the organiser's commands' word for a name the store does not
// have, with the command that lists those it has.
func noContest(flag, name string) error {
	return cli.Usage(fmt.Errorf("%s: no such contest (judge portal contest list)", strings.TrimSpace(flag+" "+name)))
}

func noUser(login, contest string) error {
	return cli.Usage(fmt.Errorf("%s: no such user of contest %s (judge portal user list --contest %s)", login, contest, contest))
}

// record keeps an organiser's action done from the command line, as the portal keeps those
// done on its pages (store.Record), by "cli:" and the system's user; one that cannot be kept

// person is a user as judge portal user list shows one: never the password's hash.
type person struct {
	Login    string `json:"login"`
	Role     string `json:"role"`  // contestant or organiser
	State    string `json:"state"` // invited (no password yet), active or removed
	Versions int    `json:"versions"`
	Active   string `json:"active,omitempty"` // the active version's id
	// ActiveVersion is its number, as the pages name it (v2).
	ActiveVersion int       `json:"active_version,omitempty"`
	Created       time.Time `json:"created"`
}

func personOf(u store.User) person {
	p := person{Login: u.Login, Role: "contestant", State: "active", Versions: u.Versions, Active: u.Active, Created: u.Created}
	if u.Organiser {
		p.Role = "organiser"
	}
	switch {
	case u.Disabled:
		p.State = "removed"
	case len(u.Password) == 0:
		p.State = "invited"
	}
	return p
}

// RoundCmd is judge portal round.
func RoundCmd(a *base.App) *cobra.Command {
	round := &cobra.Command{Use: "round", Short: "Start test competitions and the official round; show their standings"}
	var contestName string
	var spec api.RoundSpec
	var official, asJSON bool
	start := &cobra.Command{
		Use:   "start --contest NAME [--official] [--format roundrobin|swiss] [--rounds N] [--final K] [--confidence C] [--until-separated [--top K] [--budget N]] [--json]",
		Short: "Freeze the contest's active versions and start a round of them, which the portals run",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if contestName == "" {
				return cli.Usage(errors.New("--contest: the contest whose round it is"))
			}
			st, q, err := a.PortalStore(cmd.Context())
			if err != nil {
				return err
			}
			defer q.Close()
			ct, err := st.Contest(cmd.Context(), contestName)
			if errors.Is(err, store.ErrNotFound) {
				return noContest("--contest", contestName)
			}
			if err != nil {
				return err
			}
			spec.Kind = store.RoundTest
			if official {
				spec.Kind = store.RoundOfficial
			}
			r, err := a.ContestEngine(st, q).StartRound(cmd.Context(), contest.HostActor(), ct.Name, spec)
			if errors.Is(err, store.ErrInvalid) || errors.Is(err, store.ErrConflict) || errors.Is(err, store.ErrExists) {
				return cli.Usage(err)
			}
			if err != nil {
				return err
			}
			return cli.PrintOut(cmd.OutOrStdout(), asJSON, r, func(w io.Writer) {
				fmt.Fprintf(w, "round %s: %d entrants frozen; a running portal plays it (%s/c/%s/rounds/%s)\n",
					r.ID, len(r.Entrants), a.Cfg.Portal.BaseURL(), contestName, r.ID)
			})
		},
	}
	f := start.Flags()
	f.StringVar(&contestName, "contest", "", "the contest")
	f.BoolVar(&official, "official", false, "the official round (after the deadline), not a test competition")
	f.StringVar(&spec.Format, "format", "", "roundrobin (the default) or swiss")
	f.IntVar(&spec.Rounds, "rounds", 0, "rounds of the round robin, or of the Swiss tournament (default 1)")
	f.IntVar(&spec.Final, "final", 0, "the top K play a double round robin after the main stage (0: none)")
	f.Float64Var(&spec.Confidence, "confidence", 0, "how sure the standings' rank ranges are, above 0.5 and below 1 (default 0.95)")
	f.BoolVar(&spec.UntilSeparated, "until-separated", false, "after the schedule, play on among the contenders until the top places are separated (docs/tournament.md)")
	f.IntVar(&spec.Top, "top", 0, "with --until-separated: the places to separate (default 3)")
	f.IntVar(&spec.Budget, "budget", 0, "with --until-separated: the matches it may play more (default: as many as the schedule)")
	f.StringVar(&spec.Leagues, "leagues", "", "in a contest with leagues: which enter, all (the default) or top (the top league's only)")
	f.BoolVar(&asJSON, "json", false, "print the round as JSON")
	show := &cobra.Command{
		Use:   "show ROUND [--json]",
		Short: "Show a round: its status, frozen versions and standings",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, q, err := a.PortalStore(cmd.Context())
			if err != nil {
				return err
			}
			defer q.Close()
			r, err := st.Round(cmd.Context(), args[0])
			if errors.Is(err, store.ErrNotFound) {
				return cli.Usage(fmt.Errorf("round %s: no such round", args[0]))
			}
			if err != nil {
				return err
			}
			return cli.PrintOut(cmd.OutOrStdout(), asJSON, r, func(w io.Writer) {
				fmt.Fprintf(w, "round %s (%s) of %s: %s, %d entrants\n", r.ID, r.Kind, r.Contest, r.Status, len(r.Entrants))
				if r.Error != "" {
					fmt.Fprintf(w, "error: %s\n", r.Error)
				}
				if r.Outcome != nil {
					standings.WriteTable(w, *r.Outcome) // the table of judge tournament, with its doubt
				}
			})
		},
	}
	show.Flags().BoolVar(&asJSON, "json", false, "print the round as JSON")
	round.AddCommand(start, show)
	return round
}
