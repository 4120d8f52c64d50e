package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/botjudge/judge/cmd/judge/internal/cli"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/game/catalog"
	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/view"
)

func (a *app) viewCmd() *cobra.Command {
	var listen, tournamentFile string
	cmd := &cobra.Command{
		Use:   "view [--listen ADDR] [--tournament OUTCOME.json] [DATA_DIR|DIR|FILE...]",
		Short: "Serve the replay viewer and results browser: of replay files, or of the judge's results",
		Long: `Serve the viewer on ADDR (this machine only by default): a list of matches and a player
for their replays, for every game; from the judge's results, also the matches playing now,
each watched live as it is judged. With DIR or FILE arguments the matches are those replay
files (*.jsonl, directories searched). With none, they are the judge's results and replays:
nats.url's when it is set; else those of the NATS store in the data directory (--data-dir,
data_dir/nats or nats.store), read through the judge serve running on it, or, when none is,
from the store itself in this process, changing nothing (no judge serve needed to watch
past matches); else the judge serve on nats.listen. A single DATA_DIR argument (a directory
with nats/jetstream in it, or a NATS store itself) is read the same way. --tournament shows
the standings of an outcome written by 'judge tournament --json' above its matches. The page
works offline: it loads nothing from anywhere but this server.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if err := checkListen("--listen", listen); err != nil {
				return err
			}
			s := &view.Server{Title: "Results"}
			if tournamentFile != "" {
				if err := readOutcome(tournamentFile, s); err != nil {
					return cli.Usage(err)
				}
			}
			var store string
			if len(args) == 1 {
				store = storeIn(args[0])
			}
			if len(args) > 0 && store == "" {
				for _, p := range args {
					if _, err := os.Stat(p); err != nil {
						return cli.Usage(err)
					}
				}
				s.Lookup = a.viewLookup(ctx, nil)
				s.Source = &view.Files{Paths: args, Lookup: s.Lookup}
				if tournamentFile == "" {
					s.Title = "Replays"
				}
			} else {
				q, from, err := a.ReadQueue(ctx, store)
				if err != nil {
					return fmt.Errorf("no replay files given, and %w", err)
				}
				defer q.Close()
				s.Lookup = a.viewLookup(ctx, q)
				fmt.Fprintf(cmd.ErrOrStderr(), "judge view: the results and replays %s\n", from)
				s.Source = &view.Stream{Store: q, Bucket: queue.BucketReplays}
				// The matches the daemons begin from now on are listed to watch live until judged.
				begun := &begunJobs{}
				go q.Starts(ctx, begun.add)
				s.Live, s.Playing, s.Stop = q, begun.ids, ctx.Done()
			}
			ln, err := listenOn("--listen", listen)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "judge view: http://%s/ (Ctrl-C stops it)\n", ln.Addr())
			return serveUntilDone(ctx, ln, s.Handler())
		},
	}
	cmd.Flags().StringVar(&listen, "listen", view.DefaultListen, "the address to serve on")
	cmd.Flags().StringVar(&tournamentFile, "tournament", "", "an outcome of 'judge tournament --json': its standings, and only its matches")
	return cmd
}

// viewLookup finds a replay's game for the viewer by its view.GameKey: a built-in game, or
// the version of an added game that judged the match, from the store q (the judge's store,
// reached once, when q is nil), its referee run in a sandbox of this machine's to draw the
// pictures. An added game it cannot find or run is unknown: the film shows the exchanges.
func (a *app) viewLookup(ctx context.Context, q *queue.Queue) func(string) (game.Game, bool) {
	var once sync.Once
	var added *catalog.Catalog
	var runner *match.Runner
	return func(key string) (game.Game, bool) {
		name, version, isAdded := strings.Cut(key, "@")
		if !isAdded {
			return games.Lookup(name)
		}
		once.Do(func() {
			store := q
			if store == nil {
				store, _ = a.GamesStore(ctx)
				a.LookupStore = store // closed with the command
			}
			if store != nil {
				if kv, err := store.KeyValue(ctx, catalog.Bucket); err == nil {
					added = catalog.New(kv, store, games.Lookup, a.ManifestCheck(), a.Log)
				}
			}
			if b, err := a.Builder(ctx); err == nil {
				runner, _ = a.Runner(b)
			}
		})
		if added == nil || runner == nil {
			return nil, false
		}
		g, err := added.Version(ctx, version)
		if err != nil || g.Manifest.Name != name {
			return nil, false
		}
		return runner.Bind(ctx, g), true
	}
}

// storeIn is the NATS store of dir, a data directory (its "nats") or a store itself; "" when
// dir is neither (a directory of replays, a file).
func storeIn(dir string) string {
	for _, d := range []string{filepath.Join(dir, "nats"), dir} {
		if queue.HasStore(d) {
			return d
		}
	}
	return ""
}

// readOutcome puts a tournament's outcome into the viewer: the standings above the list and
// only its matches in it.
func readOutcome(path string, s *view.Server) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var out struct {
		Tournament string          `json:"tournament"`
		Game       string          `json:"game"`
		Standings  json.RawMessage `json:"standings"`
	}
	if err := json.Unmarshal(b, &out); err != nil || out.Tournament == "" || len(out.Standings) == 0 {
		return fmt.Errorf("%s is not an outcome of 'judge tournament --json' (%v)", path, err)
	}
	s.Title = fmt.Sprintf("Tournament %s (%s)", out.Tournament, out.Game)
	s.Standings, s.Prefix = out.Standings, out.Tournament+"-"
	return nil
}

// serveUntilDone serves h on ln until ctx is done, then shuts the server down.
func serveUntilDone(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		return nil
	}
}

// begunJobs are the ids of the jobs the daemons have begun, as their start hints came (the
// newest maxBegun): the viewer lists those not judged yet as playing now.
type begunJobs struct {
	mu   sync.Mutex
	list []string
}

const maxBegun = 1000

func (b *begunJobs) add(id string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.list) >= maxBegun {
		b.list = slices.Delete(b.list, 0, len(b.list)-maxBegun+1)
	}
	b.list = append(b.list, id)
}

func (b *begunJobs) ids() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.list)
}
