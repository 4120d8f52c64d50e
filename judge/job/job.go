// Package job reads and checks match jobs: the JSON that organisers publish to the jobs
// stream (docs/contract.md). A job that fails here is answered with an error result naming the
// problem, and is never retried.
package job

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/build"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/sandbox"
)

// Version is the job format's version.
const Version = 1

// Job is a match to judge, as published.
type Job struct {
	Version int    `json:"version"`
	ID      string `json:"id"`
	Game    string `json:"game"`
	// Seed is optional: one is drawn (and reported in the result) when absent.
	Seed    *uint64        `json:"seed,omitempty"`
	Options map[string]any `json:"options,omitempty"`
	Players []Player       `json:"players"`
}

// Player is one submission.
type Player struct {
	Name  string            `json:"name"`
	Lang  string            `json:"lang"`
	Files map[string]string `json:"files"`
}

// Parse reads a job and checks everything that can be checked without the game's rules:
// the format, the id, the game's name and player count, the languages and file names, and
// the size of the sources (maxSource bytes per player). lookup finds a game by name.
// The game's options are checked when the match starts (bad_option).
func Parse(data []byte, lookup func(string) (game.Game, bool), maxSource int64) (Job, error) {
	var j Job
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	if err := dec.Decode(&j); err != nil {
		return j, result.Errorf(result.InvalidJob, "not a job: %w", err)
	}
	if dec.More() {
		return j, result.Errorf(result.InvalidJob, "not a job: data after the JSON object")
	}
	if j.Version != Version {
		return j, result.Errorf(result.InvalidJob, "version %d is not supported (want %d)", j.Version, Version)
	}
	if err := queue.ValidID(j.ID); err != nil {
		return j, result.Errorf(result.InvalidJob, "id: %w", err)
	}
	g, ok := lookup(j.Game)
	if !ok {
		return j, result.Errorf(result.UnknownGame, "unknown game %q", j.Game)
	}
	if err := game.CheckPlayers(g, len(j.Players)); err != nil {
		return j, result.Errorf(result.InvalidJob, "%w", err)
	}
	for i, p := range j.Players {
		if _, ok := images.LangByName(p.Lang); !ok {
			return j, result.Errorf(result.InvalidJob, "player %d (%s): unknown language %q (known: %s)", i, p.Name, p.Lang,
				strings.Join(images.LangNames(), ", "))
		}
		if len(p.Files) == 0 {
			return j, result.Errorf(result.InvalidJob, "player %d (%s): no source files", i, p.Name)
		}
		var size int64
		for name, src := range p.Files {
			if err := sandbox.CheckFileName(name); err != nil {
				return j, result.Errorf(result.InvalidJob, "player %d (%s): %w", i, p.Name, err)
			}
			size += int64(len(name) + len(src))
		}
		if size > maxSource {
			return j, result.Errorf(result.InvalidJob, "player %d (%s): sources are %d bytes, the limit is %d", i, p.Name, size, maxSource)
		}
	}
	if _, err := j.options(); err != nil {
		return j, err
	}
	return j, nil
}

// options turns the job's option values (strings, numbers or booleans) into strings.
func (j Job) options() (map[string]string, error) {
	out := make(map[string]string, len(j.Options))
	for k, v := range j.Options {
		switch x := v.(type) {
		case string:
			out[k] = x
		case json.Number:
			out[k] = x.String()
		case bool:
			out[k] = strconv.FormatBool(x)
		default:
			return nil, result.Errorf(result.BadOption, "option %s: want a string, number or boolean", k)
		}
	}
	return out, nil
}

// Match turns a parsed job into the runner's job; seed is used when the job has none.
func (j Job) Match(lookup func(string) (game.Game, bool), seed uint64) (match.Job, error) {
	g, ok := lookup(j.Game)
	if !ok {
		return match.Job{}, result.Errorf(result.UnknownGame, "unknown game %q", j.Game)
	}
	opts, err := j.options()
	if err != nil {
		return match.Job{}, err
	}
	if j.Seed != nil {
		seed = *j.Seed
	}
	m := match.Job{ID: j.ID, Game: g, Seed: seed, Options: opts}
	for _, p := range j.Players {
		files := make(map[string][]byte, len(p.Files))
		for name, src := range p.Files {
			files[name] = []byte(src)
		}
		m.Players = append(m.Players, match.Entrant{Name: p.Name, Submission: build.Submission{Lang: p.Lang, Files: files}})
	}
	return m, nil
}

// FromEntrants builds a job from local submissions (judge submit).
func FromEntrants(id, gameName string, seed *uint64, options map[string]string, entrants []match.Entrant) Job {
	j := Job{Version: Version, ID: id, Game: gameName, Seed: seed, Options: map[string]any{}}
	for k, v := range options {
		j.Options[k] = v
	}
	for _, e := range entrants {
		p := Player{Name: e.Name, Lang: e.Submission.Lang, Files: map[string]string{}}
		for name, src := range e.Submission.Files {
			p.Files[name] = string(src)
		}
		j.Players = append(j.Players, p)
	}
	return j
}
