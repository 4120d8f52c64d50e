package view

import (
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"text/template"
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

var page = template.Must(template.ParseFS(web, "web/index.html"))

type pageData struct {
	Title   string
	Inline  bool
	Style   string
	Film    string
	Scripts []string
}

// WriteIndex writes the page `judge view` serves: its scripts and style are fetched from
// static/.
func WriteIndex(w io.Writer, title string) error {
	return page.Execute(w, pageData{Title: title, Scripts: scripts()})
}

// WriteHTML writes one self-contained page that plays the film: the app, its style and the
// film inside it, so that it opens from disk with no server and no network.
func WriteHTML(w io.Writer, f *Film) error {
	film, err := json.Marshal(f) // escapes <, > and &: the JSON cannot close its <script>
	if err != nil {
		return err
	}
	d := pageData{Title: title(f), Inline: true, Film: string(film)}
	style, err := fs.ReadFile(Static(), "style.css")
	if err != nil {
		return err
	}
	d.Style = string(style)
	for _, name := range scripts() {
		b, err := fs.ReadFile(Static(), name)
		if err != nil {
			return err
		}
		if strings.Contains(strings.ToLower(string(b)), "</script") {
			return fmt.Errorf("view: %s contains </script and cannot be inlined", path.Base(name))
		}
		d.Scripts = append(d.Scripts, string(b))
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
