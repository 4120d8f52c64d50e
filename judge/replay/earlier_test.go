package replay_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/replay"
	"github.com/botjudge/judge/judge/view"
)

// Every replay an earlier version of the judge wrote (testdata/earlier, one directory per
// version, each game) still reads, re-judges to the result it records and plays in the viewer.
func TestEarlierJudgesReplays(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "earlier", "*", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	versions := map[int]bool{}
	seen := map[string]bool{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rp, err := replay.Read(bytes.NewReader(data))
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		versions[rp.Header.Version] = true
		seen[rp.Header.Game] = true
		if _, err := replay.Verify(bytes.NewReader(data), games.Lookup); err != nil {
			t.Errorf("%s (format %d): does not re-judge: %v", f, rp.Header.Version, err)
		}
		film, err := view.Read(bytes.NewReader(data), games.Lookup)
		if err != nil || len(film.Mismatch) > 0 || len(film.Frames) == 0 {
			t.Errorf("%s (format %d): the viewer: %v, %d frames, mismatch %v", f, rp.Header.Version, err, len(film.Frames), film.Mismatch)
		}
	}
	for v := 1; v <= replay.Version; v++ {
		if !versions[v] {
			t.Errorf("no replay of format version %d in testdata/earlier: add one written by the last judge of that format", v)
		}
	}
	for _, g := range games.All() {
		if !seen[g.Name()] {
			t.Errorf("no earlier replay of %s", g.Name())
		}
	}
	if len(files) < 20 || !strings.Contains(strings.Join(files, " "), "0cb19f1") {
		t.Errorf("the corpus: %v", files)
	}
}
