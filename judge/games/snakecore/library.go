package snakecore

import "embed"

// The helper libraries, kept as real source files in lib/ (see library).
//
//go:embed lib/Snake.h lib/Snake.pas lib/java/*.java lib/go/snake/snake.go lib/python/snake.py
//go:embed lib/javascript/snake.js lib/rust/snake.rs lib/csharp/Snake.cs
var libFS embed.FS

// libraries maps a language to its files: the path in the submission, then in libFS.
var libraries = map[string]map[string]string{
	"cpp":    {"Snake.h": "lib/Snake.h"},
	"pascal": {"Snake.pas": "lib/Snake.pas"},
	"java": {
		"Jbot.java":       "lib/java/Jbot.java",
		"AreaInfo.java":   "lib/java/AreaInfo.java",
		"JbotRunner.java": "lib/java/JbotRunner.java",
	},
	"go":         {"snake/snake.go": "lib/go/snake/snake.go"},
	"python":     {"snake.py": "lib/python/snake.py"},
	"javascript": {"snake.js": "lib/javascript/snake.js"},
	"rust":       {"snake.rs": "lib/rust/snake.rs"},
	"csharp":     {"Snake.cs": "lib/csharp/Snake.cs"},
}

// library is the helper library added to every SnakeCore submission in lang before it is
// built (game.Library): Snake.h for C++ (header only, namespace snake), the unit Snake.pas
// for Pascal, the classes Jbot, AreaInfo and JbotRunner for Java (JbotRunner holds the only
// main and plays the submission's one concrete subclass of Jbot), and the package snake/
// for Go (imported as "bot/snake"), the module snake.py for Python (import snake), snake.js for
// JavaScript (require("./snake")), the module snake.rs for Rust (mod snake;) and Snake.cs for C#
// (namespace SnakeCore). Each parses a getAction request into an AreaInfo view
// and runs the request loop; a bot may ignore it.
func library(lang string) map[string][]byte {
	files := libraries[lang]
	if len(files) == 0 {
		return nil
	}
	out := make(map[string][]byte, len(files))
	for name, src := range files {
		data, err := libFS.ReadFile(src)
		if err != nil {
			panic("snakecore: embedded library file missing: " + src) // a build mistake, caught by the tests
		}
		out[name] = data
	}
	return out
}
