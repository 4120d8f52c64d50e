package view

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"html/template"
	"net/http"
)

// An added game's renderer is the organiser's script: it runs in a frame of its own, served
// with a policy that makes it a sandboxed document of no origin (no cookie, no storage, no
// reach into the page) that can load and send nothing: it is given each picture by message
// and draws it in its own document. docs/viewer.md gives its API.

// frameBoot is the frame's own script: it hands each picture the page posts to the
// renderer's judge.draw, and tells the page that it drew, or how it failed.
const frameBoot = `"use strict";
window.judge = {draw: null};
window.addEventListener("message", (e) => {
  if (e.source !== window.parent || !e.data || typeof e.data !== "object") return;
  const view = e.data;
  const box = document.getElementById("box");
  try {
    if (typeof window.judge.draw !== "function") throw new Error("the renderer sets no judge.draw");
    window.judge.draw(box, view);
    window.parent.postMessage({drawn: view.step}, "*");
  } catch (err) {
    window.parent.postMessage({error: String((err && err.message) || err), step: view.step}, "*");
  }
});
window.parent.postMessage({ready: true}, "*");
`

var frameDoc = template.Must(template.New("frame").Parse(`<!doctype html>
<html><head><meta charset="utf-8"><style>body{margin:0;font:13px system-ui,sans-serif}</style></head>
<body><div id="box"></div><script>{{.Boot}}</script><script>{{.Renderer}}</script></body></html>
`))

// frameCSP is the renderer frame's policy: a sandbox of scripts alone (an opaque origin), the
// two scripts by their hash, inline styles and data: images, and nothing else from anywhere.
func frameCSP(scripts ...string) string {
	csp := "sandbox allow-scripts; default-src 'none'; script-src"
	for _, s := range scripts {
		sum := sha256.Sum256([]byte(s))
		csp += " 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	}
	return csp + "; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'; base-uri 'none'; form-action 'none'"
}

// frame serves the renderer frame of the game KEY (a film's GameKey), or 404 for a game with
// no renderer of its own.
func (s *Server) frame(w http.ResponseWriter, r *http.Request) {
	key := r.PathValue("key")
	var script []byte
	if s.Lookup != nil {
		if g, ok := s.Lookup(key); ok {
			if rg, ok := g.(interface{ Renderer() []byte }); ok {
				script = rg.Renderer()
			}
		}
	}
	if len(script) == 0 {
		http.Error(w, "no renderer for "+key, http.StatusNotFound)
		return
	}
	if low := bytes.ToLower(script); bytes.Contains(low, []byte("</script")) || bytes.Contains(low, []byte("<!--")) {
		http.Error(w, "the renderer of "+key+` holds "</script" or "<!--", which would end its element early`, http.StatusUnprocessableEntity)
		return
	}
	w.Header().Set("Content-Security-Policy", frameCSP(frameBoot, string(script)))
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	// The scripts go in as they are: html/template would escape them as JS strings otherwise,
	// and their hashes must be those of the bytes served. A script cannot end its element
	// early: one holding "</script" is refused.
	frameDoc.Execute(w, struct{ Boot, Renderer template.JS }{template.JS(frameBoot), template.JS(script)})
}
