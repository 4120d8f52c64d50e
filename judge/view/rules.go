package view

import (
	"bytes"
	"html/template"
	"io"
	"net/http"
	"path"
	"strings"

	"github.com/botjudge/judge/docs"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// The games' rules pages (docs/games), served beside the viewer: a match's page links its
// game's, so that whoever watches can read what the game is.

var rulesPage = template.Must(template.New("rules").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} - the rules</title><link rel="icon" href="data:,"><style>{{.Style}}</style></head>
<body class="rules"><main class="rules">{{.Body}}</main></body></html>
`))

const rulesStyle = `body.rules { font: 15px/1.5 system-ui, sans-serif; color: #222; background: #fafafa; margin: 0; }
main.rules { max-width: 52em; margin: 0 auto; padding: 1em 1.5em 3em; }
main.rules table { border-collapse: collapse; margin: .6em 0; } main.rules td, main.rules th { border: 1px solid #ddd; padding: .2em .5em; text-align: left; vertical-align: top; }
main.rules code { background: #eef0f2; padding: 0 .2em; border-radius: 3px; } main.rules pre { background: #263238; color: #eceff1; padding: .6em .8em; overflow: auto; border-radius: 4px; }
main.rules pre code { background: none; padding: 0; }`

var markdown = goldmark.New(goldmark.WithExtensions(extension.GFM))

// WriteRules writes the rules page of a built-in game, or with "common" the rules every game
// shares; false when there is no such page.
func WriteRules(w io.Writer, name string) (bool, error) {
	src, ok := docs.Rules(name)
	if !ok {
		return false, nil
	}
	return true, WriteRulesOf(w, name, src)
}

// WriteRulesOf writes the rules page of Markdown src, an added game's (its manifest's rules),
// titled by its first heading, else name. Its raw HTML is left out and its links go only to
// other sites, anchors and the judge's own rules pages: a link into the game's directory has
// nowhere to go, and keeps its text.
func WriteRulesOf(w io.Writer, name string, src []byte) error {
	doc := markdown.Parser().Parse(text.NewReader(src), parser.WithContext(parser.NewContext()))
	title := name
	var unlinked []*ast.Link
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if h, ok := n.(*ast.Heading); ok && entering && h.Level == 1 && title == name {
			title = string(h.Lines().Value(src))
		}
		if l, ok := n.(*ast.Link); ok && entering {
			if dest, ok := rulesLink(string(l.Destination)); ok {
				l.Destination = []byte(dest)
			} else {
				unlinked = append(unlinked, l)
			}
		}
		return ast.WalkContinue, nil
	})
	for _, l := range unlinked { // its text stays, in its place
		parent := l.Parent()
		for c := l.FirstChild(); c != nil; c = l.FirstChild() {
			parent.InsertBefore(parent, l, c)
		}
		parent.RemoveChild(parent, l)
	}
	var body bytes.Buffer
	if err := markdown.Renderer().Render(&body, src, doc); err != nil {
		return err
	}
	// Rendered without raw HTML (goldmark's default), dangerous link schemes dropped: trusted
	// as HTML, and served with a policy that runs nothing.
	return rulesPage.Execute(w, struct {
		Title string
		Style template.CSS
		Body  template.HTML
	}{title, template.CSS(rulesStyle), template.HTML(body.String())})
}

// rulesLink is where a link of a rules page goes once served: another rules page by its
// name, the shared rules as "common"; false for the rest of the docs, which is not served.
func rulesLink(dest string) (string, bool) {
	if strings.HasPrefix(dest, "https://") || strings.HasPrefix(dest, "http://") || strings.HasPrefix(dest, "#") {
		return dest, true
	}
	file, anchor, _ := strings.Cut(dest, "#")
	if anchor != "" {
		anchor = "#" + anchor
	}
	name := strings.TrimSuffix(path.Base(file), ".md")
	if name == "rules" {
		name = "common"
	}
	if _, ok := docs.Rules(name); ok && strings.HasSuffix(file, ".md") {
		return name + anchor, true
	}
	return "", false
}

// ServeRules serves /rules/{name}: a game's rules page.
func ServeRules(w http.ResponseWriter, r *http.Request) {
	var b bytes.Buffer
	ok, err := WriteRules(&b, r.PathValue("name"))
	switch {
	case !ok:
		http.Error(w, "no rules page of that name: a built-in game's name, or common", http.StatusNotFound)
	case err != nil:
		http.Error(w, err.Error(), http.StatusInternalServerError)
	default:
		WriteRulesResponse(w, b.Bytes())
	}
}

// WriteRulesResponse answers a rules page (WriteRules, WriteRulesOf): styled inline and
// running nothing, wherever it is served.
func WriteRulesResponse(w http.ResponseWriter, page []byte) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	w.Write(page)
}
