package portal

import (
	"crypto/subtle"
	"errors"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/botjudge/judge/judge/api"
	"github.com/botjudge/judge/judge/contest/store"
)

// sessionCookie holds a browser's session id.
const sessionCookie = "judge_session"

// caller is who sent a request: by token (scripts) or by session (a browser).
type caller struct {
	store.User
	// Session is set for a browser's request; its CSRF token must come with every change.
	Session *store.Session
	id      string // the session id
	// Token is the API token's record, for a script's request.
	Token *store.Token
}

// who serves the request's caller, or errUnauthorized.
func (s *Server) who(r *http.Request) (caller, error) {
	if h := r.Header.Get("Authorization"); h != "" {
		tok, ok := strings.CutPrefix(h, "Bearer ")
		if !ok {
			return caller{}, errUnauthorized
		}
		u, t, err := s.c.Store.TokenUser(r.Context(), strings.TrimSpace(tok))
		if errors.Is(err, store.ErrNotFound) {
			return caller{}, errUnauthorized
		}
		return caller{User: u, Token: &t}, err
	}
	c, err := r.Cookie(sessionCookie)
	if err != nil {
		return caller{}, errUnauthorized
	}
	sess, u, err := s.c.Store.SessionUser(r.Context(), c.Value)
	if errors.Is(err, store.ErrNotFound) {
		return caller{}, errUnauthorized
	}
	if err != nil {
		return caller{}, err
	}
	return caller{User: u, Session: &sess, id: c.Value}, nil
}

// checkCSRF refuses a change a browser's session makes without the session's token (in
// the form's csrf field or the X-CSRF-Token header). Cross-origin requests are refused
// before (http.CrossOriginProtection); the token also covers browsers that send no
// Sec-Fetch-Site or Origin.
//
// An upload (multipart) is read as a stream by its handler, which checks the form's csrf
// part itself (checkCSRFValue): reading the form here would take the whole body first.
func checkCSRF(r *http.Request, c caller) error {
	if c.Session == nil || r.Method == http.MethodGet || r.Method == http.MethodHead {
		return nil
	}
	tok := r.Header.Get("X-CSRF-Token")
	if tok == "" && strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/") {
		return nil
	}
	if tok == "" {
		tok = r.PostFormValue("csrf")
	}
	return checkCSRFValue(c, tok)
}

// checkCSRFValue refuses a browser's change whose token is not its session's.
func checkCSRFValue(c caller, tok string) error {
	if c.Session == nil {
		return nil
	}
	if subtle.ConstantTimeCompare([]byte(tok), []byte(c.Session.CSRF)) != 1 {
		return api.Errorf(api.CodeCSRF, "the form is stale or came from elsewhere; reload the page and try again")
	}
	return nil
}

// limiter bounds login attempts per client address and per login.
type limiter struct {
	perMinute int
	proxies   []netip.Prefix
	mu        sync.Mutex
	buckets   map[string]*rate.Limiter
	swept     time.Time
}

func newLimiter(perMinute int, proxies []netip.Prefix) *limiter {
	return &limiter{perMinute: perMinute, proxies: proxies, buckets: map[string]*rate.Limiter{}}
}

// allow takes one attempt for every key, and says how long to wait if any has none left.
func (l *limiter) allow(keys ...string) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	if now.Sub(l.swept) > 10*time.Minute { // full buckets are as good as new ones
		for k, b := range l.buckets {
			if b.TokensAt(now) >= float64(l.perMinute) {
				delete(l.buckets, k)
			}
		}
		l.swept = now
	}
	var wait time.Duration
	ok := true
	for _, k := range keys {
		b := l.buckets[k]
		if b == nil {
			b = rate.NewLimiter(rate.Every(time.Minute/time.Duration(l.perMinute)), l.perMinute)
			l.buckets[k] = b
		}
		res := b.ReserveN(now, 1)
		if d := res.DelayFrom(now); d > 0 {
			res.CancelAt(now)
			ok = false
			wait = max(wait, d)
		}
	}
	return ok, wait
}

// trusted reports whether addr is one of the configured proxies.
func (l *limiter) trusted(addr netip.Addr) bool {
	for _, p := range l.proxies {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}

// clientAddr serves the address the request came from: the peer's, or, from a trusted proxy,
// the last address in X-Forwarded-For that is not a trusted proxy.
func (l *limiter) clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	addr, err := netip.ParseAddr(host)
	if err != nil || !l.trusted(addr.Unmap()) {
		return host
	}
	hops := strings.Split(r.Header.Get("X-Forwarded-For"), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			break
		}
		if !l.trusted(a.Unmap()) {
			return a.String()
		}
	}
	return host
}

// secure reports whether the browser reached the portal over HTTPS: directly, or through a
// trusted proxy that says so.
func (l *limiter) secure(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	host, _, _ := net.SplitHostPort(r.RemoteAddr)
	addr, err := netip.ParseAddr(host)
	return err == nil && l.trusted(addr.Unmap()) && r.Header.Get("X-Forwarded-Proto") == "https"
}

// setSession gives the browser its session cookie (or, with id "", removes it).
func (s *Server) setSession(w http.ResponseWriter, r *http.Request, id string) {
	c := &http.Cookie{Name: sessionCookie, Value: id, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode,
		Secure: s.limiter.secure(r)}
	if id == "" {
		c.MaxAge = -1
	} else {
		c.MaxAge = int(store.SessionTTL.Seconds())
	}
	http.SetCookie(w, c)
}
