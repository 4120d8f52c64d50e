// Package config loads the judge's configuration: command-line flags override JUDGE_*
// environment variables, which override judge.yaml, which overrides the defaults below.
//
// Every key is documented in README.md and in judge.example.yaml; a key that is unknown,
// of the wrong type or out of range is an error that names the key.
package config

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"time"

	"github.com/docker/go-units"
	"github.com/go-viper/mapstructure/v2"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/botjudge/judge/judge/build"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/sandbox"
)

// Bytes is a size in bytes; in configuration it is written like "64KiB", "256m" or "1GiB"
// (binary units) or as a plain number of bytes.
type Bytes int64

// String formats b with binary units, the way it is written in configuration.
func (b Bytes) String() string { return units.BytesSize(float64(b)) }

// Config is the whole configuration. Field tags are the configuration keys.
type Config struct {
	// DataDir holds the artifact cache, downloads and the embedded NATS server's storage.
	DataDir string  `mapstructure:"data_dir"`
	Log     Log     `mapstructure:"log"`
	Docker  Docker  `mapstructure:"docker"`
	Images  Images  `mapstructure:"images"`
	Build   Build   `mapstructure:"build"`
	Sandbox Sandbox `mapstructure:"sandbox"`
	NATS    NATS    `mapstructure:"nats"`
	Serve   Serve   `mapstructure:"serve"`
}

// NATS says where the queue is.
type NATS struct {
	// URL is a NATS server or cluster; empty makes `judge serve` embed a server.
	URL string `mapstructure:"url"`
	// Listen is the embedded server's address, where submit and results look by default.
	Listen string `mapstructure:"listen"`
	// Store is the embedded server's storage directory; empty is data_dir/nats.
	Store string `mapstructure:"store"`
	// Replicas is how many servers keep each stream and object store: 1 for a single
	// server, 3 for a cluster (losing one server then loses nothing).
	Replicas int `mapstructure:"replicas"`
	// ServerName names the embedded server in a cluster; empty is the host name and port.
	ServerName string `mapstructure:"server_name"`
	// Cluster makes the embedded server a node of a cluster of judge machines.
	Cluster NATSCluster `mapstructure:"cluster"`
}

// NATSCluster is the embedded server's cluster: every machine lists the same routes.
type NATSCluster struct {
	// Name is the cluster's name, the same on every node.
	Name string `mapstructure:"name"`
	// Listen is where this node takes routes from the others (host:port); empty: no cluster.
	Listen string `mapstructure:"listen"`
	// Routes are every node's cluster address (host:port), this one's included.
	Routes []string `mapstructure:"routes"`
}

// Serve configures the daemon.
type Serve struct {
	// Workers is how many matches run at once; 0 picks one per two cores (a match's bots
	// take one core at a time, the judge and compilations need the rest).
	Workers int `mapstructure:"workers"`
	// Grace is how long running matches may finish after SIGTERM before they are handed back.
	Grace time.Duration `mapstructure:"grace"`
	// HTTP is the address of /healthz and /metrics; empty turns them off.
	HTTP string `mapstructure:"http"`
	// AckWait is how long a daemon may go silent on a job before it is redelivered.
	AckWait time.Duration `mapstructure:"ack_wait"`
	// MaxDeliver bounds the attempts at a job that meets infrastructure failures.
	MaxDeliver int `mapstructure:"max_deliver"`
}

// Log configures the judge's own log lines (on stderr).
type Log struct {
	Level  string `mapstructure:"level"`  // debug, info, warn, error
	Format string `mapstructure:"format"` // text or json
}

// Docker says which engine runs the sandboxes.
type Docker struct {
	// Host is the engine's address; empty means DOCKER_HOST or the local socket.
	Host string `mapstructure:"host"`
}

// Images configures where the toolchain images are built from.
type Images struct {
	// Lock is a lock file to use instead of the one compiled into the judge.
	Lock           string `mapstructure:"lock"`
	Prefix         string `mapstructure:"prefix"`
	DebianMirror   string `mapstructure:"debian_mirror"`
	SecurityMirror string `mapstructure:"security_mirror"`
	// GoProxy serves the pinned Go toolchain; empty means the first entry of GOPROXY.
	GoProxy string `mapstructure:"go_proxy"`
	// Strict makes a pin the mirror no longer serves an error instead of a change to the
	// newest version of its line (for official rounds).
	Strict bool `mapstructure:"strict"`
	// Source is where `judge serve` gets images it lacks at start: "" (none: build them with
	// `judge images build`) or "nats" (the archives `judge images publish` put in the object
	// store, checked against the publisher's image IDs).
	Source string `mapstructure:"source"`
}

