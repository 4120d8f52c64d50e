package view

import (
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"slices"
	"strings"
)

// web is the viewer: plain JavaScript, SVG and CSS, no build step, nothing from a CDN.
//
//go:embed web
var web embed.FS

// Static is the web app's files (app.js, style.css, games/*.js), as `judge view` serves them.
func Static() fs.FS {
	sub, err := fs.Sub(web, "web")
	if err != nil {
		panic(err) // the embedded tree always has web/
	}
	return sub
}

// scripts are the app's scripts in the order the page loads them: the renderers register
// with app.js, so it comes first.
func scripts() []string {
	names, _ := fs.Glob(Static(), "games/*.js")
	slices.Sort(names)
	return append([]string{"app.js"}, names...)
}

// page is rendered by html/template: every string a replay carries (a game's name, a
// player's, an option) is escaped for where it lands, so that opening a replay never runs
// code; the CSP below is the second wall.
var page = template.Must(template.ParseFS(web, "web/index.html"))

type pageData struct {
	PageOptions
	CSP     string
	Title   string
	Inline  bool
	Style   template.CSS
	Film    *Film
	Pair    *Pair         // a page of two films side by side (Film is nil)
	Scripts []template.JS // inline: the scripts themselves
	Sources []string      // served: their names under static/
}

// Content security policies. Scripts run only from the server's own files (served) or by
// their hash (the self-contained page): a script tag smuggled into the page by any path runs
// nowhere. Styles may be inline: the renderers colour players with style attributes, and a
// style cannot run code.
const (
	servedCSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'"
	// ServedCSP is servedCSP as a header, which can also forbid framing.
	ServedCSP = servedCSP + "; frame-ancestors 'none'"
)

// inlineCSP allows exactly the given scripts, by their SHA-256, and nothing from anywhere.
func inlineCSP(scripts []template.JS) string {
	var b strings.Builder
	b.WriteString("default-src 'none'; script-src")
	for _, s := range scripts {
		sum := sha256.Sum256([]byte(s))
		fmt.Fprintf(&b, " 'sha256-%s'", base64.StdEncoding.EncodeToString(sum[:]))
	}
	b.WriteString("; style-src 'unsafe-inline'; img-src data:; object-src 'none'; base-uri 'none'; form-action 'none'")
	return b.String()
}

// WriteIndex writes the page `judge view` serves: its scripts and style are fetched from
// static/.
func WriteIndex(w io.Writer, title string) error {
	return page.Execute(w, pageData{PageOptions: PageOptions{Rules: "rules/"}, CSP: servedCSP, Title: title, Sources: scripts()})
}

// WriteHTML writes one self-contained page that plays the film: the app, its style and the
// film inside it, so that it opens from disk with no server and no network. It opens at the
// last step, where the result is.
func WriteHTML(w io.Writer, f *Film) error { return WriteHTMLWith(w, f, PageOptions{}) }

// PageOptions are how a page that a site serves (the portal's) differs from a file's.
type PageOptions struct {
	// First opens the film at its first step, to be watched from the start, rather than at
	// the result.
	First bool
	// Back is a link in the page's header to where it was opened from, BackText its label.
	Back, BackText string
	// Rules is where the games' rules pages are served (ServeRules: Rules + the game's
	// name), linked beside the game's name; empty for a page with no server behind it.
	Rules string
	// Live is the event stream of a match under way (the portal's /api/v1/matches/{id}/live
	// with ?frames=1): the page follows it, drawing each exchange as it is judged, instead of
	// showing its film.
	Live string
	// Projector is a round's API address (the portal's /api/v1/rounds/{id}): the page follows
	// its matches live one after another, the standings beside, for a big screen.
	Projector string
}

// WriteHTMLWith is WriteHTML with options.
func WriteHTMLWith(w io.Writer, f *Film, o PageOptions) error {
	return writeInline(w, pageData{PageOptions: o, Title: title(f), Film: unframed(f)})
}

// unframed is f for a page on its own, which has no server to serve an added game's renderer
// in its frame: its pictures are drawn by the generic view.
func unframed(f *Film) *Film {
	if !f.Renderer {
		return f
	}
	c := *f
	c.Renderer = false
	return &c
}

// writeInline writes d as a page that carries its scripts, its style and its films.
func writeInline(w io.Writer, d pageData) error {
	d.Inline = true
	style, err := fs.ReadFile(Static(), "style.css")
	if err != nil {
		return err
	}
	d.Style = template.CSS(style)
	for _, name := range scripts() {
		b, err := fs.ReadFile(Static(), name)
		if err != nil {
			return err
		}
		// Our own code, trusted; html/template would otherwise quote it as a JS string.
		if strings.Contains(strings.ToLower(string(b)), "</script") {
			return fmt.Errorf("view: %s contains </script and cannot be inlined", name)
		}
		d.Scripts = append(d.Scripts, template.JS(b))
	}
	d.CSP = inlineCSP(d.Scripts)
	if d.Live != "" || d.Projector != "" {
		d.CSP += "; connect-src 'self'" // the match's event stream, from the page's own server
	}
	return page.Execute(w, d)
}

func title(f *Film) string {
	t := f.Header.Game
	if f.Result.ID != "" {
		t += " " + f.Result.ID
	}
	return fmt.Sprintf("%s seed %d - judge view", t, f.Header.Seed)
}
