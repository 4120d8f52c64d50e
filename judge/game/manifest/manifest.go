// Package manifest reads a game's manifest: game.yaml, the file of a game directory that says
// what the game is to the judge - its name and title, its player counts, its options with
// their types, defaults and bounds, each bot's memory, its referee (language, sources,
// limits) and its optional sample bots, renderer and rules page (docs/referee.md). It is
// pure: it reads the directory it is given and checks it, naming each wrong key, so that a
// bad game is refused before anything is built or added.
package manifest

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/setting"
)

// File is the manifest's name in a game directory.
const File = "game.yaml"

// Manifest is a game's game.yaml.
type Manifest struct {
	// Name is the game's identifier: lowercase letters, digits and '-', starting with a
	// letter, at most 32 bytes, and no built-in game's.
	Name string `yaml:"name"`
	// Title is its name for people.
	Title   string  `yaml:"title"`
	Players Players `yaml:"players"`
	// Options are the game's options, in the order they are documented. Every game also has
	// "memory", each bot's memory limit in MiB, whose default is MemoryMiB.
	Options   []Option `yaml:"options"`
	MemoryMiB int      `yaml:"memory_mib"`
	Referee   Referee  `yaml:"referee"`
	// Samples are sample bots by language: a directory of the game's each.
	Samples map[string]string `yaml:"samples"`
	// Renderer is the viewer's script for the game's pictures; Rules its rules page
	// (Markdown), for contestants. Both optional, paths in the directory.
	Renderer string `yaml:"renderer"`
	Rules    string `yaml:"rules"`
	// Words are what `judge game check` makes random answers of: the game's moves, so that
	// random matches get beyond their first answer. Default: the digits 0 to 9.
	Words []string `yaml:"words"`
}

// Players are the player counts a match may have, and the default.
type Players struct {
	Min     int `yaml:"min"`
	Max     int `yaml:"max"`
	Default int `yaml:"default"`
}

// Option is one option of the game: an integer or a duration within its bounds, or a text
// the referee parses itself (a map given in full).
type Option struct {
	Name    string `yaml:"name"`
	Type    string `yaml:"type"` // int, duration or text
	Default string `yaml:"default"`
	Min     string `yaml:"min"`
	Max     string `yaml:"max"`
	Help    string `yaml:"help"`
}

// Referee is the referee program: its language (one of the judge's), its source files
// (paths in the directory), and its own limits - the CPU it may use for each answer it
// writes, and its memory - which are never charged to a bot.
type Referee struct {
	Lang  string   `yaml:"lang"`
	Files []string `yaml:"files"`
	// Main is the file that starts the referee, one of Files; the first of Files when empty.
	Main   string        `yaml:"main"`
	CPU    time.Duration `yaml:"cpu"`
	Memory setting.Bytes `yaml:"memory"`
}

// Entry is the file that starts the referee: Main, or the first of Files.
func (r Referee) Entry() string {
	if r.Main != "" || len(r.Files) == 0 {
		return r.Main
	}
	return r.Files[0]
}

// The referee's limits unless the manifest sets them, and their ceilings.
const (
	DefaultRefereeCPU    = time.Second
	DefaultRefereeMemory = 256 << 20
	MaxRefereeCPU        = time.Minute
	MaxRefereeMemory     = 4 << 30
	// MaxPlayers is the most players a game may take: SnakeCore's 8 is the judge's largest,
	// and each player is a container of its own.
	MaxPlayers = 16
)

// Check is what a manifest is checked against: the built-in games' names (Builtin reports
// one) and the judge's languages.
type Check struct {
	Builtin func(name string) bool
	Langs   []string
}

var (
	nameRE   = regexp.MustCompile(`^[a-z][a-z0-9-]{0,31}$`)
	optionRE = regexp.MustCompile(`^[a-z][a-z0-9_]{0,31}$`)
)

// Name is nil when name may be an added game's: lowercase letters, digits and '-', starting
// with a letter, at most 32 bytes, and no built-in game's.
func (c Check) Name(name string) error {
	switch {
	case !nameRE.MatchString(name):
		return fmt.Errorf("want lowercase letters, digits and '-', starting with a letter, at most 32 (got %q)", name)
	case c.Builtin != nil && c.Builtin(name):
		return fmt.Errorf("%q is a game built into the judge: choose another name", name)
	}
	return nil
}

