package config

import (
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
	"go.yaml.in/yaml/v3"

	"github.com/botjudge/judge/judge/build"
	"github.com/botjudge/judge/judge/match"
	"github.com/botjudge/judge/sandbox"
)

// cleanEnv hides the caller's JUDGE_* variables (viper treats empty ones as unset).
func cleanEnv(t *testing.T) {
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "JUDGE_") {
			t.Setenv(k, "")
		}
	}
}

func write(t *testing.T, content string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "judge.yaml")
	if err := os.WriteFile(f, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestDefaultsAreValid(t *testing.T) {
	if err := Defaults().Validate(); err != nil {
		t.Fatal(err)
	}
}

// The configuration's sections are the components' option structs, and start from the
// components' own defaults.
func TestDefaultsAreTheComponents(t *testing.T) {
	d := Defaults()
	if d.Sandbox.Limits != sandbox.DefaultLimits() || d.Sandbox.Output != sandbox.DefaultOutput() {
		t.Errorf("bot limits %+v %+v, want sandbox's", d.Sandbox.Limits, d.Sandbox.Output)
	}
	if d.Sandbox.StderrMatch != match.DefaultStderrMatch {
		t.Errorf("stderr per match %d, want match's %d", d.Sandbox.StderrMatch, match.DefaultStderrMatch)
	}
	if d.Build != build.DefaultLimits() {
		t.Errorf("compile limits %+v, want build's %+v", d.Build, build.DefaultLimits())
	}
}

// The types that read themselves from text take what YAML and the environment give them.
func TestValuesReadThemselves(t *testing.T) {
	cleanEnv(t)
	t.Setenv("JUDGE_SANDBOX_TMPFS", "8m")
	c, err := Load(write(t, "sandbox:\n  seccomp: false\n  memory: 1048576\n  freeze: cgroup\nlog:\n  level: warn\n  format: json\nimages:\n  source: nats\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := c.Sandbox
	if s.Seccomp != sandbox.SeccompDocker || s.Memory != 1<<20 || s.Tmpfs != 8<<20 || s.Freeze != sandbox.FreezeCgroup {
		t.Errorf("sandbox %+v", s)
	}
	if c.Log.Level != slog.LevelWarn || c.Log.Format != "json" || c.Images.Source != ImagesFromNATS {
		t.Errorf("log %+v, images.source %q", c.Log, c.Images.Source)
	}
	for _, tc := range []struct{ yaml, key string }{
		{"sandbox:\n  seccomp: maybe\n", "sandbox.seccomp"},
		{"sandbox:\n  freeze: ice\n", "sandbox.freeze"},
		{"images:\n  source: s3\n", "images.source"},
		{"log:\n  level: loud\n", "log.level"},
		{"sandbox:\n  stdout_limit: 0\n", "sandbox.stdout_limit"},
		{"sandbox:\n  stderr_match_limit: -1\n", "sandbox.stderr_match_limit"},
		{"build:\n  tmpfs: 0\n", "build.tmpfs"},
		{"nats:\n  listen: nowhere\n", "nats.listen"},
	} {
		if _, err := Load(write(t, tc.yaml), nil); err == nil || !strings.Contains(err.Error(), tc.key) {
			t.Errorf("%q: %v; want an error naming %s", tc.yaml, err, tc.key)
		}
	}
}

// The example file documents every key with its default: loading it changes nothing.
func TestExampleFileMatchesDefaults(t *testing.T) {
	cleanEnv(t)
	c, err := Load("../judge.example.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := Defaults(); !reflect.DeepEqual(c, want) {
		t.Errorf("judge.example.yaml differs from the defaults:\n got %+v\nwant %+v", c, want)
	}
	data, _ := os.ReadFile("../judge.example.yaml")
	for _, key := range keys() {
		leaf := key[strings.LastIndex(key, ".")+1:]
		if !strings.Contains(string(data), leaf+":") {
			t.Errorf("judge.example.yaml does not document %s", key)
		}
	}
}

func TestPrecedence(t *testing.T) {
	cleanEnv(t)
	file := write(t, "build:\n  timeout: 30s\n  memory: 512MiB\nsandbox:\n  memory: 128m\ndata_dir: /from/file\n")
	t.Setenv("JUDGE_BUILD_TIMEOUT", "45s")
	t.Setenv("JUDGE_DATA_DIR", "/from/env")
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	fs.String("data-dir", "", "")
	if err := fs.Parse([]string{"--data-dir", "/from/flag"}); err != nil {
		t.Fatal(err)
	}
	c, err := Load(file, fs)
	if err != nil {
		t.Fatal(err)
	}
	if c.DataDir != "/from/flag" {
		t.Errorf("data_dir = %q: flag must win", c.DataDir)
	}
	if c.Build.Timeout != 45*time.Second {
		t.Errorf("build.timeout = %v: env must beat the file", c.Build.Timeout)
	}
	if c.Build.Memory != 512<<20 || c.Sandbox.Memory != 128<<20 {
		t.Errorf("sizes from the file: build.memory=%d sandbox.memory=%d", c.Build.Memory, c.Sandbox.Memory)
	}
	if c.Build.LogLimit != 64<<10 {
		t.Errorf("build.log_limit = %d: the default must fill what nothing set", c.Build.LogLimit)
	}
}

func TestUnsetFlagDoesNotOverride(t *testing.T) {
	cleanEnv(t)
	t.Setenv("JUDGE_DATA_DIR", "/from/env")
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	fs.String("data-dir", "", "")
	c, err := Load(write(t, ""), fs)
	if err != nil {
		t.Fatal(err)
	}
	if c.DataDir != "/from/env" {
		t.Errorf("data_dir = %q, want the environment's", c.DataDir)
	}
}

// A command's own flag whose name is also an environment variable's (--nats-store, and
// JUDGE_NATS_STORE for nats.store) is not taken for a key.
func TestFlagThatIsNoKey(t *testing.T) {
	cleanEnv(t)
	t.Setenv("JUDGE_NATS_STORE", "/from/env")
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	fs.String("nats-store", "", "")
	fs.Parse([]string{"--nats-store", "/a/store"})
	c, err := Load(write(t, ""), fs)
	if err != nil {
		t.Fatal(err)
	}
	if c.NATS.StoreDir != "/from/env" {
		t.Errorf("nats.store = %q, want the environment's", c.NATS.StoreDir)
	}
}

func TestErrorsNameTheKey(t *testing.T) {
	for _, tc := range []struct{ yaml, env, key string }{
		{yaml: "build:\n  timeout: soon\n", key: "build.timeout"},
		{yaml: "build:\n  memory: lots\n", key: "build.memory"},
		{yaml: "sandbox:\n  cpus: 0\n", key: "sandbox.cpus"},
		{yaml: "log:\n  format: xml\n", key: "log.format"},
		{yaml: "buidl:\n  timeout: 1s\n", key: "buidl.timeout (did you mean build.timeout?)"},
		{yaml: "sandbox:\n  memroy: 1g\n", key: "sandbox.memroy (did you mean sandbox.memory?)"},
		// Fields of the components' structs that are not keys stay out of reach.
		{yaml: "nats:\n  prefix: x\n", key: "prefix"},
		{yaml: "build:\n  runtime: runsc\n", key: "runtime"},
		{yaml: "sandbox:\n  cpuset: \"0\"\n", key: "cpuset"},
		{env: "-5s", key: "build.timeout"},
		{yaml: "nats:\n  replays_max_age: -24h\n", key: "nats.replays_max_age"},
		{yaml: "nats:\n  results_max_age: 1h\n", key: "nats.results_max_age"},
	} {
		t.Run(tc.key, func(t *testing.T) {
			cleanEnv(t)
			if tc.env != "" {
				t.Setenv("JUDGE_BUILD_TIMEOUT", tc.env)
			}
			_, err := Load(write(t, tc.yaml), nil)
			if err == nil {
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), tc.key) {
				t.Errorf("error does not name %s: %v", tc.key, err)
			}
		})
	}
}

func TestMissingExplicitFileIsAnError(t *testing.T) {
	cleanEnv(t)
	if _, err := Load(filepath.Join(t.TempDir(), "nope.yaml"), nil); err == nil {
		t.Fatal("a missing --config file was accepted")
	}
}

// A file called "judge" (the binary, run from its own directory) is not a configuration;
// ./judge.yaml is.
func TestFindsOnlyJudgeYAML(t *testing.T) {
	cleanEnv(t)
	dir := t.TempDir()
	wd, _ := os.Getwd()
	t.Cleanup(func() { os.Chdir(wd) })
	os.Chdir(dir)
	os.WriteFile("judge", []byte("\x7fELF\x00\x01binary"), 0o755)
	if _, err := Load("", nil); err != nil {
		t.Fatalf("a file named judge was read as configuration: %v", err)
	}
	os.WriteFile("judge.yaml", []byte("log:\n  level: debug\n"), 0o644)
	c, err := Load("", nil)
	if err != nil || c.Log.Level != slog.LevelDebug {
		t.Fatalf("./judge.yaml not used: %v %v", c.Log.Level, err)
	}
}

// A relative data directory (or NATS store) is the working directory's: the engine takes only
// absolute paths for the bind mounts made from it.
func TestRelativeDirectoriesAreMadeAbsolute(t *testing.T) {
	cleanEnv(t)
	t.Setenv("JUDGE_DATA_DIR", "judge-data/here")
	t.Setenv("JUDGE_NATS_STORE", "nats-store")
	c, err := Load(write(t, ""), nil)
	if err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	if c.DataDir != filepath.Join(wd, "judge-data/here") || c.NATS.StoreDir != filepath.Join(wd, "nats-store") {
		t.Errorf("data_dir %q, nats.store %q; want them under %s", c.DataDir, c.NATS.StoreDir, wd)
	}
}

// The cluster keys: routes from the environment as a comma-separated list, and the checks.
func TestNATSCluster(t *testing.T) {
	cleanEnv(t)
	t.Setenv("JUDGE_NATS_REPLICAS", "3")
	t.Setenv("JUDGE_NATS_CLUSTER_LISTEN", "10.0.0.1:6222")
	t.Setenv("JUDGE_NATS_CLUSTER_ROUTES", "10.0.0.1:6222,10.0.0.2:6222,nats-route://10.0.0.3:6222")
	t.Setenv("JUDGE_NATS_CLUSTER_REPLACES", "n1,n2")
	c, err := Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := c.NATS; n.Replicas != 3 || n.Cluster.Listen != "10.0.0.1:6222" || !reflect.DeepEqual(n.Cluster.Routes, []string{"10.0.0.1:6222", "10.0.0.2:6222", "nats-route://10.0.0.3:6222"}) ||
		!reflect.DeepEqual(n.Cluster.Replaces, []string{"n1", "n2"}) {
		t.Errorf("%+v", n)
	}
	for _, tc := range []struct{ file, want string }{
		{"nats:\n  replicas: 0\n", "nats.replicas"},
		{"nats:\n  replicas: 7\n", "nats.replicas"},
		{"nats:\n  cluster:\n    routes: [a:1]\n", "nats.cluster.routes: need cluster.listen"},
		{"nats:\n  cluster:\n    listen: nowhere\n", "nats.cluster.listen"},
		{"nats:\n  cluster:\n    listen: a:1\n    routes: [b]\n", "nats.cluster.routes"},
		{"nats:\n  cluster:\n    replaces: [n1]\n", "nats.cluster.replaces: need cluster.listen"},
		{"nats:\n  cluster:\n    listen: a:1\n    replaces: [\" \"]\n", "nats.cluster.replaces: a server name is empty"},
		{"nats:\n  server_name: n4\n  cluster:\n    listen: a:1\n    replaces: [n1, n4]\n", "nats.cluster.replaces: \"n4\" is this node's own name"},
	} {
		cleanEnv(t)
		if _, err := Load(write(t, tc.file), nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v; want an error about %s", tc.file, err, tc.want)
		}
	}
}

// nats.replays_max_age is a week unless set, nats.results_max_age 30 days, and 0 (keep them
// forever) is a value of its own. A negative one is refused, and a results_max_age shorter than
// the day a job id is a duplicate (TestErrorsNameTheKey).
func TestMaxAges(t *testing.T) {
	for _, tc := range []struct {
		env  string
		key  func(Config) time.Duration
		want time.Duration
	}{
		{"JUDGE_NATS_REPLAYS_MAX_AGE=", func(c Config) time.Duration { return c.NATS.ReplaysMaxAge }, 7 * 24 * time.Hour},
		{"JUDGE_NATS_REPLAYS_MAX_AGE=0", func(c Config) time.Duration { return c.NATS.ReplaysMaxAge }, 0},
		{"JUDGE_NATS_REPLAYS_MAX_AGE=720h", func(c Config) time.Duration { return c.NATS.ReplaysMaxAge }, 720 * time.Hour},
		{"JUDGE_NATS_RESULTS_MAX_AGE=", func(c Config) time.Duration { return c.NATS.ResultsMaxAge }, 30 * 24 * time.Hour},
		{"JUDGE_NATS_RESULTS_MAX_AGE=0", func(c Config) time.Duration { return c.NATS.ResultsMaxAge }, 0},
		{"JUDGE_NATS_RESULTS_MAX_AGE=24h", func(c Config) time.Duration { return c.NATS.ResultsMaxAge }, 24 * time.Hour},
	} {
		cleanEnv(t)
		name, value, _ := strings.Cut(tc.env, "=")
		t.Setenv(name, value)
		c, err := Load(write(t, ""), nil)
		if err != nil || tc.key(c) != tc.want {
			t.Errorf("%s: %v, %v; want %v", tc.env, tc.key(c), err, tc.want)
		}
	}
}

// docs/configuration.md's table has a row for every key and no other, and each row's
// default is the default: loading the table's values as a file changes nothing.
func TestConfigKeysDocumented(t *testing.T) {
	cleanEnv(t)
	data, err := os.ReadFile("../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	// The table is on the page before its first section ("## Adding a key").
	table, _, _ := strings.Cut(string(data), "\n## ")
	row := regexp.MustCompile("(?m)^\\| `([a-z_.]+)`[^|]*\\| (.*?) \\|")
	documented := map[string]string{}
	for _, m := range row.FindAllStringSubmatch(table, -1) {
		documented[m[1]] = m[2]
	}
	file := map[string]any{}
	for _, key := range keys() {
		def, ok := documented[key]
		if !ok {
			t.Errorf("docs/configuration.md's table has no row for %s", key)
			continue
		}
		delete(documented, key)
		if key == "data_dir" { // depends on the environment; the row says how
			continue
		}
		var v any
		if err := yaml.Unmarshal([]byte(strings.Trim(def, "`")), &v); err != nil {
			t.Errorf("%s: default %s: %v", key, def, err)
			continue
		}
		m := file
		parts := strings.Split(key, ".")
		for _, p := range parts[:len(parts)-1] {
			if m[p] == nil {
				m[p] = map[string]any{}
			}
			m = m[p].(map[string]any)
		}
		m[parts[len(parts)-1]] = v
	}
	for key := range documented {
		t.Errorf("docs/configuration.md documents %s, which is not a key", key)
	}
	text, err := yaml.Marshal(file)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Load(write(t, string(text)), nil)
	if err != nil {
		t.Fatalf("docs/configuration.md's defaults do not load: %v\n%s", err, text)
	}
	c.DataDir = Defaults().DataDir
	for _, key := range keys() {
		if got, want := lookup(c, key), lookup(Defaults(), key); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: docs/configuration.md says %v, the default is %v", key, got, want)
		}
	}
}

// lookup is the value of key in c.
func lookup(c Config, key string) any {
	var v any
	eachKey("", reflect.TypeOf(c), func(k string, index []int) {
		if k == key {
			v = reflect.ValueOf(c).FieldByIndex(index).Interface()
		}
	})
	return v
}

// serve.http is turned off by "off", which the environment can say (an empty variable counts
// as unset: the default), and by an empty value in the file.
func TestServeHTTPOff(t *testing.T) {
	for _, tc := range []struct{ env, file, want string }{
		{"", "", "127.0.0.1:9464"},
		{"off", "", ""},
		{"", "serve:\n  http: \"\"\n", ""},
		{"", "serve:\n  http: \"off\"\n", ""},
		{"127.0.0.1:9999", "", "127.0.0.1:9999"},
	} {
		cleanEnv(t)
		t.Setenv("JUDGE_SERVE_HTTP", tc.env)
		c, err := Load(write(t, tc.file), nil)
		if err != nil || c.Serve.HTTP != tc.want {
			t.Errorf("JUDGE_SERVE_HTTP=%q, file %q: %q, %v; want %q", tc.env, tc.file, c.Serve.HTTP, err, tc.want)
		}
	}
}
