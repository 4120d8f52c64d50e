package similar

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/images"
	"github.com/botjudge/judge/judge/replay"
)

// corpusVersions are n versions of about lines lines each, of every language in turn: each the
// samples of that language's games, one after another, until it is long enough, with every
// line of the i-th version's names suffixed by its number and one game's file left out in turn,
// so that no two are the same.
func corpusVersions(tb testing.TB, n, lines int) []Version {
	games := []string{"amazes", "ontherun", "dropblock", "langwars", "snakecore"}
	srcs := map[string][]string{}
	for _, lang := range images.LangNames() {
		for _, g := range games {
			dir := filepath.Join("..", "..", "bots", g, lang)
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if langOf(e.Name()) == lang {
					data, err := os.ReadFile(filepath.Join(dir, e.Name()))
					if err != nil {
						tb.Fatal(err)
					}
					srcs[lang] = append(srcs[lang], string(data))
				}
			}
		}
	}
	langs := images.LangNames()
	var out []Version
	for i := range n {
		lang := langs[i%len(langs)]
		var b strings.Builder
		for k := 0; strings.Count(b.String(), "\n") < lines; k++ {
			s := srcs[lang][(i+k)%len(srcs[lang])]
			b.WriteString(strings.ReplaceAll(s, "main", fmt.Sprintf("main%d", i)))
		}
		ext := map[string]string{"cpp": ".cpp", "csharp": ".cs", "go": ".go", "java": ".java", "javascript": ".js", "pascal": ".pas", "python": ".py", "rust": ".rs"}[lang]
		out = append(out, Version{Owner: fmt.Sprint("c", i), Name: "v1", Files: map[string][]byte{"main" + ext: []byte(b.String())}})
	}
	return out
}

// BenchmarkSources is the source check of 500 versions of about 500 lines, every language in
// turn (the goal: under a minute on one core): the whole, the share of it tokenizing, and the
// comparison again with no passage ignored as common (its worst case).
func BenchmarkSources(b *testing.B) {
	vs := corpusVersions(b, 500, 500)
	lines := 0
	for _, v := range vs {
		for _, f := range v.Files {
			lines += strings.Count(string(f), "\n")
		}
	}
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		var x Index
		for _, v := range vs {
			x.Add(v)
		}
		prep := time.Since(start)
		rep := x.Compare(Options{})
		b.ReportMetric(prep.Seconds(), "tokenize-s")
		b.ReportMetric(time.Since(start).Seconds(), "total-s")
		b.ReportMetric(float64(len(rep.Pairs)), "pairs")
		// The versions share the samples' passages among dozens each: the default ignores them as
		// code everyone writes. Counted all the same, every version of a language pairs with
		// every other: the comparison's worst case.
		cmpStart := time.Now()
		all := x.Compare(Options{MaxOwners: len(vs)})
		b.ReportMetric(time.Since(cmpStart).Seconds(), "compare-all-s")
		b.ReportMetric(float64(len(all.Pairs)), "pairs-all")
	}
	b.ReportMetric(float64(lines)/float64(len(vs)), "lines/version")
}

// BenchmarkPlays is the behavioural check of 10,000 replays (the goal: under a minute): each
// read from its JSON lines and its plays recorded, then every two owners compared. The
// replays are the testdata matches of every game (judge/view/testdata) with their seats given
// to 500 owners in turn.
func BenchmarkPlays(b *testing.B) {
	var templates [][]byte
	paths, _ := filepath.Glob(filepath.Join("..", "view", "testdata", "*.jsonl"))
	for _, p := range paths {
		if strings.Contains(p, "broken") {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		templates = append(templates, data)
	}
	const replays, owners = 10000, 500
	var bytesRead int64
	for b.Loop() {
		start := time.Now()
		plays := NewPlays()
		for i := range replays {
			data := templates[i%len(templates)]
			bytesRead += int64(len(data))
			rp, err := replay.Read(bytes.NewReader(data))
			if err != nil {
				b.Fatal(err)
			}
			plays.AddReplay(rp, fmt.Sprint("m", i), func(seat int) (string, string, bool) {
				return fmt.Sprint("c", (i*7+seat*13)%owners), "v1", true
			})
		}
		read := time.Since(start)
		pairs, _ := plays.Compare()
		b.ReportMetric(read.Seconds(), "read-s")
		b.ReportMetric(time.Since(start).Seconds(), "total-s")
		b.ReportMetric(float64(len(pairs)), "pairs")
	}
	b.ReportMetric(float64(bytesRead)/float64(b.N)/(1<<20), "MiB-read")
}

// BenchmarkDisguises is the corpus's figures (disguise_test.go): the lowest score of each kind
// of disguise with its original, the highest unrelated pair's, and the precision at 10.
func BenchmarkDisguises(b *testing.B) {
	c := loadCorpus(b)
	for b.Loop() {
		scores, hi, precision := disguiseScores(b, c)
		lowest := map[string]float64{}
		for _, d := range c.disguises {
			if s, ok := lowest[d.kind]; !ok || scores[d.Owner] < s {
				lowest[d.kind] = scores[d.Owner]
			}
		}
		for k, s := range lowest {
			b.ReportMetric(s, "lowest-"+k)
		}
		b.ReportMetric(hi, "highest-unrelated")
		b.ReportMetric(precision, "precision@10")
	}
}
