package contest

import (
	"context"
	"time"

	"github.com/botjudge/judge/judge/contest/store"
)

// A person's own account: the invite accepted, the password, the API tokens and the browser
// sessions. Each acts on the actor's own records only (its contest and login), so that no
// request reaches another person's.

// AcceptInvite sets the password of the person an invite code names, once.
func (e *Engine) AcceptInvite(ctx context.Context, code, password string) (store.User, error) {
	return e.c.Store.AcceptInvite(ctx, code, password)
}

// SetPassword changes the actor's password (old must be the present one): every session
// and token made before it ends.
func (e *Engine) SetPassword(ctx context.Context, a Actor, old, password string) (store.User, error) {
	return e.c.Store.SetPassword(ctx, a.Contest, a.Login, old, password)
}

// NewToken makes an API token of the actor's, named name, for ttl: the token, once, and its
// record.
func (e *Engine) NewToken(ctx context.Context, a Actor, name string, ttl time.Duration) (string, store.Token, error) {
	return e.c.Store.NewToken(ctx, a.Contest, a.Login, name, ttl)
}

// RevokeToken ends one of the actor's API tokens.
func (e *Engine) RevokeToken(ctx context.Context, a Actor, id string) error {
	return e.c.Store.RevokeToken(ctx, a.Contest, a.Login, id)
}

// NewSession opens a browser session of u, signed in: its id and record.
func (e *Engine) NewSession(ctx context.Context, u store.User) (string, store.Session, error) {
	return e.c.Store.NewSession(ctx, u)
}

// EndSession ends the browser session id (signing out).
func (e *Engine) EndSession(ctx context.Context, id string) error {
	return e.c.Store.EndSession(ctx, id)
}
