// Package tournament runs a competition round through the work queue: it compiles every
// entrant, schedules the matches (round robin or Swiss, package schedule), publishes each as
// a job for the daemons, follows their results, retries what the judge (not a bot) failed,
// and adds the results up into standings (package standings) with ratings (package rating).
// Its state is the queue's: every match has a fixed id and seed derived from the
// tournament's, so running it again publishes only what has no result yet.
package tournament

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/botjudge/judge/judge/tournament/standings"
)

// Spec is a tournament as its file declares it (docs/tournament.md). Zero fields take the
// defaults of Defaults.
type Spec struct {
	// Name prefixes every match id ("<name>-<round>-<match>"); the file's or directory's
	// name when not given.
	Name string `json:"name" yaml:"name"`
	Game string `json:"game" yaml:"game"`
	// Format is "roundrobin" or "swiss".
	Format string `json:"format" yaml:"format"`
	// Rounds repeats a round robin with new seeds, or is the number of Swiss rounds.
	Rounds int `json:"rounds" yaml:"rounds"`
	// Seed derives every match's seed.
	Seed uint64 `json:"seed" yaml:"seed"`
	// Seats is the number of players of each match: when 0, the game's default, or the count
	// the options fix (SnakeCore's players).
	Seats int `json:"seats" yaml:"seats"`
	// Final, when above 1, has the top Final entrants play a double round robin after the
	// main stage (as CodeCup did).
	Final int `json:"final" yaml:"final"`
	// Options are the game's options for every match.
	Options map[string]string `json:"options" yaml:"options"`
	// Broken is what becomes of an entrant that does not compile: "play" (the default: it
	// plays every match as a bot that never answers, the game's rule for a compile error) or
	// "exclude" (it is listed with its log and plays no match).
	Broken string `json:"broken" yaml:"broken"`
	// Retries is how many times a match the judge failed (an infrastructure error) is
	// published again.
	Retries int `json:"retries" yaml:"retries"`
	// Scoring, when set, replaces the scoring of the game's contest (standings.For).
	Scoring *standings.Scoring `json:"scoring" yaml:"scoring"`
	// Confidence is how sure the standings' rank ranges are, and how sure a round played
	// until separated makes its pairs: above 0.5 and below 1 (0: standings.DefaultConfidence).
	Confidence float64 `json:"confidence" yaml:"confidence"`
	// UntilSeparated plays on after the format's schedule, repetitions of a round robin among
	// the contenders for the top Top places, until every adjacent pair of the top Top (and
	// the Top-th with the next) is separated at Confidence, or Budget more matches are played.
	UntilSeparated bool `json:"until_separated" yaml:"until_separated"`
	// Top is the places that must be separated (0: DefaultTop, or every entrant when fewer);
	// Budget the matches the round may play more (0: as many as its schedule).
	Top    int `json:"top" yaml:"top"`
	Budget int `json:"budget" yaml:"budget"`
	// Entrants are the competitors, each a name and a source file or directory (relative to
	// the tournament file).
	Entrants []EntrantSpec `json:"entrants" yaml:"entrants"`
}

// DefaultTop is the places a round played until separated separates unless told otherwise:
// a podium.
const DefaultTop = 3

// top is the places to separate, defaulted.
func (s Spec) top() int {
	if s.Top > 0 {
		return s.Top
	}
	return min(DefaultTop, len(s.Entrants))
}

// confidence is the spec's confidence, defaulted.
func (s Spec) confidence() float64 {
	if s.Confidence == 0 {
		return standings.DefaultConfidence
	}
	return s.Confidence
}

// EntrantSpec names an entrant and its submission.
type EntrantSpec struct {
	Name string `json:"name" yaml:"name"`
	Path string `json:"path" yaml:"path"`
}

// The formats.
const (
	RoundRobin = "roundrobin"
	Swiss      = "swiss"
)

