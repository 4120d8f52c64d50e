package portal

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"errors"
	"html/template"
	"io/fs"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/botjudge/judge/judge/api"
	"github.com/botjudge/judge/judge/contest/store"
)

//go:embed web
var web embed.FS

var pages = template.Must(template.New("").Funcs(template.FuncMap{"rows": rows, "percent": percent, "mul100": func(c float64) float64 { return 100 * c }, "mod": func(a, b int) int { return a % b }, "deref": func(s *string) string { return *s },
	"deref64": func(f *float64) float64 { return *f },
	"statsRows": func(id, head string, change bool, rows []api.StatsRow) statsTable {
		return statsTable{id, head, change, rows}
	}}).ParseFS(web, "web/*.html"))

// percent is a confidence in whole percent, rounded down (99.96% is not "100%"); "-" for none.
func percent(c *float64) string {
	if c == nil {
		return "-"
	}
	return strconv.Itoa(int(math.Floor(100**c))) + "%"
}

// rows hands a list's table (match-rows, version-rows) its items, its data-testid and
// whether it is everyone's (with whose each item is).
func rows(id string, all bool, items any) map[string]any {
	return map[string]any{"ID": id, "All": all, "Matches": items, "Subs": items}
}

// pageCSP serves the portal pages' policy: nothing but the portal's own stylesheet; no script
// at all (the pages need none), no frames, forms only to the portal.
const pageCSP = "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

// pageData serves what every page's layout reads.
type pageData struct {
	Title   string
	Contest string
	Me      store.User
	CSRF    string
	// Flash is the note the handler of the browser's last form left (flash): never text
	// from the URL, which anyone could have written.
	Flash   string
	Message string
	// Back is the page of the form whose post failed, for the error page to link to.
	Back string
	// flashed is set when the request brought a flash cookie, which the page then clears.
	flashed bool
}

func (d pageData) layout() pageData { return d }

// render writes page name with data (which embeds pageData).
func (s *Server) render(w http.ResponseWriter, status int, name string, data any) {
	var buf bytes.Buffer
	if err := pages.ExecuteTemplate(&buf, name, data); err != nil {
		s.c.Log.Error("portal: rendering a page", "page", name, "err", err)
		http.Error(w, "the portal failed to render the page", http.StatusInternalServerError)
		return
	}
	if d, ok := data.(interface{ layout() pageData }); ok && d.layout().flashed {
		http.SetCookie(w, &http.Cookie{Name: flashCookie, Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteLaxMode})
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", pageCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// page wraps a page handler: without a session it sends the browser to the contest's login
// page; a change without the session's CSRF token is refused; an error is a page saying
// what went wrong, with its status.
func (s *Server) page(h func(w http.ResponseWriter, r *http.Request, c caller) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := s.who(r)
		if errors.Is(err, errUnauthorized) || (err == nil && c.Session == nil) {
			contest := r.PathValue("contest")
			if store.ValidName("contest", contest) != nil {
				s.errorPage(w, r, caller{}, errNotFound)
				return
			}
			login := "/c/" + contest + "/login"
			if r.Method == http.MethodGet {
				login += "?next=" + url.QueryEscape(r.URL.RequestURI())
			}
			http.Redirect(w, r, login, http.StatusSeeOther)
			return
		}
		if err == nil {
			err = checkCSRF(r, c)
		}
		if err == nil {
			err = h(w, r, c)
		}
		if err != nil {
			s.failedPage(w, r, c, err)
		}
	})
}

// failedPage answers a page's error. A form's is shown on the page of the form, where that
// page can show it (the contestant's home, the organiser's page); any other with a link back
// to the form's page: never a dead end.
func (s *Server) failedPage(w http.ResponseWriter, r *http.Request, c caller, err error) {
	back := ""
	if r.Method == http.MethodPost && c.Session != nil && r.PathValue("contest") == c.Contest {
		back = formPage(r.URL.Path, c.Contest)
	}
	e := s.asAPIError(err)
	var again error
	switch back {
	case "":
		s.errorPage(w, r, c, err)
		return
	case "/c/" + c.Contest + "/":
		again = s.renderHome(w, r, c, e)
	case "/c/" + c.Contest + "/admin":
		again = s.renderAdmin(w, r, c, e)
	default:
		again = errors.New("no form page to show")
	}
	if again != nil {
		if e.Retry > 0 {
			w.Header().Set("Retry-After", retryAfter(e.Retry))
		}
		d := s.base(r, c, http.StatusText(e.Status), e.Message)
		d.Back = back
		s.render(w, e.Status, "error.html", d)
	}
}

