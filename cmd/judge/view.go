package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/view"
)

func (a *app) viewCmd() *cobra.Command {
	var listen, tournamentFile string
	cmd := &cobra.Command{
		Use:   "view [--listen ADDR] [--tournament OUTCOME.json] [DIR|FILE...]",
		Short: "Serve the replay viewer and results browser: of replay files, or of the results stream",
		Long: `Serve the viewer on ADDR (this machine only by default): a list of matches and a player
for their replays, for every game. With DIR or FILE arguments the matches are those replay
files (*.jsonl, directories searched); with none, the judge's results stream and replay store
(nats.url, or the judge serve running here). --tournament shows the standings of an outcome
written by 'judge tournament --json' above its matches. The page works offline: it loads
nothing from anywhere but this server.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			s := &view.Server{Lookup: games.Lookup, Title: "Results"}
			if tournamentFile != "" {
				if err := readOutcome(tournamentFile, s); err != nil {
					return usageError{err}
				}
			}
			if len(args) > 0 {
				for _, p := range args {
					if _, err := os.Stat(p); err != nil {
						return usageError{err}
					}
				}
				s.Source = &view.Files{Paths: args, Lookup: games.Lookup}
				if tournamentFile == "" {
					s.Title = "Replays"
				}
			} else {
				q, err := a.queue(ctx, false)
				if err != nil {
					return fmt.Errorf("no replay files given, and the results stream cannot be read: %w", err)
				}
				defer q.Close()
				s.Source = &view.Stream{Store: q, Bucket: queue.BucketReplays}
			}
			ln, err := net.Listen("tcp", listen)
			if err != nil {
				return usageError{err}
			}
			fmt.Fprintf(os.Stderr, "judge view: http://%s/ (Ctrl-C stops it)\n", ln.Addr())
			return serveUntilDone(ctx, ln, s.Handler())
		},
	}
	cmd.Flags().StringVar(&listen, "listen", view.DefaultListen, "the address to serve on")
	cmd.Flags().StringVar(&tournamentFile, "tournament", "", "an outcome of 'judge tournament --json': its standings, and only its matches")
	return cmd
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
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		return nil
	}
}
