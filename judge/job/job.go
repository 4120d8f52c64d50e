// Package job reads and checks match jobs: the JSON that organisers publish to the jobs
// stream (docs/contract.md). A job that fails here is answered with an error result naming the
// problem, and is never retried.
package job

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/botjudge/judge/judge/files"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/result"
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
	// Kind is KindMatch (or empty) or KindBuild.
	Kind string `json:"kind,omitempty"`
}

// The kinds of job. A build job compiles its players and plays nothing: its result has each
// player's build (a failed one with a compile_error fault) and no scores, winner or replay.
// Compiled programs go to the build cache, so a match of the same sources that follows
// starts at once.
const (
	KindMatch = "match"
	KindBuild = "build"
)

// Player is one submission.
type Player struct {
	Name  string            `json:"name"`
	Lang  string            `json:"lang"`
	Files map[string]string `json:"files"`
}

// Rules are what a job is checked against: the games and languages a judge knows, and how
// large a player's sources may be.
type Rules struct {
	// Game finds a game by name (games.Lookup).
	Game func(string) (game.Game, bool)
	// Langs are the languages' names (images.LangNames), in the order an error lists them.
	Langs []string
	// MaxSource bounds each player's sources, names included, in bytes.
	MaxSource int64
}

// NewerError is a job this judge cannot read that a newer judge may: it has a field this
// one does not know, or a newer version. A daemon hands such a job back for another daemon
// to take (one already upgraded, in a cluster upgraded one machine at a time), and fails it
// as invalid_job, naming what it did not know, only on its last attempt: never judged as if
// the field were not there.
type NewerError struct{ What string }

func (e *NewerError) Error() string {
	return "a job of a newer judge: " + e.What + " is not one this judge knows"
}

// Parse reads a job and checks everything that can be checked without the game's rules:
// the format, the id, the game's name and player count, the languages and file names, and
// the size of the sources, and returns it with its game. The game's options are checked
// when the match starts (bad_option).
func Parse(data []byte, r Rules) (Job, game.Game, error) {
	var j Job
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	if err := dec.Decode(&j); err != nil {
		if field, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			return j, nil, result.Errorf(result.InvalidJob, "%w", &NewerError{What: "the field " + field})
		}
		return j, nil, result.Errorf(result.InvalidJob, "not a job: %w", err)
	}
	if dec.More() {
		return j, nil, result.Errorf(result.InvalidJob, "not a job: data after the JSON object")
	}
	if j.Version > Version {
		return j, nil, result.Errorf(result.InvalidJob, "%w", &NewerError{What: fmt.Sprintf("version %d (this judge reads %d)", j.Version, Version)})
	}
	if j.Version != Version {
		return j, nil, result.Errorf(result.InvalidJob, "version %d is not supported (want %d)", j.Version, Version)
	}
	if err := ValidID(j.ID); err != nil {
		return j, nil, result.Errorf(result.InvalidJob, "id: %w", err)
	}
	g, ok := r.Game(j.Game)
	if !ok {
		return j, nil, result.Errorf(result.UnknownGame, "unknown game %q", j.Game)
	}
	switch j.Kind {
	case "", KindMatch:
		if err := game.CheckPlayers(g, len(j.Players)); err != nil {
			return j, nil, result.Errorf(result.InvalidJob, "%w", err)
		}
	case KindBuild:
		if len(j.Players) == 0 {
			return j, nil, result.Errorf(result.InvalidJob, "a build job needs at least one player")
		}
	default:
		return j, nil, result.Errorf(result.InvalidJob, "kind %q: want %q or %q", j.Kind, KindMatch, KindBuild)
	}
	for i, p := range j.Players {
		if !slices.Contains(r.Langs, p.Lang) {
			return j, nil, result.Errorf(result.InvalidJob, "player %d (%s): unknown language %q (known: %s)", i, p.Name, p.Lang,
				strings.Join(r.Langs, ", "))
		}
		if len(p.Files) == 0 {
			return j, nil, result.Errorf(result.InvalidJob, "player %d (%s): no source files", i, p.Name)
		}
		var size int64
		names := make([]string, 0, len(p.Files))
		for name, src := range p.Files {
			names = append(names, name)
			size += int64(len(name) + len(src))
		}
		if err := files.CheckNames(names); err != nil {
			return j, nil, result.Errorf(result.InvalidJob, "player %d (%s): %w", i, p.Name, err)
		}
		if size > r.MaxSource {
			return j, nil, result.Errorf(result.InvalidJob, "player %d (%s): sources are %d bytes, the limit is %d", i, p.Name, size, r.MaxSource)
		}
	}
	if _, err := j.StringOptions(); err != nil {
		return j, nil, err
	}
	return j, g, nil
}

// StringOptions are the job's option values (strings, numbers or booleans) as strings.
func (j Job) StringOptions() (map[string]string, error) {
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

// Sources are the player's files as the builder takes them.
func (p Player) Sources() map[string][]byte {
	out := make(map[string][]byte, len(p.Files))
	for name, src := range p.Files {
		out[name] = []byte(src)
	}
	return out
}

// NewPlayer is a player of local sources (judge submit, tournaments).
func NewPlayer(name, lang string, sources map[string][]byte) Player {
	p := Player{Name: name, Lang: lang, Files: make(map[string]string, len(sources))}
	for n, src := range sources {
		p.Files[n] = string(src)
	}
	return p
}

// New is a job of local players (judge submit, tournaments).
func New(id, gameName string, seed *uint64, options map[string]string, players []Player) Job {
	j := Job{Version: Version, ID: id, Game: gameName, Seed: seed, Options: map[string]any{}, Players: players}
	for k, v := range options {
		j.Options[k] = v
	}
	return j
}