// Build limits one compilation.
type Build struct {
	Timeout       time.Duration `mapstructure:"timeout"`
	Memory        Bytes         `mapstructure:"memory"`
	CPUs          float64       `mapstructure:"cpus"`
	Pids          int64         `mapstructure:"pids"`
	Tmpfs         Bytes         `mapstructure:"tmpfs"`
	LogLimit      Bytes         `mapstructure:"log_limit"`
	ArtifactLimit Bytes         `mapstructure:"artifact_limit"`
	SourceLimit   Bytes         `mapstructure:"source_limit"`
}

// Sandbox holds the default limits of a running bot; a game may tighten them.
type Sandbox struct {
	Runtime     string  `mapstructure:"runtime"`
	Memory      Bytes   `mapstructure:"memory"`
	CPUs        float64 `mapstructure:"cpus"`
	Pids        int64   `mapstructure:"pids"`
	NoFile      int64   `mapstructure:"nofile"`
	FileSize    Bytes   `mapstructure:"fsize"`
	Tmpfs       Bytes   `mapstructure:"tmpfs"`
	StdoutLimit Bytes   `mapstructure:"stdout_limit"`
	StderrLimit Bytes   `mapstructure:"stderr_limit"`
	// StderrMatchLimit bounds the bots' stderr one match's replay keeps, all bots together.
	StderrMatchLimit Bytes `mapstructure:"stderr_match_limit"`
	LineLimit        Bytes `mapstructure:"line_limit"`
	Network          bool  `mapstructure:"network"`
	Seccomp          bool  `mapstructure:"seccomp"`
	// Freeze is how bots are held while others move: signal, cgroup or none.
	Freeze string `mapstructure:"freeze"`
	// Pin gives each worker's bots a core of their own (core 0 stays for the judge) when the
	// machine has at least two.
	Pin bool `mapstructure:"pin"`
	// Warm is how many containers judge serve keeps started ahead, per worker and kind of bot
	// (image and limits), so that a match's bots start at once; 0 starts each bot's when its
	// match needs it.
	Warm int `mapstructure:"warm"`
}

// Defaults returns the configuration used when nothing is set. The limits are the
// components' own defaults (build.DefaultLimits, sandbox.DefaultLimits and DefaultOutput,
// match.DefaultStderrMatch), mapped here once, and mapped back by Build.Limits,
// Sandbox.Limits and Sandbox.Output (sandbox.stderr_match_limit is match.Runner.StderrMatch
// as it is).
func Defaults() Config {
	bl, sl, out := build.DefaultLimits(), sandbox.DefaultLimits(), sandbox.DefaultOutput()
	return Config{
		DataDir: defaultDataDir(),
		Log:     Log{Level: "info", Format: "text"},
		Images: Images{
			Prefix:         "judge",
			DebianMirror:   "http://deb.debian.org/debian",
			SecurityMirror: "http://deb.debian.org/debian-security",
		},
		Build: Build{
			Timeout: bl.Timeout, Memory: Bytes(bl.Memory), CPUs: bl.CPUs, Pids: bl.Pids,
			Tmpfs: Bytes(bl.Scratch), LogLimit: Bytes(bl.LogLimit), ArtifactLimit: Bytes(bl.ArtifactLimit),
			SourceLimit: Bytes(bl.SourceLimit),
		},
		Sandbox: Sandbox{
			Runtime: sl.Runtime, Memory: Bytes(sl.Memory), CPUs: sl.CPUs, Pids: sl.Pids, NoFile: sl.NoFile,
			FileSize: Bytes(sl.FileSize), Tmpfs: Bytes(sl.Tmpfs), Network: sl.Network,
			Seccomp: sl.Seccomp == sandbox.SeccompJudge, StdoutLimit: Bytes(out.Stdout),
			StderrLimit: Bytes(out.Stderr), StderrMatchLimit: match.DefaultStderrMatch, LineLimit: Bytes(out.Line),
			Freeze: string(sandbox.FreezeSignal), Pin: true, Warm: sandbox.DefaultWarm,
		},
		NATS:  NATS{Listen: queue.DefaultListen, Replicas: queue.DefaultReplicas, Cluster: NATSCluster{Name: queue.DefaultCluster, Routes: []string{}}},
		Serve: Serve{Grace: 2 * time.Minute, HTTP: "127.0.0.1:9464", AckWait: queue.DefaultAckWait, MaxDeliver: queue.DefaultMaxDeliver},
	}
}

