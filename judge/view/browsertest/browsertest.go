// Package browsertest drives a real headless Chromium (Debian's chromium package) for the
// tests of the viewer and the portal: it records every request a page makes and every error
// it logs, counts dialogs, and checks that planted markup stayed text. Without Chromium a
// test fails when JUDGE_REQUIRE_BROWSER is set (make test, CI), else it is skipped; under
// -short it is skipped.
package browsertest

import (
	"context"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// Browser is one Chromium with one tab.
type Browser struct {
	Ctx context.Context

	mu       sync.Mutex
	requests []string
	errors   []string
}

// New starts Chromium for t (stopped at its end).
func New(t testing.TB) *Browser {
	t.Helper()
	if testing.Short() {
		t.Skip("starts Chromium; skipped under -short")
	}
	path := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		if os.Getenv("JUDGE_REQUIRE_BROWSER") != "" {
			t.Fatal("Chromium is not installed (apt-get install chromium): the tests need a real browser")
		}
		t.Skip("Chromium is not installed; set JUDGE_REQUIRE_BROWSER=1 to make this a failure")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.WindowSize(1400, 1000))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx)
	t.Cleanup(cancel2)
	b := &Browser{Ctx: ctx}
	// The first Run starts the browser; it must not have a timeout (it would stop the browser).
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	requests := chromedp.Events(ctx, network.RequestWillBeSent)
	console := chromedp.Console(ctx)
	go func() {
		for e, err := range requests {
			if err != nil {
				return
			}
			b.mu.Lock()
			b.requests = append(b.requests, e.Request.URL)
			b.mu.Unlock()
		}
	}()
	go func() {
		for m, err := range console {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleException {
				b.mu.Lock()
				b.errors = append(b.errors, m.Text)
				b.mu.Unlock()
			}
		}
	}()
	return b
}

// Do runs steps, each bounded in time.
func (b *Browser) Do(t testing.TB, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.Ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("browser: %v", err)
	}
}

// Get runs one action that yields a value.
func Get[T any](t testing.TB, b *Browser, a chromedp.Action[T]) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.Ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatalf("browser: %v", err)
	}
	return v
}

// DropErrors forgets the page errors recorded so far that drop matches.
func (b *Browser) DropErrors(drop func(string) bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.errors = slices.DeleteFunc(b.errors, drop)
}

// CheckLocal fails the test for any request that left the machine (anything but 127.0.0.1,
// a file, or data the page made itself) and for any error the page logged.
func (b *Browser) CheckLocal(t *testing.T) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.requests) == 0 {
		t.Error("no request was recorded: the recorder does not work")
	}
	for _, r := range b.requests {
		u, err := url.Parse(r)
		if err != nil {
			t.Errorf("request to %q", r)
			continue
		}
		switch {
		case u.Scheme == "file" || u.Scheme == "data" || u.Scheme == "blob" || u.Scheme == "about":
		case (u.Scheme == "http" || u.Scheme == "https") && u.Hostname() == "127.0.0.1":
		default:
			t.Errorf("the page made a request outside 127.0.0.1: %s", r)
		}
	}
	for _, e := range b.errors {
		t.Errorf("the page logged an error: %s", e)
	}
}

// WatchDialogs counts the dialogs the page opens (and closes them, so that the page goes on).
func (b *Browser) WatchDialogs(t *testing.T) func() int {
	t.Helper()
	var mu sync.Mutex
	opened := 0
	events := chromedp.Events(b.Ctx, page.JavascriptDialogOpening)
	go func() {
		for _, err := range events {
			if err != nil {
				return
			}
			mu.Lock()
			opened++
			mu.Unlock()
			chromedp.Call(b.Ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
		}
	}()
	return func() int {
		mu.Lock()
		defer mu.Unlock()
		return opened
	}
}

// CheckInert fails the test if anything planted ran: the canary window.__pwned is set, an
// element carries an event handler attribute, or the page has a frame or image, or other
// than scripts scripts. want are strings the page must show as text.
func CheckInert(t *testing.T, b *Browser, scripts int, want ...string) {
	t.Helper()
	if v := Get(t, b, chromedp.Evaluate[string](`String(window.__pwned)`)); v != "undefined" {
		t.Errorf("a planted script ran: window.__pwned = %s", v)
	}
	if n := Get(t, b, chromedp.Evaluate[int](`[...document.querySelectorAll("*")].filter((e) => [...e.attributes].some((a) => a.name.startsWith("on"))).length`)); n > 0 {
		t.Errorf("%d elements carry an event handler attribute", n)
	}
	if n := Get(t, b, chromedp.Evaluate[int](`document.querySelectorAll("iframe, img, object, embed").length`)); n > 0 {
		t.Errorf("the page has %d frames or images, which it never makes", n)
	}
	if n := Get(t, b, chromedp.Evaluate[int](`document.querySelectorAll("script").length`)); n != scripts {
		t.Errorf("the page has %d scripts, want %d", n, scripts)
	}
	text := Get(t, b, chromedp.Evaluate[string](`document.title + "\n" + document.body.innerText + "\n" + [...document.querySelectorAll("[title]")].map((e) => e.title).join("\n")`))
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("the page does not show %q as text", w)
		}
	}
}

// Shots is where screenshots go: JUDGE_SCREENSHOTS (those of docs/viewer.md and docs/portal.md
// are made with JUDGE_SCREENSHOTS=$PWD/docs/screenshots from the root: a relative path is the
// package's), else the test's temporary directory.
func Shots(t *testing.T) string {
	if d := os.Getenv("JUDGE_SCREENSHOTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

// Screenshot saves the whole page as Shots()/name (a PNG).
func (b *Browser) Screenshot(t *testing.T, name string) {
	t.Helper()
	png := Get(t, b, chromedp.FullScreenshot(100))
	if err := os.WriteFile(filepath.Join(Shots(t), name), png, 0o644); err != nil {
		t.Fatal(err)
	}
}