// WithDefaults is s with its zero fields defaulted: a round robin of one round, seed 1, broken
// entrants playing, two retries.
func (s Spec) WithDefaults() Spec {
	if s.Format == "" {
		s.Format = RoundRobin
	}
	if s.Rounds == 0 {
		s.Rounds = 1
	}
	if s.Seed == 0 {
		s.Seed = 1
	}
	if s.Broken == "" {
		s.Broken = "play"
	}
	if s.Retries == 0 {
		s.Retries = 2
	}
	return s
}

// Check reports what is wrong with a spec (defaults applied).
func (s Spec) Check() error {
	var problems []string
	if s.Name == "" {
		problems = append(problems, "no name")
	}
	if s.Game == "" {
		problems = append(problems, "no game (--game, or game: in the tournament file)")
	}
	if s.Format != RoundRobin && s.Format != Swiss {
		problems = append(problems, fmt.Sprintf("format %q: want roundrobin or swiss", s.Format))
	}
	if s.Rounds < 1 {
		problems = append(problems, fmt.Sprintf("rounds %d: want 1 or more", s.Rounds))
	}
	if s.Broken != "play" && s.Broken != "exclude" {
		problems = append(problems, fmt.Sprintf("broken %q: want play or exclude", s.Broken))
	}
	if sc := s.Scoring; sc != nil && sc.Method != standings.ByScore && sc.Method != standings.ByResult {
		problems = append(problems, fmt.Sprintf("scoring method %q: want score or result", sc.Method))
	}
	if c := s.Confidence; c != 0 && !(c > 0.5 && c < 1) {
		problems = append(problems, fmt.Sprintf("confidence %v: want a number above 0.5 and below 1 (0.95: 95%%)", c))
	}
	if !s.UntilSeparated && (s.Top != 0 || s.Budget != 0) {
		problems = append(problems, "top and budget go with until_separated (--until-separated)")
	}
	if s.Top < 0 {
		problems = append(problems, fmt.Sprintf("top %d: want 1 or more places", s.Top))
	} else if s.Top > len(s.Entrants) && len(s.Entrants) >= 2 {
		problems = append(problems, fmt.Sprintf("top %d: the round has %d entrants", s.Top, len(s.Entrants)))
	}
	if s.Budget < 0 {
		problems = append(problems, fmt.Sprintf("budget %d: want 0 (as many matches as the schedule) or more", s.Budget))
	}
	if s.Retries < 0 || s.Final < 0 || s.Seats < 0 {
		problems = append(problems, "retries, final and seats cannot be negative")
	}
	seen := map[string]bool{}
	for i, e := range s.Entrants {
		switch {
		case e.Name == "" || e.Path == "":
			problems = append(problems, fmt.Sprintf("entrant %d: a name and a path are needed", i+1))
		case seen[e.Name]:
			problems = append(problems, fmt.Sprintf("entrant %q twice", e.Name))
		}
		seen[e.Name] = true
	}
	if len(s.Entrants) < 2 {
		problems = append(problems, fmt.Sprintf("%d entrants: a tournament needs 2 or more", len(s.Entrants)))
	}
	if len(problems) > 0 {
		return fmt.Errorf("tournament: %s", strings.Join(problems, "; "))
	}
	return nil
}

// Load reads a tournament: a file (YAML, or JSON, which YAML reads too), or a directory. A
// directory holding tournament.yaml (or .yml, .json) is that file; any other directory's
// entries are the entrants, each named after its file or sub-directory (hidden ones are
// skipped), and the rest of the spec comes from the caller (flags).
func Load(path string) (Spec, error) {
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Spec{}, fmt.Errorf("tournament: %s: no such file or directory", path)
	}
	if err != nil {
		return Spec{}, fmt.Errorf("tournament: %w", err)
	}
	if st.IsDir() {
		for _, name := range []string{"tournament.yaml", "tournament.yml", "tournament.json"} {
			if f := filepath.Join(path, name); fileExists(f) {
				return Load(f)
			}
		}
		return fromDir(path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return Spec{}, fmt.Errorf("tournament: %w", err)
	}
	var s Spec
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	dec.KnownFields(true)
	if err := dec.Decode(&s); err != nil {
		return Spec{}, fmt.Errorf("tournament: %s: %w", path, fileWords(err, string(data)))
	}
	if s.Name == "" {
		s.Name = idName(strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)))
	}
	for i, e := range s.Entrants {
		if e.Path != "" && !filepath.IsAbs(e.Path) {
			s.Entrants[i].Path = filepath.Join(filepath.Dir(path), e.Path)
		}
	}
	return s, nil
}

