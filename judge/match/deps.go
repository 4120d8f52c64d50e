package match

import (
	"context"
	"time"

	"github.com/botjudge/judge/judge/build"
	"github.com/botjudge/judge/judge/submission"
	"github.com/botjudge/judge/sandbox"
)

// What the referee uses of a sandbox and a builder, declared here so that tests can give
// fakes and the fault handling is tested without containers too.

// Sandbox starts bots of type P: *sandbox.Engine is a Sandbox[*sandbox.Process].
type Sandbox[P Bot] interface {
	// Start runs a bot; it runs unfrozen until its first Freeze or Exchange.
	Start(ctx context.Context, spec sandbox.RunSpec) (P, error)
	// ImageID is the ID of the image ref, for the replay's header.
	ImageID(ctx context.Context, ref string) (string, error)
}

// Builder builds submissions (through its cache).
type Builder interface {
	Build(ctx context.Context, s submission.Submission) (build.Result, error)
}

// gameNoter is a Builder that notes which game each build was played in (build.Builder does,
// for judge rebuild --known --smoke GAME).
type gameNoter interface {
	Played(s submission.Submission, game string)
}

// TurnIO is a bot's side of the line protocol.
type TurnIO interface {
	Exchange(request []byte, lines int, lim sandbox.TurnLimits) (sandbox.Turn, error)
	Send(data []byte, deadline time.Time) error
	CloseStdin() error
}

// Holder stops a bot between its turns.
type Holder interface {
	Freeze() error
	Thaw() error
}

// Lifecycle is a bot's end. Wait says how it ended; Ended only waits, for its last stderr too;
// Lost tells a bot's end from its container's.
type Lifecycle interface {
	Exited() bool
	Wait(ctx context.Context) (sandbox.Exit, error)
	Ended(ctx context.Context) bool
	Kill(ctx context.Context) error
	Close() error
	// Lost reports, of an ended bot, that its container ended with it: the engine's doing.
	Lost() bool
}

// Meter is what a bot has used. StartCPU is what of CPU its container used starting; Busy is
// a thread running or waiting for the disk, Waiting the bot blocked reading its input.
type Meter interface {
	CPU() time.Duration
	StartCPU() time.Duration
	PeakMemory() int64
	Busy() bool
	Waiting() bool
}

// StderrReader is a bot's stderr kept: all of it, or what came since the previous take.
type StderrReader interface {
	Stderr() []byte
	TakeStderr() []byte
}

// Bot is a running bot, as *sandbox.Process is. ImageID is its image's ID, "" when not known.
type Bot interface {
	TurnIO
	Holder
	Lifecycle
	Meter
	StderrReader
	ImageID() string
}

var _ Sandbox[*sandbox.Process] = (*sandbox.Engine)(nil)
