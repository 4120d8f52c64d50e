package match

import (
	"context"
	"sync"
	"time"
)

// stopQuitting stops every quitting bot but player except (-1: all).
func stopQuitting(ctx context.Context, bots []*bot, except int) {
	for i, b := range bots {
		if b.quitting && i != except {
			b.quitting = false
			b.stop(ctx)
		}
	}
}

// stop kills a bot that is out of the game, keeping its figures.
func (b *bot) stop(ctx context.Context) {
	if b.proc != nil {
		b.peak = b.proc.PeakMemory()
		b.proc.Kill(ctx)
	}
}

// finish lets the bots that are still running see the end of their input and exit, waiting
// a second at most for each.
func (r *Referee[P]) finish(ctx context.Context, bots []*bot) {
	var wg sync.WaitGroup
	for _, b := range bots {
		if b.proc == nil || b.dead != nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.peak = b.proc.PeakMemory()
			b.proc.Thaw()
			b.proc.CloseStdin()
			ctx, cancel := context.WithTimeout(ctx, time.Second)
			defer cancel()
			b.proc.Ended(ctx)
		}()
	}
	wg.Wait()
}

func (b *bot) close() {
	if b.proc != nil {
		if p := b.proc.PeakMemory(); p > b.peak {
			b.peak = p
		}
		b.proc.Close()
	}
}
