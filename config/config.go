// Package config loads the judge's configuration: command-line flags override JUDGE_*
// environment variables, which override judge.yaml, which overrides the defaults below.
//
// Every key is documented in docs/configuration.md and in judge.example.yaml; a key that is
// unknown, of the wrong type or out of range is an error that names the key.
package config

import (
	"encoding"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/go-viper/mapstructure/v2"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/build"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/portal"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/setting"
	"github.com/botjudge/judge/sandbox"
	"github.com/botjudge/judge/sandbox/cores"
)

// Config is the whole configuration. Field tags are the configuration keys. The sections
// that configure a component are that component's own option struct (build.Limits,
// queue.Options, sandbox.Limits and Output, images.Sources): each value has one
// representation, and each is checked once, by its type when it is read (sizes, enums) or
// by its section's Validate.
type Config struct {
	// DataDir holds the artifact cache, downloads and the embedded NATS server's storage.
	DataDir string         `mapstructure:"data_dir"`
	Log     Log            `mapstructure:"log"`
	Docker  Docker         `mapstructure:"docker"`
	Images  Images         `mapstructure:"images"`
	Build   build.Limits   `mapstructure:"build"`
	Sandbox Sandbox        `mapstructure:"sandbox"`
	NATS    queue.Options  `mapstructure:"nats"`
	Serve   Serve          `mapstructure:"serve"`
	Portal  portal.Options `mapstructure:"portal"`
}

// Serve configures the daemon.
type Serve struct {
	// Workers is how many matches run at once; 0 picks one per core the bots may have (a
	// match's bots take one core at a time; the judge and compilations float).
	Workers int `mapstructure:"workers"`
	// CoreLease is the directory where the judges of a host lease the cores their workers'
	// bots are pinned to, so that no two pin to the same one.
	CoreLease string `mapstructure:"core_lease"`
	// Grace is how long running matches may finish after SIGTERM before they are handed back.
	Grace time.Duration `mapstructure:"grace"`
	// HTTP is the address of /healthz and /metrics; empty or "off" turns them off (an empty
	// environment variable counts as unset, so JUDGE_SERVE_HTTP=off is the environment's way).
	HTTP string `mapstructure:"http"`
	// Redelivery is ack_wait, how long a daemon may go silent on a job before it is
	// redelivered, and max_deliver, the attempts at a job that meets infrastructure failures:
	// the queue's settings (queue.Redelivery), kept here for the daemons' operator.
	queue.Redelivery `mapstructure:",squash"`
}

// Queue is the queue's options as configured: the nats section, with serve's ack_wait and
// max_deliver (settings of the daemons' shared consumer, kept under serve for the operator).
func (c Config) Queue() queue.Options {
	o := c.NATS
	o.Redelivery = c.Serve.Redelivery
	return o
}

// Log configures the judge's own log lines (on stderr).
type Log struct {
	Level  slog.Level `mapstructure:"level"`  // debug, info, warn, error
	Format LogFormat  `mapstructure:"format"` // text or json
}

// LogFormat is how log lines are written: text or json.
type LogFormat string

// Validate says whether f is text or json.
func (f LogFormat) Validate() error {
	if f != "text" && f != "json" {
		return fmt.Errorf("must be text or json (got %q)", string(f))
	}
	return nil
}

// UnmarshalText reads text or json.
func (f *LogFormat) UnmarshalText(b []byte) error { return setValid(f, LogFormat(b)) }

// setValid sets *p to v if v is valid.
func setValid[T interface{ Validate() error }](p *T, v T) error {
	if err := v.Validate(); err != nil {
		return err
	}
	*p = v
	return nil
}

// Docker says which engine runs the sandboxes.
type Docker struct {
	// Host is the engine's address; empty means DOCKER_HOST or the local socket.
	Host string `mapstructure:"host"`
}

// Images configures where the toolchain images are built from.
type Images struct {
	// Lock is a lock file to use instead of the one compiled into the judge.
	Lock   string `mapstructure:"lock"`
	Prefix string `mapstructure:"prefix"`
	// Sources are the mirrors and the Go proxy.
	images.Sources `mapstructure:",squash"`
	// Strict makes a pin the mirror no longer serves an error instead of a change to the
	// newest version of its line (for official rounds).
	Strict bool `mapstructure:"strict"`
	// Source is where `judge serve` gets images it lacks at start.
	Source ImageSource `mapstructure:"source"`
}

// ImageSource is where `judge serve` gets images it lacks at start: "" (none: build them
// with `judge images build`) or "nats" (the archives `judge images publish` put in the
// object store, checked against the publisher's image IDs).
type ImageSource string

