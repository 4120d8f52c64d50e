package match

import (
	"context"
	"time"

	"github.com/botjudge/judge/judge/build"
	"github.com/botjudge/judge/sandbox"
)

// The runner's view of what it uses, declared here where it is used: the Docker engine (Engine)
// and a *build.Builder serve real matches; tests give fakes, so that the runner's
// fault handling is tested without containers too.

// Sandbox starts bots.
type Sandbox interface {
	// Start runs a bot; it runs unfrozen until its first Freeze or Exchange.
	Start(ctx context.Context, spec sandbox.RunSpec) (Process, error)
	// ImageID is the ID of the image ref, for the replay's header.
	ImageID(ctx context.Context, ref string) (string, error)
}

// Process is a running bot, as *sandbox.Process is.
type Process interface {
	Exchange(request []byte, lines int, lim sandbox.TurnLimits) (sandbox.Turn, error)
	Send(data []byte, deadline time.Time) error
	CloseStdin() error
	Freeze() error
	Thaw() error
	// CPU is all the CPU the bot has used; StartCPU what of it its container used starting.
	CPU() time.Duration
	StartCPU() time.Duration
	// Busy reports a thread running, ready to run or waiting for the disk; Waiting that the
	// bot is blocked reading its input (false where that cannot be seen).
	Busy() bool
	Waiting() bool
	// Exited reports that the bot has ended; Wait waits for that and says how; Ended waits
	// for it and for its last stderr, quicker, without saying how.
	Exited() bool
	Wait(ctx context.Context) (sandbox.Exit, error)
	Ended(ctx context.Context) bool
	// ImageID is the ID of the image it runs in, "" when not known.
	ImageID() string
	PeakMemory() int64
	// Stderr is all of its stderr kept; TakeStderr what came since the previous take, with
	// a line where its limit cut the text.
	Stderr() []byte
	TakeStderr() []byte
	Kill() error
	Close() error
}

// Builder builds submissions (through its cache).
type Builder interface {
	Build(ctx context.Context, s build.Submission) (build.Result, error)
}

// Engine is the Docker engine as the runner's Sandbox; the rest of *sandbox.Engine stays at
// hand (a test asks it for the containers left behind).
type Engine struct{ *sandbox.Engine }

// Start runs a bot in its container.
func (e Engine) Start(ctx context.Context, spec sandbox.RunSpec) (Process, error) {
	p, err := e.Engine.Start(ctx, spec)
	if err != nil {
		return nil, err
	}
	return p, nil
}
