package portal

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"maps"
	"net/http"
	"slices"
	"time"

	"github.com/botjudge/judge/judge/api"
	"github.com/botjudge/judge/judge/contest"
	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/tournament"
)

// exportTournament writes the contestants' active versions as a tar.gz of one directory
// that `judge tournament DIR` runs as it is: DIR/tournament.yaml (the contest's game,
// options and seats, an entrant per contestant) and DIR/LOGIN/, each version's files. With
// fewer versions than a match seats, the house bots fill the seats as in a round: else a
// four-player contest of two contestants would export a file judge tournament refuses.
func (s webPages) exportTournament(w http.ResponseWriter, r *http.Request, c caller) error {
	ct, err := s.engine.Organised(r.Context(), c.actor(), r.PathValue("contest"))
	if err != nil {
		return err
	}
	users, err := s.c.Store.Users(r.Context(), ct.Name)
	if err != nil {
		return err
	}
	var set store.Round
	for _, u := range users {
		if u.Active == "" || u.Organiser {
			continue
		}
		sub, err := s.c.Store.Submission(r.Context(), u.Active)
		if err != nil {
			return err
		}
		set.Entrants = append(set.Entrants, store.Entrant{Login: u.Login, Lang: sub.Lang, Source: sub.Source})
	}
	if len(set.Entrants) == 0 {
		return api.Errorf(api.CodeNoEntrants, "no contestant has an active version yet")
	}
	if err := s.engine.FillRound(r.Context(), ct, &set); err != nil {
		return err
	}
	spec := tournament.Spec{Name: ct.Name, Game: ct.Game, Options: ct.Options, Seats: set.Seats}
	sources := map[string]string{}
	for _, e := range set.Entrants {
		sources[contest.EntrantDir(e.Login)] = e.Source
		spec.Entrants = append(spec.Entrants, tournament.EntrantSpec{Name: e.Login, Path: contest.EntrantDir(e.Login)})
	}
	return s.writeTournament(w, r, ct.Name, spec, sources)
}

// writeTarGz answers files, each under dir, as a .tar.gz download named name.
func writeTarGz(w http.ResponseWriter, name, dir string, files map[string]string) error {
	data, err := tarGz(dir, files)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/gzip")
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
	w.Write(data)
	return nil
}

// texts are files as text, as tarGz takes them.
func texts(files map[string][]byte) map[string]string {
	out := make(map[string]string, len(files))
	for name, data := range files {
		out[name] = string(data)
	}
	return out
}

// tarGz is files, each under dir, as a tar.gz.
func tarGz(dir string, files map[string]string) ([]byte, error) {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		data := files[name]
		if err := tw.WriteHeader(&tar.Header{Name: dir + name, Mode: 0o644, Size: int64(len(data)), ModTime: time.Now()}); err != nil {
			return nil, err
		}
		if _, err := io.WriteString(tw, data); err != nil {
			return nil, err
		}
	}
	if err := errors.Join(tw.Close(), gz.Close()); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
