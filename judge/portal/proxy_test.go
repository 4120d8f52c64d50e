package portal_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"log/slog"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/portal"
	"github.com/botjudge/judge/judge/queue"
)

// sessionCookie is the Set-Cookie of a login with login's password, through client to base.
func sessionCookie(t *testing.T, client *http.Client, base, contest, login string, header http.Header) *http.Cookie {
	t.Helper()
	form := url.Values{"login": {login}, "password": {"password of " + login}}
	req, _ := http.NewRequest("POST", base+"/c/"+contest+"/login", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for k, v := range header {
		req.Header[k] = v
	}
	c := *client
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	for _, ck := range resp.Cookies() {
		if ck.Name == "judge_session" {
			return ck
		}
	}
	t.Fatalf("no session cookie (status %d)", resp.StatusCode)
	return nil
}

// Cookies are Secure under HTTPS: the portal's own (tls_cert, tls_key), or a trusted proxy's
// (X-Forwarded-Proto: https); not over plain HTTP, and not on the word of an untrusted peer.
func TestSecureCookies(t *testing.T) {
	t.Parallel()
	// Plain HTTP, and a peer that only says it is HTTPS.
	e := newEnv(t)
	e.contest("spring", nil)
	e.user("spring", "alice", false)
	if ck := sessionCookie(t, http.DefaultClient, e.srv.URL, "spring", "alice", nil); ck.Secure || !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode {
		t.Errorf("over HTTP: %+v; want HttpOnly, SameSite=Lax, not Secure", ck)
	}
	if ck := sessionCookie(t, http.DefaultClient, e.srv.URL, "spring", "alice", http.Header{"X-Forwarded-Proto": {"https"}}); ck.Secure {
		t.Error("an untrusted peer's X-Forwarded-Proto made the cookie Secure")
	}
	// Behind a trusted proxy.
	p := newEnv(t, func(o *portal.Options) { o.TrustedProxies = []string{"127.0.0.0/8"} })
	p.contest("spring", nil)
	p.user("spring", "alice", false)
	if ck := sessionCookie(t, http.DefaultClient, p.srv.URL, "spring", "alice", http.Header{"X-Forwarded-Proto": {"https"}}); !ck.Secure {
		t.Error("behind a trusted proxy that says HTTPS: the cookie is not Secure")
	}
	// HTTPS served by the portal itself.
	dir := t.TempDir()
	cert, key := selfSigned(t, dir)
	q, err := queue.Open(t.Context(), queue.Options{StoreDir: t.TempDir(), InProcess: true, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	st, srv := newPortal(t, q, slog.New(slog.DiscardHandler), func(o *portal.Options) {
		o.Listen, o.TLSCert, o.TLSKey = "127.0.0.1:0", cert, key
	})
	addrs := make(chan string, 1)
	go srv.Serve(t.Context(), func(a string) { addrs <- a })
	base := "https://" + <-addrs
	e2 := &env{t: t, q: q, st: st}
	e2.contest("secure", nil)
	nu, err := st.AddUser(t.Context(), "secure", "alice", false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.AcceptInvite(t.Context(), nu.Invite, "password of alice"); err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
	if ck := sessionCookie(t, client, base, "secure", "alice", nil); !ck.Secure {
		t.Error("over the portal's own HTTPS: the cookie is not Secure")
	}
}

// The login limit counts the client's address: behind a trusted proxy, the one it forwards;
// from anyone else, the peer's, whatever X-Forwarded-For says.
func TestForwardedForOnlyFromTrustedProxies(t *testing.T) {
	t.Parallel()
	attempts := func(base string, xff string, login string, n int) int {
		last := 0
		for i := range n {
			form := url.Values{"login": {login}, "password": {"guess " + string(rune('a'+i))}}
			req, _ := http.NewRequest("POST", base+"/c/spring/login", strings.NewReader(form.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("X-Forwarded-For", xff)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			last = resp.StatusCode
		}
		return last
	}
	// Untrusted: a new X-Forwarded-For (and a new login) does not escape the address's limit.
	e := newEnv(t)
	e.contest("spring", nil)
	if code := attempts(e.srv.URL, "10.0.0.1", "u1", 10); code != 401 {
		t.Fatalf("ten attempts: %d", code)
	}
	if code := attempts(e.srv.URL, "10.0.0.2", "u2", 1); code != 429 {
		t.Errorf("a spoofed X-Forwarded-For escaped the limit: %d, want 429", code)
	}
	// Trusted: each forwarded client has a limit of its own.
	p := newEnv(t, func(o *portal.Options) { o.TrustedProxies = []string{"127.0.0.1"} })
	p.contest("spring", nil)
	attempts(p.srv.URL, "10.0.0.1", "u1", 10)
	if code := attempts(p.srv.URL, "10.0.0.1", "u3", 1); code != 429 {
		t.Errorf("the same forwarded client again: %d, want 429", code)
	}
	if code := attempts(p.srv.URL, "10.0.0.2", "u2", 1); code != 401 {
		t.Errorf("another forwarded client: %d, want 401 (its own limit)", code)
	}
}

// selfSigned writes a certificate for 127.0.0.1 and its key to dir.
func selfSigned(t *testing.T, dir string) (cert, key string) {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	cert, key = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(key, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600)
	return cert, key
}
