package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

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

// The configuration's defaults are the components' own, and map back to them unchanged.
func TestDefaultsAreTheComponents(t *testing.T) {
	d := Defaults()
	if got := d.Sandbox.Limits(); got != sandbox.DefaultLimits() {
		t.Errorf("bot limits %+v, want sandbox's %+v", got, sandbox.DefaultLimits())
	}
	if got := d.Sandbox.Output(); got != sandbox.DefaultOutput() {
		t.Errorf("output %+v, want sandbox's %+v", got, sandbox.DefaultOutput())
	}
	if got := int64(d.Sandbox.StderrMatchLimit); got != match.DefaultStderrMatch {
		t.Errorf("stderr per match %d, want match's %d", got, match.DefaultStderrMatch)
	}
	want := build.DefaultLimits()
	want.Runtime = "runc"
	if got := d.Build.Limits("runc"); got != want {
		t.Errorf("compile limits %+v, want build's %+v", got, want)
	}
	s := d.Sandbox
	s.Seccomp = false
	if s.Limits().Seccomp != sandbox.SeccompDocker {
		t.Error("seccomp: false does not give Docker's profile")
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
	for _, key := range keys("", reflect.TypeOf(Config{})) {
		leaf := key[strings.LastIndex(key, ".")+1:]
		if !strings.Contains(string(data), leaf+":") {
			t.Errorf("judge.example.yaml does not document %s", key)
		}
	}
}

func keys(prefix string, t reflect.Type) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		k := prefix + t.Field(i).Tag.Get("mapstructure")
		if f := t.Field(i).Type; f.Kind() == reflect.Struct {
			out = append(out, keys(k+".", f)...)
		} else {
			out = append(out, k)
		}
	}
	return out
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

func TestErrorsNameTheKey(t *testing.T) {
	for _, tc := range []struct{ yaml, env, key string }{
		{yaml: "build:\n  timeout: soon\n", key: "build.timeout"},
		{yaml: "build:\n  memory: lots\n", key: "build.memory"},
		{yaml: "sandbox:\n  cpus: 0\n", key: "sandbox.cpus"},
		{yaml: "log:\n  format: xml\n", key: "log.format"},
		{yaml: "buidl:\n  timeout: 1s\n", key: "buidl"},
		{yaml: "sandbox:\n  memroy: 1g\n", key: "memroy"},
		{env: "-5s", key: "build.timeout"},
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
	if err != nil || c.Log.Level != "debug" {
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
	if c.DataDir != filepath.Join(wd, "judge-data/here") || c.NATS.Store != filepath.Join(wd, "nats-store") {
		t.Errorf("data_dir %q, nats.store %q; want them under %s", c.DataDir, c.NATS.Store, wd)
	}
}

// The cluster keys: routes from the environment as a comma-separated list, and the checks.
func TestNATSCluster(t *testing.T) {
	cleanEnv(t)
	t.Setenv("JUDGE_NATS_REPLICAS", "3")
	t.Setenv("JUDGE_NATS_CLUSTER_LISTEN", "10.0.0.1:6222")
	t.Setenv("JUDGE_NATS_CLUSTER_ROUTES", "10.0.0.1:6222,10.0.0.2:6222,nats-route://10.0.0.3:6222")
	c, err := Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := c.NATS; n.Replicas != 3 || n.Cluster.Listen != "10.0.0.1:6222" || !reflect.DeepEqual(n.Cluster.Routes, []string{"10.0.0.1:6222", "10.0.0.2:6222", "nats-route://10.0.0.3:6222"}) {
		t.Errorf("%+v", n)
	}
	for _, tc := range []struct{ file, want string }{
		{"nats:\n  replicas: 0\n", "nats.replicas"},
		{"nats:\n  replicas: 7\n", "nats.replicas"},
		{"nats:\n  cluster:\n    routes: [a:1]\n", "need nats.cluster.listen"},
		{"nats:\n  cluster:\n    listen: nowhere\n", "nats.cluster.listen"},
		{"nats:\n  cluster:\n    listen: a:1\n    routes: [b]\n", "nats.cluster.routes"},
	} {
		cleanEnv(t)
		if _, err := Load(write(t, tc.file), nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v; want an error about %s", tc.file, err, tc.want)
		}
	}
}