// Limits are the compile limits configured, under the bots' runtime.
func (b Build) Limits(runtime string) build.Limits {
	return build.Limits{
		Timeout: b.Timeout, Memory: int64(b.Memory), CPUs: b.CPUs, Pids: b.Pids, Scratch: int64(b.Tmpfs),
		LogLimit: int64(b.LogLimit), ArtifactLimit: int64(b.ArtifactLimit), SourceLimit: int64(b.SourceLimit),
		Runtime: runtime,
	}
}

// Limits are the bots' limits configured.
func (s Sandbox) Limits() sandbox.Limits {
	l := sandbox.Limits{
		Memory: int64(s.Memory), CPUs: s.CPUs, Pids: s.Pids, NoFile: s.NoFile, FileSize: int64(s.FileSize),
		Tmpfs: int64(s.Tmpfs), Network: s.Network, Runtime: s.Runtime,
	}
	if !s.Seccomp {
		l.Seccomp = sandbox.SeccompDocker
	}
	return l
}

// Output is the bots' output limits configured.
func (s Sandbox) Output() sandbox.Output {
	return sandbox.Output{Stdout: int64(s.StdoutLimit), Stderr: int64(s.StderrLimit), Line: int64(s.LineLimit)}
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
func Load(file string, flags *pflag.FlagSet) (Config, error) {
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
			if v.IsSet(key) || knownKey(key) {
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
		bytesHook, mapstructure.StringToTimeDurationHookFunc(), mapstructure.StringToSliceHookFunc(","))))
	if err != nil {
		return Config{}, fmt.Errorf("config: %w", err)
	}
	if err := c.Validate(); err != nil {
		return Config{}, err
	}
	// The data directory's paths are handed to the engine (bind mounts), which takes only
	// absolute ones: a relative data_dir is the working directory's.
	for _, dir := range []*string{&c.DataDir, &c.NATS.Store} {
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

// setDefaults registers every leaf of the defaults under its dotted key. Registering each
// key (rather than nothing) is what makes JUDGE_* variables visible to Unmarshal.
func setDefaults(v *viper.Viper, prefix string, val reflect.Value) {
	t := val.Type()
	for i := 0; i < t.NumField(); i++ {
		key := prefix + t.Field(i).Tag.Get("mapstructure")
		f := val.Field(i)
		if f.Kind() == reflect.Struct && f.Type() != reflect.TypeOf(time.Duration(0)) {
			setDefaults(v, key+".", f)
			continue
		}
		switch x := f.Interface().(type) {
		case Bytes:
			v.SetDefault(key, int64(x))
		case time.Duration:
			v.SetDefault(key, x.String())
		default:
			v.SetDefault(key, x)
		}
	}
}

var bytesType = reflect.TypeOf(Bytes(0))

// bytesHook decodes "64KiB", "1g" or 1024 into Bytes.
func bytesHook(from, to reflect.Type, data any) (any, error) {
	if to != bytesType {
		return data, nil
	}
	switch x := data.(type) {
	case string:
		n, err := units.RAMInBytes(strings.TrimSpace(x))
		if err != nil {
			return nil, fmt.Errorf("%q is not a size (use e.g. 64KiB, 256MiB, 1GiB)", x)
		}
		return Bytes(n), nil
	default:
		return data, nil
	}
}

// Validate checks ranges and choices; the error names the offending key.
func (c Config) Validate() error {
	var errs []error
	bad := func(key, format string, args ...any) {
		errs = append(errs, fmt.Errorf("config: %s: %s", key, fmt.Sprintf(format, args...)))
	}
	if c.DataDir == "" {
		bad("data_dir", "must not be empty")
	}
	switch c.Log.Level {
	case "debug", "info", "warn", "error":
	default:
		bad("log.level", "must be one of debug, info, warn, error (got %q)", c.Log.Level)
	}
	switch c.Log.Format {
	case "text", "json":
	default:
		bad("log.format", "must be text or json (got %q)", c.Log.Format)
	}
	if c.Images.Source != "" && c.Images.Source != "nats" {
		bad("images.source", "must be \"\" or \"nats\" (got %q)", c.Images.Source)
	}
	if c.Images.Prefix == "" || strings.ContainsAny(c.Images.Prefix, ": @") {
		bad("images.prefix", "must be a repository name like \"judge\" (got %q)", c.Images.Prefix)
	}
	positive := func(key string, ok bool, v any) {
		if !ok {
			bad(key, "must be greater than zero (got %v)", v)
		}
	}
	b := c.Build
	positive("build.timeout", b.Timeout > 0, b.Timeout)
	positive("build.memory", b.Memory > 0, b.Memory)
	positive("build.cpus", b.CPUs > 0, b.CPUs)
	positive("build.pids", b.Pids > 0, b.Pids)
	positive("build.tmpfs", b.Tmpfs > 0, b.Tmpfs)
	positive("build.log_limit", b.LogLimit > 0, b.LogLimit)
	positive("build.artifact_limit", b.ArtifactLimit > 0, b.ArtifactLimit)
	positive("build.source_limit", b.SourceLimit > 0, b.SourceLimit)
	s := c.Sandbox
	if s.Runtime == "" {
		bad("sandbox.runtime", "must name an engine runtime such as runc or runsc")
	}
	positive("sandbox.memory", s.Memory > 0, s.Memory)
	positive("sandbox.cpus", s.CPUs > 0, s.CPUs)
	positive("sandbox.pids", s.Pids > 0, s.Pids)
	positive("sandbox.nofile", s.NoFile > 0, s.NoFile)
	positive("sandbox.stdout_limit", s.StdoutLimit > 0, s.StdoutLimit)
	positive("sandbox.stderr_limit", s.StderrLimit > 0, s.StderrLimit)
	positive("sandbox.stderr_match_limit", s.StderrMatchLimit > 0, s.StderrMatchLimit)
	positive("sandbox.line_limit", s.LineLimit > 0, s.LineLimit)
	switch s.Freeze {
	case "signal", "cgroup", "none":
	default:
		bad("sandbox.freeze", "must be signal, cgroup or none (got %q)", s.Freeze)
	}
	if s.FileSize < 0 {
		bad("sandbox.fsize", "must not be negative (got %v)", s.FileSize)
	}
	if s.Tmpfs < 0 {
		bad("sandbox.tmpfs", "must not be negative (got %v)", s.Tmpfs)
	}
	if s.Warm < 0 {
		bad("sandbox.warm", "must not be negative (got %d)", s.Warm)
	}
	if _, _, err := net.SplitHostPort(c.NATS.Listen); err != nil {
		bad("nats.listen", "want host:port (got %q)", c.NATS.Listen)
	}
	if c.NATS.Replicas < 1 || c.NATS.Replicas > 5 {
		bad("nats.replicas", "must be 1 to 5 (got %d)", c.NATS.Replicas)
	}
	if cl := c.NATS.Cluster; cl.Listen != "" {
		if _, _, err := net.SplitHostPort(cl.Listen); err != nil {
			bad("nats.cluster.listen", "want host:port (got %q)", cl.Listen)
		}
		for _, r := range cl.Routes {
			if _, _, err := net.SplitHostPort(strings.TrimPrefix(r, "nats-route://")); err != nil {
				bad("nats.cluster.routes", "want host:port for each (got %q)", r)
			}
		}
	} else if len(cl.Routes) > 0 {
		bad("nats.cluster.routes", "need nats.cluster.listen, this node's own cluster address")
	}
	if c.Serve.Workers < 0 {
		bad("serve.workers", "must not be negative (got %d)", c.Serve.Workers)
	}
	positive("serve.grace", c.Serve.Grace > 0, c.Serve.Grace)
	if c.Serve.AckWait < time.Second {
		bad("serve.ack_wait", "must be at least 1s (got %v)", c.Serve.AckWait)
	}
	positive("serve.max_deliver", c.Serve.MaxDeliver > 0, c.Serve.MaxDeliver)
	return errors.Join(errs...)
}
