package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/judge/view"
)

func (a *app) replayCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "replay", Short: "Work with replays"}
	cmd.AddCommand(&cobra.Command{
		Use:   "verify FILE",
		Short: "Re-run the referee on a replay's recorded answers (no bots) and confirm the same result",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			f, err := os.Open(args[0])
			if err != nil {
				return usageError{err}
			}
			defer f.Close()
			res, err := replay.Verify(f, games.Lookup)
			if err != nil {
				return err
			}
			fmt.Printf("verified: %s seed %d, re-judged to the recorded result\n", res.Game, res.Seed)
			return nil
		},
	})
	var out string
	html := &cobra.Command{
		Use:   "html FILE -o OUT.html",
		Short: "Write one self-contained HTML page that plays the replay, with no server and no network",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			if out == "" {
				return usageError{errors.New("-o OUT.html is required")}
			}
			f, err := os.Open(args[0])
			if err != nil {
				return usageError{err}
			}
			defer f.Close()
			film, err := view.Read(f, games.Lookup)
			if err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			if err := writeFileAtomic(out, func(w io.Writer) error { return view.WriteHTML(w, film) }); err != nil {
				return err
			}
			if film.Problem != "" {
				fmt.Fprintf(os.Stderr, "note: %s\n", film.Problem)
			}
			fmt.Printf("wrote %s (%s seed %d, %d exchanges)\n", out, film.Header.Game, film.Header.Seed, len(film.Exchanges))
			return nil
		},
	}
	html.Flags().StringVarP(&out, "output", "o", "", "the HTML file to write")
	cmd.AddCommand(html)
	return cmd
}

// writeFileAtomic writes name through a temporary file beside it, so that a reader never
// sees half a file and a failure leaves no file.
func writeFileAtomic(name string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := write(tmp); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return os.Rename(tmp.Name(), name)
}
