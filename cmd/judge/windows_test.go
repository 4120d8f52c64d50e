package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/botjudge/judge/cmd/judge/internal/cli"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// judgeCLI runs judge with args as a contestant would, stdin given; what it printed on stdout, and
// an error that exitCode reads as the exit status it ended with.
type judgeCLI func(t *testing.T, stdin string, args ...string) (string, error)

// wine is the Windows build of the judge (judge.exe, make release's windows/amd64) and a Wine
// to run it in: built once per test binary.
var wine struct {
	once             sync.Once
	exe, bin, prefix string
	err              error
}

// windowsJudge is judge.exe run under Wine in a prefix of its own, its kept login (in
// %APPDATA%, which Wine sets) removed first. Without Wine or MinGW (make wine) it skips, or
// fails under JUDGE_REQUIRE_WINE.
func windowsJudge(t *testing.T) (run judgeCLI, appData string) {
	t.Helper()
	wine.once.Do(func() { wine.err = buildForWine() })
	if wine.err != nil {
		if os.Getenv("JUDGE_REQUIRE_WINE") != "" {
			t.Fatalf("the Windows build under Wine: %v", wine.err)
		}
		t.Skipf("the Windows build under Wine: %v (make wine)", wine.err)
	}
	users, _ := filepath.Glob(filepath.Join(wine.prefix, "drive_c", "users", "*", "AppData", "Roaming"))
	if len(users) != 1 {
		t.Fatalf("Wine's %%APPDATA%% in %s: %v", wine.prefix, users)
	}
	appData = users[0]
	os.RemoveAll(filepath.Join(appData, "judge"))
	return func(t *testing.T, stdin string, args ...string) (string, error) {
		t.Helper()
		c := exec.Command(wine.bin, append([]string{wine.exe}, args...)...)
		c.Env = append(os.Environ(), "WINEPREFIX="+wine.prefix, "WINEDEBUG=-all")
		var out, errOut bytes.Buffer
		c.Stdin, c.Stdout, c.Stderr = strings.NewReader(stdin), &out, &errOut
		err := c.Run()
		t.Logf("judge.exe %s: %v\n%s%s", strings.Join(args, " "), err, errOut.String(), out.String())
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			msg := errors.New(strings.TrimSpace(errOut.String()))
			if ee.ExitCode() == 2 {
				return out.String(), cli.Usage(msg)
			}
			return out.String(), msg
		}
		return out.String(), err
	}, appData
}

// buildForWine builds judge.exe and a Wine prefix that runs it: Wine 8 has no
// bcryptprimitives.dll, which Go's runtime asks for its random numbers, so the prefix gets one
// built from tools/wine.
func buildForWine() error {
	bin, err := exec.LookPath("wine64")
	if err != nil {
		bin = "/usr/lib/wine/wine64" // Debian's wine64 package puts it here, off the PATH
		if _, err := os.Stat(bin); err != nil {
			return errors.New("no wine64")
		}
	}
	if _, err := exec.LookPath("x86_64-w64-mingw32-gcc"); err != nil {
		return errors.New("no x86_64-w64-mingw32-gcc")
	}
	dir := filepath.Join(sandboxtest.DataDir(), "wine")
	wine.bin, wine.exe, wine.prefix = bin, filepath.Join(dir, "judge.exe"), filepath.Join(dir, "prefix")
	build := exec.Command("go", "build", "-o", wine.exe, filepath.Join(sandboxtest.Root(), "cmd", "judge"))
	build.Env = append(os.Environ(), "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		return errors.New("building judge.exe: " + err.Error() + "\n" + string(out))
	}
	env := append(os.Environ(), "WINEPREFIX="+wine.prefix, "WINEDEBUG=-all")
	boot := exec.Command(bin, "wineboot", "--init")
	boot.Env = env
	if out, err := boot.CombinedOutput(); err != nil {
		return errors.New("wineboot: " + err.Error() + "\n" + string(out))
	}
	dll := filepath.Join(wine.prefix, "drive_c", "windows", "system32", "bcryptprimitives.dll")
	cc := exec.Command("x86_64-w64-mingw32-gcc", "-shared", "-o", dll, filepath.Join(sandboxtest.Root(), "tools", "wine", "bcryptprimitives.c"), "-ladvapi32")
	if out, err := cc.CombinedOutput(); err != nil {
		return errors.New("building bcryptprimitives.dll: " + err.Error() + "\n" + string(out))
	}
	return nil
}
