package bots

import (
	"strings"
	"testing"
)

func TestSample(t *testing.T) {
	for _, tc := range []struct {
		game, lang string
		file       string // a file the sample has, "" for none
	}{
		{"amazes", "cpp", "bot.cpp"},
		{"langwars", "python", "main.py"},
		{"snakecore", "go", "bot.go"},
		{"hello", "rust", "main.rs"},
		{"amazes", "broken", ""},
		{"amazes", "cobol", ""},
		{"chess", "cpp", ""},
		{"amazes/cpp", "", ""},
		{"..", "amazes", ""},
		{"amazes", "../langwars/cpp", ""},
		{"", "amazes", ""},
	} {
		files, err := Sample(tc.game, tc.lang)
		if tc.file == "" {
			if err == nil {
				t.Errorf("Sample(%q, %q) = %d files, want ErrNoSample", tc.game, tc.lang, len(files))
			}
			continue
		}
		if err != nil {
			t.Errorf("Sample(%q, %q): %v", tc.game, tc.lang, err)
			continue
		}
		if len(files[tc.file]) == 0 {
			t.Errorf("Sample(%q, %q) lacks %s: %v", tc.game, tc.lang, tc.file, files)
		}
		for name := range files {
			if strings.Contains(name, "/") && tc.game != "snakecore" {
				t.Errorf("Sample(%q, %q) has %q: want the directory's own paths", tc.game, tc.lang, name)
			}
		}
	}
}

func TestGameOf(t *testing.T) {
	amazes, _ := Sample("amazes", "cpp")
	snake, _ := Sample("snakecore", "python")
	mine := map[string][]byte{"bot.cpp": []byte("int main() {}")}
	edited := map[string][]byte{}
	for k, v := range amazes {
		edited[k] = append([]byte("// mine\n"), v...)
	}
	for _, tc := range []struct {
		files map[string][]byte
		want  string
	}{
		{amazes, "amazes"},
		{snake, "snakecore"},
		{mine, ""},
		{edited, ""},
		{nil, ""},
	} {
		got, ok := GameOf(tc.files)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("GameOf(%d files) = %q, %v; want %q", len(tc.files), got, ok, tc.want)
		}
	}
}