// ImagesFromNATS is the object store as a source of images.
const ImagesFromNATS ImageSource = "nats"

// Validate says whether s is "" or nats.
func (s ImageSource) Validate() error {
	if s != "" && s != ImagesFromNATS {
		return fmt.Errorf("must be \"\" or %q (got %q)", ImagesFromNATS, string(s))
	}
	return nil
}

// UnmarshalText reads "" or nats.
func (s *ImageSource) UnmarshalText(b []byte) error { return setValid(s, ImageSource(b)) }

// Sandbox is the bots' sandbox: their limits (a game may tighten the memory), their output
// limits, how they are held between turns, and how `judge serve` places them.
type Sandbox struct {
	sandbox.Limits `mapstructure:",squash"`
	sandbox.Output `mapstructure:",squash"`
	// StderrMatch bounds the bots' stderr one match's replay keeps, all bots together
	// (match.Runner.StderrMatch).
	StderrMatch setting.Bytes `mapstructure:"stderr_match_limit"`
	// Freeze is how bots are held while others move.
	Freeze sandbox.Freeze `mapstructure:"freeze"`
	// Pin gives each worker's bots a core of their own (core 0 stays for the judge) when the
	// machine has at least two.
	Pin bool `mapstructure:"pin"`
	// Warm is how many containers judge serve keeps started ahead, per worker and kind of bot
	// (image and limits), so that a match's bots start at once; 0 starts each bot's when its
	// match needs it.
	Warm int `mapstructure:"warm"`
	// WarmLimit bounds the containers judge serve keeps started ahead per worker, all kinds
	// together (sandbox.Engine.WarmLimit); 0: no bound.
	WarmLimit int `mapstructure:"warm_limit"`
	// Reuse is how many containers of bots that have played judge serve keeps, per worker,
	// reset for the same bots' next matches (runc only: under gVisor each is used once); 0
	// uses each container once.
	Reuse int `mapstructure:"reuse"`
}

// Validate checks the section: the limits and output limits, and the fields of its own.
func (s Sandbox) Validate() error {
	return errors.Join(s.Limits.Validate(), s.Output.Validate(), setting.Named("freeze", s.Freeze.Validate()),
		setting.Positive("stderr_match_limit", s.StderrMatch), setting.NotNegative("warm", s.Warm),
		setting.NotNegative("warm_limit", s.WarmLimit), setting.NotNegative("reuse", s.Reuse))
}

// Defaults returns the configuration used when nothing is set. Each component's section
// is that component's defaults (build.DefaultLimits, sandbox.DefaultLimits and
// DefaultOutput, match.DefaultStderrMatch, queue's Default*), so that each default lives
// in one place.
func Defaults() Config {
	return Config{
		DataDir: defaultDataDir(),
		Log:     Log{Level: slog.LevelInfo, Format: "text"},
		Images: Images{
			Prefix: "judge",
			Sources: images.Sources{
				DebianMirror:   "http://deb.debian.org/debian",
				SecurityMirror: "http://deb.debian.org/debian-security",
			},
		},
		Build: build.DefaultLimits(),
		Sandbox: Sandbox{
			Limits: sandbox.DefaultLimits(), Output: sandbox.DefaultOutput(),
			StderrMatch: match.DefaultStderrMatch, Freeze: sandbox.FreezeSignal, Pin: true, Warm: sandbox.DefaultWarm,
			WarmLimit: sandbox.DefaultWarmLimit, Reuse: sandbox.DefaultReuse,
		},
		NATS: queue.Options{Listen: queue.DefaultListen, Replicas: queue.DefaultReplicas, ReplaysMaxAge: queue.DefaultReplaysMaxAge,
			ResultsMaxAge:   queue.DefaultResultsMaxAge,
			ArtifactsMaxAge: queue.DefaultArtifactsMaxAge,
			ReplaysMaxBytes: queue.DefaultReplaysMaxBytes, ResultsMaxBytes: queue.DefaultResultsMaxBytes,
			PortalMaxBytes: queue.DefaultPortalMaxBytes,
			Cluster:        queue.Cluster{Name: queue.DefaultCluster, Routes: []string{}, Replaces: []string{}}},
		Serve:  Serve{Grace: 2 * time.Minute, CoreLease: cores.DefaultLeaseDir, HTTP: "127.0.0.1:9464", Redelivery: queue.Redelivery{AckWait: queue.DefaultAckWait, MaxDeliver: queue.DefaultMaxDeliver}},
		Portal: portal.DefaultOptions(),
	}
}

