package similar

import (
	"bytes"
	"fmt"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"

	"github.com/botjudge/judge/images"
)

// MaxFileBytes is the largest source file compared; a larger one is skipped with a note.
const MaxFileBytes = 1 << 20

// lexerNames are chroma's lexers for the judge's languages.
var lexerNames = map[string]string{
	"cpp": "C++", "csharp": "C#", "go": "Go", "java": "Java", "javascript": "JavaScript",
	"pascal": "ObjectPascal", "python": "Python", "rust": "Rust",
}

// token is one normalized token of a source and the line it starts on (from 1).
type token struct {
	text string
	line int
}

// synonyms make tokens that mean the same in languages of one family the same token: a line
// by line translation from C++ or Java to C# keeps its shape.
var synonyms = map[string]string{
	"->": ".", "::": ".", "foreach": "for", "elif": "else if", "boolean": "T", "auto": "T", "var": "T",
	"let": "T", "const": "T", "final": "", "readonly": "", "static": "", "public": "", "private": "",
	"protected": "", "internal": "", "override": "", "virtual": "", "unsafe": "", "mut": "",
	"nullptr": "null", "NULL": "null", "None": "null", "nil": "null", "True": "true", "False": "false",
	"void": "T", "String": "T", "Integer": "T", "Long": "T", "Double": "T", "Boolean": "T", "Object": "T",
	"Character": "T", "Float": "T", "Short": "T", "Byte": "T",
}

// headers start a line that names what a file uses (import, using, package): left out whole,
// as an #include is, for they differ from one language to another and say nothing of the code.
var headers = map[string]bool{"import": true, "using": true, "package": true, "from": true}

// langOf is the language of a source file by its extension (images.LangByExt, and C and
// C++ headers), "" for a file that is not a source of a language the judge knows.
func langOf(name string) string {
	switch strings.ToLower(path.Ext(name)) {
	case ".h", ".hpp", ".hh", ".hxx":
		return "cpp"
	}
	if l, ok := images.LangByExt(name); ok {
		return l.Name
	}
	return ""
}

// tokenize is src's tokens as the comparison sees them: identifiers, literals and comments
// normalized away (every name is N, every number 0, every string S; comments, preprocessor
// lines and spaces dropped), keywords and operators kept, a few synonyms of one family made one
// (synonyms). A file that is not valid text is an error.
func tokenize(lang string, src []byte) ([]token, error) {
	if bytes.IndexByte(src, 0) >= 0 || !utf8.Valid(src) {
		return nil, fmt.Errorf("not text")
	}
	lx := lexers.Get(lexerNames[lang])
	if lx == nil {
		return nil, fmt.Errorf("no lexer for %q", lang)
	}
	it, err := lx.Tokenise(nil, string(src))
	if err != nil {
		return nil, err
	}
	var out []token
	line := 1
	last := chroma.TokenType(-1)
	skipLine, throws := 0, false
	for t := it(); t != chroma.EOF; t = it() {
		text := strings.TrimSpace(t.Value)
		norm := ""
		switch cat := t.Type.Category(); {
		case t.Type.InCategory(chroma.Comment), cat == chroma.Text, text == "":
		case t.Type.InCategory(chroma.LiteralString), t.Type == chroma.LiteralStringChar:
			if last != chroma.LiteralString { // a string lexed in pieces is one
				norm = "S"
			}
			t.Type = chroma.LiteralString
		case t.Type.InCategory(chroma.LiteralNumber):
			norm = "0"
		case t.Type == chroma.KeywordType:
			norm = "T"
		case t.Type.InCategory(chroma.Keyword):
			norm = text
		case t.Type.InCategory(chroma.Name):
			norm = "N"
			if s, ok := synonyms[text]; ok { // nil, None: lexed as names in some languages
				norm = s
			}
		default: // operators and punctuation
			norm = text
		}
		if s, ok := synonyms[norm]; ok && norm != "N" {
			norm = s
		}
		switch {
		case norm == "":
		case skipLine == line && norm != "{":
			norm = "" // the rest of a header
		case headers[norm] && (len(out) == 0 || out[len(out)-1].line != line || out[len(out)-1].text == ";"):
			skipLine, norm = line, ""
		case norm == "throws":
			throws, norm = true, "" // a Java method's exceptions: C# and the others have none
		case throws && (norm == "{" || norm == ";"):
			throws = false
		case throws:
			norm = ""
		}
		if norm != "" {
			if n := len(out); n > 0 && out[n-1].line == line && (norm == ":" && out[n-1].text == ":" || norm == ">" && out[n-1].text == "-") {
				out[n-1].text = "." // "::" and "->", lexed in two
			} else {
				out = append(out, token{text: norm, line: line})
			}
		}
		if t.Type != chroma.Text && text != "" || t.Type.InCategory(chroma.LiteralString) {
			last = t.Type
		}
		line += strings.Count(t.Value, "\n")
	}
	return out, nil
}
