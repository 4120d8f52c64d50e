package build_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/submission"
	"github.com/botjudge/judge/sandbox/sandboxtest"
)

// BenchmarkCompile is a full compilation of the hello bot per language (an empty cache each
// time), and BenchmarkCompile/cache-hit a build that the cache answers.
func BenchmarkCompile(b *testing.B) {
	e := sandboxtest.Engine(b)
	for _, lang := range images.LangNames() {
		sub, err := submission.Load(filepath.Join(sandboxtest.Root(), "bots/hello", lang), 1<<20)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(lang, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				bl := sandboxtest.Builder(b, e)
				bl.Dir = b.TempDir()
				res, err := bl.Build(context.Background(), sub)
				if err != nil || !res.OK || res.Cached {
					b.Fatalf("ok=%v cached=%v err=%v", res.OK, res.Cached, err)
				}
			}
		})
	}
	// Baseline: the host's own g++ on the same source with the same flags, when it has one.
	b.Run("host-g++", func(b *testing.B) {
		gxx, err := exec.LookPath("g++")
		if err != nil {
			b.Skip("no g++ on the host")
		}
		src := filepath.Join(sandboxtest.Root(), "bots/hello/cpp/hello.cpp")
		for i := 0; i < b.N; i++ {
			out := filepath.Join(b.TempDir(), "bot")
			if msg, err := exec.Command(gxx, "-O2", "-std=c++17", "-static", "-pipe", "-s", "-o", out, src).CombinedOutput(); err != nil {
				b.Fatalf("%v\n%s", err, msg)
			}
		}
	})
	b.Run("cache-hit", func(b *testing.B) {
		bl := sandboxtest.Builder(b, e)
		sub, _ := submission.Load(filepath.Join(sandboxtest.Root(), "bots/hello/cpp"), 1<<20)
		bl.Build(context.Background(), sub)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			res, err := bl.Build(context.Background(), sub)
			if err != nil || !res.Cached {
				b.Fatalf("cached=%v err=%v", res.Cached, err)
			}
		}
	})
}