// formPage serves the page whose form posts to path, "" for none known.
func formPage(path, contest string) string {
	home := "/c/" + contest + "/"
	p, ok := strings.CutPrefix(path, home)
	if !ok {
		return ""
	}
	switch first, _, _ := strings.Cut(p, "/"); first {
	case "submit", "matches":
		return home
	case "admin", "account", "rounds":
		return home + first
	case "s":
		if id, _, ok := strings.Cut(strings.TrimPrefix(p, "s/"), "/"); ok {
			return home + "s/" + id
		}
	}
	return ""
}

func (s *Server) errorPage(w http.ResponseWriter, r *http.Request, c caller, err error) {
	e := s.asAPIError(err)
	if e.Retry > 0 {
		w.Header().Set("Retry-After", retryAfter(e.Retry))
	}
	d := s.base(r, c, http.StatusText(e.Status), e.Message)
	if c.Login == "" {
		d.Contest = "" // the path's contest may not exist, or not be the visitor's: no link there
	}
	s.render(w, e.Status, "error.html", d)
}

func (s *Server) base(r *http.Request, c caller, title, msg string) pageData {
	d := pageData{Title: title, Contest: r.PathValue("contest"), Me: c.User, Message: msg}
	if fc, err := r.Cookie(flashCookie); err == nil {
		d.flashed = true
		if c.Session != nil {
			d.Flash = readFlash(fc.Value, c.Session.CSRF)
		}
	}
	if c.Session != nil {
		d.CSRF = c.Session.CSRF
	}
	if c.Login != "" {
		// The caller's own contest, whatever the path names: the page of a contest one is not
		// in (an error) must not link there, nor mix its links with one's own.
		d.Contest = c.Contest
	}
	return d
}

// flashCookie carries a form's note to the page the browser is sent to next.
const flashCookie = "judge_flash"

// back sends the browser to path (Post/Redirect/Get: a reload does not post again), with a
// note for the next page. The note travels in a cookie signed with the session's CSRF token
// (csrf), which only the portal and that session know: a link cannot put words in the
// portal's mouth, nor can a cookie planted from a neighbouring site.
func (s *Server) back(w http.ResponseWriter, r *http.Request, csrf, path, note string) {
	if note != "" && csrf != "" {
		http.SetCookie(w, &http.Cookie{Name: flashCookie, Value: signFlash(note, csrf), Path: "/", MaxAge: 60,
			HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.limiter.secure(r)})
	}
	http.Redirect(w, r, path, http.StatusSeeOther)
}

func flashMAC(note, key string) []byte {
	m := hmac.New(sha256.New, []byte(key))
	m.Write([]byte("flash\x00" + note))
	return m.Sum(nil)
}

func signFlash(note, key string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(note)) + "." + base64.RawURLEncoding.EncodeToString(flashMAC(note, key))
}

// readFlash serves the note of a flash cookie signed with key, or "".
func readFlash(v, key string) string {
	n, m, ok := strings.Cut(v, ".")
	note, err1 := base64.RawURLEncoding.DecodeString(n)
	mac, err2 := base64.RawURLEncoding.DecodeString(m)
	if !ok || err1 != nil || err2 != nil || !hmac.Equal(mac, flashMAC(string(note), key)) {
		return ""
	}
	return string(note)
}

func (s *Server) static() http.Handler {
	sub, _ := fs.Sub(web, "web")
	fsrv := http.FileServerFS(sub)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, ".css") {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Cache-Control", "max-age=3600")
		fsrv.ServeHTTP(w, r)
	})
}

// statsTable is a table of the statistics page: its test id, its first column's head, whether it
// shows each row's change, its rows.
type statsTable struct {
	ID, Head string
	Change   bool
	Rows     []api.StatsRow
}