// Load reads and checks dir's game.yaml: every error names its key ("players.min", or
// "options[2].max"), all of them at once; an unknown key is an error.
func Load(dir fs.FS, c Check) (Manifest, error) {
	data, err := fs.ReadFile(dir, File)
	if errors.Is(err, fs.ErrNotExist) {
		return Manifest{}, fmt.Errorf("%s: missing: a game's directory holds its manifest (docs/referee.md)", File)
	}
	if err != nil {
		return Manifest{}, fmt.Errorf("%s: %w", File, err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return Manifest{}, fmt.Errorf("%s: %w", File, err)
	}
	var m Manifest
	if err := doc.Decode(&m); err != nil {
		return Manifest{}, fmt.Errorf("%s: %w", File, err)
	}
	m.fill()
	// Every error at once: the keys no field takes, then what the keys say.
	var errs []error
	for _, u := range unknownKeys(&doc) {
		errs = append(errs, errors.New(u))
	}
	if err := m.check(dir, c); err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return Manifest{}, fmt.Errorf("%s: %w", File, errors.Join(errs...))
	}
	return m, nil
}

// fill applies the defaults: the referee's limits.
func (m *Manifest) fill() {
	if m.Referee.CPU == 0 {
		m.Referee.CPU = DefaultRefereeCPU
	}
	if m.Referee.Memory == 0 {
		m.Referee.Memory = DefaultRefereeMemory
	}
	if len(m.Words) == 0 {
		m.Words = strings.Split("0 1 2 3 4 5 6 7 8 9", " ")
	}
}

func (m Manifest) check(dir fs.FS, c Check) error {
	var errs []error
	bad := func(key, format string, args ...any) { errs = append(errs, setting.Invalid(key, format, args...)) }
	if err := c.Name(m.Name); err != nil {
		bad("name", "%v", err)
	}
	if strings.TrimSpace(m.Title) == "" {
		bad("title", "must not be empty: the game's name for people")
	}
	p := m.Players
	switch {
	case p.Min < 1 || p.Max > MaxPlayers || p.Min > p.Max:
		bad("players", "want 1 <= min <= max <= %d (got min %d, max %d)", MaxPlayers, p.Min, p.Max)
	case p.Default < p.Min || p.Default > p.Max:
		bad("players.default", "want a count from min to max, %d..%d (got %d)", p.Min, p.Max, p.Default)
	}
	if m.MemoryMiB < game.MinMemoryMiB || m.MemoryMiB > game.MaxMemoryMiB {
		bad("memory_mib", "each bot's memory in MiB, %d..%d (got %d)", game.MinMemoryMiB, game.MaxMemoryMiB, m.MemoryMiB)
	}
	seen := map[string]bool{"memory": true}
	for i, o := range m.Options {
		key := fmt.Sprintf("options[%d]", i)
		switch {
		case !optionRE.MatchString(o.Name):
			bad(key+".name", "want lowercase letters, digits and '_', starting with a letter (got %q)", o.Name)
		case seen[o.Name]:
			bad(key+".name", "%q twice (memory is every game's, from memory_mib)", o.Name)
		}
		seen[o.Name] = true
		if err := o.check(); err != nil {
			errs = append(errs, setting.In(key, err))
		}
	}
	r := m.Referee
	if !slices.Contains(c.Langs, r.Lang) {
		bad("referee.lang", "want one of the judge's languages, %s (got %q)", strings.Join(c.Langs, ", "), r.Lang)
	}
	if len(r.Files) == 0 {
		bad("referee.files", "the referee's source files: none given")
	}
	for i, f := range r.Files {
		if err := inDir(dir, f); err != nil {
			bad(fmt.Sprintf("referee.files[%d]", i), "%v", err)
		}
	}
	if r.Main != "" && !slices.Contains(r.Files, r.Main) {
		bad("referee.main", "the file that starts the referee, one of referee.files (%s); got %q", strings.Join(r.Files, ", "), r.Main)
	}
	if r.CPU < 0 || r.CPU > MaxRefereeCPU {
		bad("referee.cpu", "the referee's CPU for each answer, up to %v (got %v)", MaxRefereeCPU, r.CPU)
	}
	if r.Memory < 16<<20 || r.Memory > MaxRefereeMemory {
		bad("referee.memory", "the referee's memory, 16MiB to 4GiB (got %v)", r.Memory)
	}
	for _, lang := range slices.Sorted(maps.Keys(m.Samples)) {
		key := "samples." + lang
		if !slices.Contains(c.Langs, lang) {
			bad(key, "%q is not one of the judge's languages, %s", lang, strings.Join(c.Langs, ", "))
		}
		if st, err := fs.Lstat(dir, m.Samples[lang]); err != nil || !st.IsDir() || !fs.ValidPath(m.Samples[lang]) {
			bad(key, "want a directory in the game's (got %q)", m.Samples[lang])
		}
	}
	for key, f := range map[string]string{"renderer": m.Renderer, "rules": m.Rules} {
		if f != "" {
			if err := inDir(dir, f); err != nil {
				bad(key, "%v", err)
			}
		}
	}
	slices.SortStableFunc(errs, func(a, b error) int { return strings.Compare(a.Error(), b.Error()) })
	return errors.Join(errs...)
}

