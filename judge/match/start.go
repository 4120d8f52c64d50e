package match

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/setting"
	"github.com/botjudge/judge/sandbox"
)

// startupIdle is how long a starting bot must use (almost) no CPU to count as ready, where the
// judge cannot see it waiting for input; the first startupQuickLooks looks at it are
// startupFirstLook apart, the next ones twice as far each time, up to startupLook; startupMax
// bounds the wait. Bots start unfrozen, all at once, so that a match does not wait for each
// runtime's start (a JVM's) in turn; the CPU they use meanwhile is charged to their first
// request, less the language runtime's measured allowance (images.Lang.Startup).
const (
	startupIdle       = 60 * time.Millisecond
	startupFirstLook  = 100 * time.Microsecond
	startupQuickLooks = 20
	startupLook       = 10 * time.Millisecond
	startupMax        = 10 * time.Second
)

// start runs every bot that built, waits until each has finished starting up (or
// startupMax), then freezes them all.
func (r *Referee[P]) start(ctx context.Context, setup game.Setup, bots []*bot) error {
	dir, err := os.MkdirTemp(r.WorkDir, "match-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir) // the files are bind-mounted by path: the containers hold them
	// Every input file is written before any bot starts: a failure here must not return while
	// a bot is starting, whose container nobody would then remove.
	specs := make([]*sandbox.RunSpec, len(bots))
	for i, b := range bots {
		if b.dead != nil || b.recording != nil {
			continue
		}
		var files map[string]string
		if i < len(setup.Files) {
			if files, err = writeFiles(filepath.Join(dir, fmt.Sprint(i)), setup.Files[i]); err != nil {
				return err
			}
		}
		limits := r.Limits
		if setup.Memory > 0 {
			limits.Memory = setting.Bytes(setup.Memory)
		}
		b.memory = int64(cmp.Or(limits.Memory, sandbox.DefaultLimits().Memory))
		specs[i] = &sandbox.RunSpec{Image: b.build.RunImage, Cmd: b.build.Run, Artifact: b.build.Artifact,
			Files: files, Limits: limits, Freeze: r.Freeze, Output: r.Output, Reuse: b.name}
	}
	var wg sync.WaitGroup
	errs := make([]error, len(bots))
	for i, b := range bots {
		spec := specs[i]
		if spec == nil {
			continue
		}
		lang, _ := images.LangByName(b.lang)
		allowance := lang.Startup(spec.Limits.Runtime)
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := r.Sandbox.Start(ctx, *spec)
			if err != nil {
				errs[i] = err
				return
			}
			b.proc = p
			waitIdle(ctx, p)
			p.Freeze()
			// Start-up is the bot's time like any other: what it used beyond its runtime's
			// own start is charged to its first request.
			b.startup = p.CPU() - p.StartCPU()
			b.unpaid = max(0, b.startup-allowance)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// writeFiles writes a bot's input files under dir and maps their names to their paths.
func writeFiles(dir string, files map[string][]byte) (map[string]string, error) {
	paths := map[string]string{}
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, data, 0o444); err != nil {
			return nil, err
		}
		paths[name] = p
	}
	return paths, nil
}

// waitIdle returns once the bot is waiting for input: blocked reading it at two looks in a row
// with no CPU used between, where that can be seen (Process.Waiting), else once it has used
// (almost) no CPU for startupIdle and is not ready to run. A bot that got little CPU while
// ready to run was starved by a loaded machine: it is still starting up, and its start-up is
// still its own. The looks come quickly at first: a compiled bot is ready at once.
func waitIdle(ctx context.Context, p Meter) {
	deadline := time.Now().Add(startupMax)
	last, lastAt := p.CPU(), time.Now()
	prev, waiting := last, false
	look := startupFirstLook
	for n := 1; time.Now().Before(deadline) && ctx.Err() == nil; n++ {
		if look < time.Millisecond {
			// Go's sleeps are rounded up to its poller's timeout, in whole milliseconds:
			// longer than a compiled bot takes to start (BENCHMARKS.md). A quick look waits
			// in the kernel, on its own thread.
			nap(look)
		} else {
			time.Sleep(look)
		}
		if n >= startupQuickLooks {
			look = min(2*look, startupLook)
		}
		now := p.CPU()
		was := waiting
		if waiting = p.Waiting(); waiting && was && now == prev {
			return
		}
		prev = now
		if time.Since(lastAt) < startupIdle {
			continue
		}
		// Idle is under a tenth of a core: gVisor's kernel uses a few percent of one while
		// its bot waits for its first input.
		if now-last < startupIdle/10 && !p.Busy() {
			return
		}
		last, lastAt = now, time.Now()
	}
}
