// Package portal is the contest's front door: contestants submit bots, read their builds,
// see them validated, ask for test matches and watch them; organisers see everything of
// their contest. It holds no state: all of it is in NATS (the store's key-value bucket, the
// object store, the jobs and results streams), so any number of portals serve one contest.
// It serves the web and API face of the contest engine (judge/contest), which it asks for what a
// request needs (an upload's build, a test match, a round) and which, wherever it runs,
// moves the contests on from the daemons' results.
//
// Pages are server-rendered (html/template) and work without JavaScript; every page action
// has a JSON API under /api/v1 (docs/portal.md).
package portal

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/botjudge/judge/judge/api"
	"github.com/botjudge/judge/judge/contest"
	"github.com/botjudge/judge/judge/contest/store"
	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/portal/upload"
	"github.com/botjudge/judge/judge/queue"
	"github.com/botjudge/judge/judge/view"
)

// Queue serves what the portal needs of the queue, a *queue.Queue: its contest engine's, and
// whether a replay is still there (an old test match's may be gone).
type Queue interface {
	contest.Queue
	HasObject(ctx context.Context, bucket, key string) (bool, error)
	// WatchLive streams a match under way's replay lines (queue.Queue.WatchLive).
	WatchLive(ctx context.Context, id string, buffered int) (<-chan queue.LiveLine, error)
}

// Config serves what a Server is made of.
type Config struct {
	Options
	Store *store.Store
	Queue Queue
	// Games finds a game (games.Lookup); Langs are the judge's languages (images.LangNames).
	Games func(string) (game.Game, bool)
	Langs []string
	// Starter is a game's sample bot in a language, for contestants to start from
	// (games.Starter); nil offers none.
	Starter func(g game.Game, lang string) (map[string][]byte, bool)
	// Upload bounds an upload (the build's source limit).
	Upload upload.Limits
	// Version is the judge's version, for reproduce commands.
	Version string
	Log     *slog.Logger
}

// Server serves the portal: its routes, sessions, rendering and errors, and what its pages
// share. The handlers live on small types of their own, one to a concern (accounts, apiV1,
// organising, roundPages, ...), each wrapping the Server, so that what a page does is read in
// its file and the Server holds only what every page needs; every rule is the contest
// engine's.
type Server struct {
	c       Config
	limiter *limiter
	handler http.Handler
	engine  *contest.Engine
	films   *view.Films // the matches' films, each made once while kept
	// stopping closes when the server shuts down: the live streams end then, rather than hold
	// the shutdown for as long as their matches last.
	stopping chan struct{}
	stopOnce sync.Once
}

// New makes a server. Its contest engine (Engine) acts on what requests ask at once; for
// submissions and matches to progress, an engine must run (Engine().Run) in this process or
// another one on the same NATS.
func New(c Config) (*Server, error) {
	if err := c.Options.Validate(); err != nil {
		return nil, err
	}
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	c.Store.TokenTTL = c.TokenTTL()
	proxies, _ := parseProxies(c.TrustedProxies)
	s := &Server{c: c, limiter: newLimiter(c.LoginRate, proxies), films: &view.Films{Lookup: c.Games}, stopping: make(chan struct{})}
	s.handler = s.routes()
	s.engine = contest.New(contest.Config{Store: c.Store, Queue: c.Queue, Games: c.Games, Langs: c.Langs, Log: c.Log, Starter: c.Starter})
	return s, nil
}

// Engine serves the contest engine the server asks for builds, matches and rounds.
func (s *Server) Engine() *contest.Engine { return s.engine }

// ServeHTTP serves a request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// Serve listens on the configured address until ctx is done (HTTPS when given a
// certificate), then shuts down, letting requests under way finish.
func (s *Server) Serve(ctx context.Context, ready func(addr string)) error {
	srv := &http.Server{Addr: s.c.Listen, Handler: s, ReadHeaderTimeout: 10 * time.Second,
		ErrorLog: slog.NewLogLogger(s.c.Log.Handler(), slog.LevelDebug)}
	srv.RegisterOnShutdown(func() { s.stopOnce.Do(func() { close(s.stopping) }) })
	ln, err := net.Listen("tcp", s.c.Listen)
	if err != nil {
		return err
	}
	go func() {
		if err := s.c.Store.Warm(ctx); err != nil && ctx.Err() == nil {
			s.c.Log.Warn("portal: loading the lists: the first page will try again", "err", err)
		}
	}()
	if ready != nil {
		ready(ln.Addr().String())
	}
	errc := make(chan error, 1)
	go func() {
		if s.c.TLSCert != "" {
			errc <- srv.ServeTLS(ln, s.c.TLSCert, s.c.TLSKey)
		} else {
			errc <- srv.Serve(ln)
		}
	}()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	return srv.Shutdown(sctx)
}

var (
	errNotFound     = api.Errorf(api.CodeNotFound, "no such thing here")
	errUnauthorized = api.Errorf(api.CodeUnauthorized, "log in, or send Authorization: Bearer TOKEN")
)

// asAPIError gives every error its status: its own (an api.Error), the store's by kind; anything
// else serves the portal's own fault (500), logged and not shown in detail.
func (s *Server) asAPIError(err error) *api.Error {
	var ae *api.Error
	var qe *store.ErrQuota
	switch {
	case errors.As(err, &ae):
		return ae
	case errors.As(err, &qe):
		return &api.Error{Status: api.CodeQuota.Status(), Code: api.CodeQuota, Message: qe.Error(), Retry: qe.Retry}
	case errors.Is(err, store.ErrNotFound):
		return errNotFound
	case errors.Is(err, store.ErrClosed):
		return api.Errorf(api.CodeClosed, "%s", err)
	case errors.Is(err, store.ErrExists):
		return api.Errorf(api.CodeExists, "%v", err)
	case errors.Is(err, contest.ErrTooFew):
		return api.Errorf(api.CodeTooFew, "%s", trimSentinel(err, contest.ErrTooFew))
	case errors.Is(err, contest.ErrNotClosed):
		return api.Errorf(api.CodeNotClosed, "%s", trimSentinel(err, contest.ErrNotClosed))
	case errors.Is(err, store.ErrConflict):
		return api.Errorf(api.CodeConflict, "%s", trimSentinel(err, store.ErrConflict))
	case errors.Is(err, store.ErrInvalid):
		return api.Errorf(api.CodeBadRequest, "%s", trimSentinel(err, store.ErrInvalid))
	case errors.Is(err, store.ErrBadLogin):
		return api.Errorf(api.CodeBadLogin, "wrong login or password")
	}
	s.c.Log.Error("portal: internal error", "err", err)
	return api.Errorf(api.CodeInternal, "the portal failed; try again")
}

// trimSentinel drops "sentinel: " from err's text.
func trimSentinel(err, sentinel error) string {
	return strings.TrimPrefix(err.Error(), sentinel.Error()+": ")
}

// retryAfter is d as a Retry-After header: whole seconds, rounded up.
func retryAfter(d time.Duration) string {
	return strconv.Itoa(int((d + time.Second - 1) / time.Second))
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}

func (s *Server) writeError(w http.ResponseWriter, err error) {
	e := s.asAPIError(err)
	if e.Retry > 0 {
		w.Header().Set("Retry-After", retryAfter(e.Retry))
	}
	writeJSON(w, e.Status, api.Failure{Error: e})
}