// inDir is an error unless f is a file in the directory (a path in it, not out of it).
func inDir(dir fs.FS, f string) error {
	if !fs.ValidPath(f) || path.Clean(f) != f || f == "." {
		return fmt.Errorf("want a path in the game's directory, like src/referee.py (got %q)", f)
	}
	// Lstat: a link would take a file from anywhere on the machine into the game.
	st, err := fs.Lstat(dir, f)
	if err != nil {
		return fmt.Errorf("%q: no such file in the game's directory", f)
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%q is not a file (a link or a directory)", f)
	}
	return nil
}

// check checks an option's type, bounds and default.
func (o Option) check() error {
	var errs []error
	bad := func(key, format string, args ...any) { errs = append(errs, setting.Invalid(key, format, args...)) }
	switch o.Type {
	case "int":
		lo, e1 := strconv.Atoi(o.Min)
		hi, e2 := strconv.Atoi(o.Max)
		def, e3 := strconv.Atoi(o.Default)
		switch {
		case e1 != nil || e2 != nil || lo > hi:
			bad("min", "want integers min <= max (got %q and %q)", o.Min, o.Max)
		case e3 != nil || def < lo || def > hi:
			bad("default", "want an integer from %d to %d (got %q)", lo, hi, o.Default)
		}
	case "duration":
		lo, e1 := time.ParseDuration(o.Min)
		hi, e2 := time.ParseDuration(o.Max)
		def, e3 := time.ParseDuration(o.Default)
		switch {
		case e1 != nil || e2 != nil || lo > hi || lo < 0:
			bad("min", "want durations 0 <= min <= max, like 100ms and 10s (got %q and %q)", o.Min, o.Max)
		case e3 != nil || def < lo || def > hi:
			bad("default", "want a duration from %s to %s (got %q)", o.Min, o.Max, o.Default)
		}
	case "text":
		if o.Min != "" || o.Max != "" || o.Default != "" {
			bad("type", "a text option has no min, max or default: an empty one is the referee's to fill")
		}
	default:
		bad("type", "want int, duration or text (got %q)", o.Type)
	}
	return errors.Join(errs...)
}

// declared is the option as the game package declares its own.
func (o Option) declared() game.Declared {
	switch o.Type {
	case "int":
		lo, _ := strconv.Atoi(o.Min)
		hi, _ := strconv.Atoi(o.Max)
		def, _ := strconv.Atoi(o.Default)
		return game.IntOption{Name: o.Name, Default: def, Min: lo, Max: hi, Help: o.Help}
	case "duration":
		lo, _ := time.ParseDuration(o.Min)
		hi, _ := time.ParseDuration(o.Max)
		def, _ := time.ParseDuration(o.Default)
		return game.DurationOption{Name: o.Name, Default: def, Min: lo, Max: hi, Help: o.Help}
	}
	return game.TextOption{Name: o.Name, Help: o.Help}
}

// Documented is the game's options as a built-in game's Options gives them, memory last.
func (m Manifest) Documented() []game.Option { return game.Document(m.declared()...) }

func (m Manifest) declared() []game.Declared {
	var out []game.Declared
	for _, o := range m.Options {
		out = append(out, o.declared())
	}
	return append(out, game.MemoryOption{DefaultMiB: m.MemoryMiB})
}

// Read reads a job's options as the game takes them: each checked against its type and
// bounds, every unknown one refused (a *game.OptionError naming each), and all of them, the
// defaults applied, as the referee is given them ("memory" in MiB, as a job writes it).
func (m Manifest) Read(raw map[string]string) (map[string]string, error) {
	opts := game.NewOptions(raw)
	out := map[string]string{}
	for _, d := range m.declared() {
		switch o := d.(type) {
		case game.IntOption:
			out[o.Name] = strconv.Itoa(o.Read(opts))
		case game.DurationOption:
			out[o.Name] = o.Read(opts).String()
		case game.TextOption:
			out[o.Name] = o.Read(opts)
		case game.MemoryOption:
			out["memory"] = strconv.FormatInt(o.Read(opts)>>20, 10)
		}
	}
	if err := opts.Err(); err != nil {
		return nil, err
	}
	return out, nil
}