func defaultDataDir() string {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "judge")
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".local", "share", "judge")
	}
	return "judge-data"
}

// Load reads the configuration. file is an explicit configuration file ("" searches for
// judge.yaml in the working directory and /etc/judge; none found is fine). flags, when not
// nil, are bound by their names: a flag named "data-dir" sets the key "data_dir", and a
// flag only counts when it was given on the command line.
func Load(file string, flags *pflag.FlagSet) (Config, error) { return LoadOnly(file, flags, nil) }

// LoadOnly is Load checking only the sections named (Config.ValidateOnly).
func LoadOnly(file string, flags *pflag.FlagSet, sections []string) (Config, error) {
	v := viper.New()
	setDefaults(v, "", reflect.ValueOf(Defaults()))
	v.SetEnvPrefix("JUDGE")
	v.SetEnvKeyReplacer(strings.NewReplacer(".", "_"))
	v.AutomaticEnv()
	if file == "" {
		// Exactly these names: viper's own search would also take a file called "judge"
		// (the binary itself, run from its directory) for a configuration.
		for _, f := range []string{"judge.yaml", "/etc/judge/judge.yaml"} {
			if st, err := os.Stat(f); err == nil && st.Mode().IsRegular() {
				file = f
				break
			}
		}
	}
	if file != "" {
		v.SetConfigFile(file)
		v.SetConfigType("yaml")
		if err := v.ReadInConfig(); err != nil {
			return Config{}, fmt.Errorf("config: %s: %w", file, err)
		}
	}
	if flags != nil {
		var bindErr error
		flags.VisitAll(func(f *pflag.Flag) {
			key := strings.ReplaceAll(f.Name, "-", "_")
			// Only a key's flag: another flag's name may be an environment variable's too
			// (--nats-store and JUDGE_NATS_STORE, which is nats.store), not a key.
			if knownKey(key) || slices.Contains(v.AllKeys(), key) {
				if err := v.BindPFlag(key, f); err != nil && bindErr == nil {
					bindErr = err
				}
			}
		})
		if bindErr != nil {
			return Config{}, fmt.Errorf("config: %w", bindErr)
		}
	}
	var c Config
	err := v.UnmarshalExact(&c, viper.DecodeHook(mapstructure.ComposeDecodeHookFunc(
		textHook, mapstructure.StringToTimeDurationHookFunc(), mapstructure.StringToSliceHookFunc(","))))
	if err != nil {
		if unknown := unknownKeys(v, file); unknown != nil {
			return Config{}, unknown
		}
		return Config{}, fmt.Errorf("config: %w", err)
	}
	if err := c.ValidateOnly(sections); err != nil {
		return Config{}, err
	}
	if c.Serve.HTTP == "off" {
		c.Serve.HTTP = ""
	}
	// The data directory's paths are handed to the engine (bind mounts), which takes only
	// absolute ones: a relative data_dir is the working directory's.
	for _, dir := range []*string{&c.DataDir, &c.NATS.StoreDir} {
		if *dir != "" {
			abs, err := filepath.Abs(*dir)
			if err != nil {
				return Config{}, fmt.Errorf("config: %w", err)
			}
			*dir = abs
		}
	}
	return c, nil
}

// unknownKeys names the keys v was given (in file, or from JUDGE_* variables) that are not
// configuration keys, each with the key it most likely meant; nil when there are none.
func unknownKeys(v *viper.Viper, file string) error {
	var known []string
	eachKey("", reflect.TypeFor[Config](), func(key string, _ []int) { known = append(known, key) })
	var lines []string
	for _, k := range v.AllKeys() {
		if slices.Contains(known, k) {
			continue
		}
		line := "  " + k
		if s := setting.Closest(k, known); s != "" {
			line += fmt.Sprintf(" (did you mean %s?)", s)
		}
		lines = append(lines, line)
	}
	if len(lines) == 0 {
		return nil
	}
	where := "config"
	if file != "" {
		where = "config: " + file
	}
	return fmt.Errorf("%s: not configuration keys:\n%s\n(docs/configuration.md and judge.example.yaml list the keys)", where, strings.Join(lines, "\n"))
}

// knownKey reports whether key is a top-level configuration key, so that a flag of the
// same name overrides it.
func knownKey(key string) bool {
	t := reflect.TypeOf(Config{})
	for i := 0; i < t.NumField(); i++ {
		if t.Field(i).Tag.Get("mapstructure") == key {
			return true
		}
	}
	return false
}

var textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()

// setDefaults registers every key under its dotted name with its default. Registering each
// key (rather than nothing) is what makes JUDGE_* variables visible to Unmarshal.
func setDefaults(v *viper.Viper, prefix string, val reflect.Value) {
	eachKey(prefix, val.Type(), func(key string, index []int) {
		f := val.FieldByIndex(index)
		switch x := f.Interface().(type) {
		case time.Duration:
			v.SetDefault(key, x.String())
		case encoding.TextMarshaler:
			text, err := x.MarshalText()
			if err != nil {
				panic(fmt.Sprintf("config: default of %s: %v", key, err))
			}
			v.SetDefault(key, string(text))
		default:
			v.SetDefault(key, x)
		}
	})
}

// eachKey calls fn with the dotted key and field index of every value of the struct type t:
// a nested struct is a section (its keys under its own), an embedded one tagged ",squash"
// gives its keys to its parent, "-" is not a key, and a type that reads itself from text
// is one value.
func eachKey(prefix string, t reflect.Type, fn func(key string, index []int)) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("mapstructure"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		sub := func(key string, index []int) { fn(key, append([]int{i}, index...)) }
		switch {
		case opts == "squash":
			eachKey(prefix, f.Type, sub)
		case f.Type.Kind() == reflect.Struct && !f.Type.Implements(textMarshaler):
			eachKey(prefix+name+".", f.Type, sub)
		default:
			fn(prefix+name, []int{i})
		}
	}
}

// keys are every configuration key, dotted ("sandbox.memory"), in the order of Config.
func keys() []string {
	var keys []string
	eachKey("", reflect.TypeOf(Config{}), func(key string, _ []int) { keys = append(keys, key) })
	return keys
}

// textHook decodes values into the types that read themselves from text (sizes, enums),
// whatever YAML or the environment made of them: 1024 and true arrive as an int and a bool.
func textHook(from, to reflect.Type, data any) (any, error) {
	if from.Kind() == reflect.Struct || from.Kind() == reflect.Map || from.Kind() == reflect.Slice {
		return data, nil
	}
	u, ok := reflect.New(to).Interface().(encoding.TextUnmarshaler)
	if !ok {
		return data, nil
	}
	if err := u.UnmarshalText([]byte(fmt.Sprint(data))); err != nil {
		return nil, err
	}
	return reflect.ValueOf(u).Elem().Interface(), nil
}

// Validate checks what the types could not check alone: ranges and the relations between
// values. Each error names its key.
func (c Config) Validate() error { return c.ValidateOnly(nil) }

// ValidateOnly checks data_dir, log and the sections named ("images", "build", "sandbox",
// "nats", "portal", "serve"), every one when sections is nil: a command that uses some only
// (judge contest, judge replay verify of a built-in game's replay) is not refused for a
// mistake in a section it never reads.
func (c Config) ValidateOnly(sections []string) error {
	in := func(s string) bool { return sections == nil || slices.Contains(sections, s) }
	var errs []error
	if c.DataDir == "" {
		errs = append(errs, setting.Invalid("data_dir", "must not be empty"))
	}
	errs = append(errs, setting.Named("log.format", c.Log.Format.Validate()))
	if in("images") {
		errs = append(errs, setting.Named("images.source", c.Images.Source.Validate()))
		if c.Images.Prefix == "" || strings.ContainsAny(c.Images.Prefix, ": @") {
			errs = append(errs, setting.Invalid("images.prefix", "must be a repository name like \"judge\" (got %q)", c.Images.Prefix))
		}
	}
	for _, sec := range []struct {
		name string
		err  func() error
	}{
		{"build", c.Build.Validate},
		{"sandbox", c.Sandbox.Validate},
		{"nats", c.NATS.Validate},
		{"portal", c.Portal.Validate},
		{"serve", func() error {
			return errors.Join(setting.NotNegative("workers", c.Serve.Workers), setting.Positive("grace", c.Serve.Grace), c.Serve.Redelivery.Validate())
		}},
	} {
		if in(sec.name) {
			errs = append(errs, setting.In(sec.name, sec.err()))
		}
	}
	return prefixed(errors.Join(errs...))
}

// prefixed puts "config: " before each error in err, joined ones one per line.
func prefixed(err error) error {
	var errs []error
	var walk func(error)
	walk = func(err error) {
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
		} else if err != nil {
			errs = append(errs, fmt.Errorf("config: %w", err))
		}
	}
	walk(err)
	return errors.Join(errs...)
}