func fromDir(dir string) (Spec, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return Spec{}, fmt.Errorf("tournament: %w", err)
	}
	abs, _ := filepath.Abs(dir)
	s := Spec{Name: idName(filepath.Base(abs))}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		s.Entrants = append(s.Entrants, EntrantSpec{Name: strings.TrimSuffix(e.Name(), filepath.Ext(e.Name())), Path: filepath.Join(dir, e.Name())})
	}
	sort.Slice(s.Entrants, func(i, j int) bool { return s.Entrants[i].Name < s.Entrants[j].Name })
	return s, nil
}

// idName is name as a job id's prefix: letters, digits, '-' and '_' only.
func idName(name string) string {
	var b strings.Builder
	for _, r := range name {
		if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '-' || r == '_' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

func fileExists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir()
}

// fileWords is a decoding error in the tournament file's words, not in those of the Go types it
// is read into ("field colour not found in type tournament.Spec"): a key it does not know, with
// the keys it knows, or a value of the wrong kind, with the line that holds it.
func fileWords(err error, data string) error {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return err
	}
	lines := strings.Split(data, "\n")
	var out []string
	for _, msg := range te.Errors {
		if m := unknownKey.FindStringSubmatch(msg); m != nil {
			if keys := fileKeys(m[3]); keys != "" {
				msg = fmt.Sprintf("line %s: unknown key %s; known: %s", m[1], m[2], keys)
			}
		} else if m := wrongKind.FindStringSubmatch(msg); m != nil {
			want, ok := kinds[m[3]]
			if !ok {
				want = "a value of another kind"
			}
			msg = fmt.Sprintf("line %s: want %s", m[1], want)
			if n, err := strconv.Atoi(m[1]); err == nil && n >= 1 && n <= len(lines) {
				msg += fmt.Sprintf(", not %q", strings.TrimSpace(lines[n-1]))
			}
		}
		out = append(out, msg)
	}
	if len(out) == 1 {
		return errors.New(out[0])
	}
	return fmt.Errorf("%d problems:\n  %s", len(out), strings.Join(out, "\n  "))
}

var (
	unknownKey = regexp.MustCompile(`^line (\d+): field (.+) not found in type (\S+)$`)
	wrongKind  = regexp.MustCompile(`^line (\d+): cannot unmarshal \S+( .*)? into (\S+)$`)
)

// kinds say, by the Go type of a file's value, what the file must hold there.
var kinds = map[string]string{
	"int":                      "a whole number",
	"uint64":                   "a whole number of 0 or more",
	"float64":                  "a number",
	"string":                   "text",
	"standings.Method":         "text",
	"map[string]string":        "a map of option: value",
	"[]float64":                "a list of numbers",
	"[]tournament.EntrantSpec": "a list of entrants ({name, path})",
	"tournament.EntrantSpec":   "an entrant ({name, path})",
	"standings.Scoring":        "a map of method, win, draw, loss, places",
	"*standings.Scoring":       "a map of method, win, draw, loss, places",
	"tournament.Spec":          "a map of the tournament's keys",
}

// fileKeys lists the keys of the file's map that decodes into the type yaml names, from their
// yaml tags; "" for a type it does not know.
func fileKeys(typeName string) string {
	types := map[string]reflect.Type{
		"tournament.Spec":        reflect.TypeFor[Spec](),
		"tournament.EntrantSpec": reflect.TypeFor[EntrantSpec](),
		"standings.Scoring":      reflect.TypeFor[standings.Scoring](),
	}
	t, ok := types[typeName]
	if !ok {
		return ""
	}
	var keys []string
	for i := range t.NumField() {
		if k, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ","); k != "" && k != "-" {
			keys = append(keys, k)
		}
	}
	return strings.Join(keys, ", ")
}
