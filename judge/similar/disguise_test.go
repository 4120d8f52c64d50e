package similar

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/botjudge/judge/images"
)

// corpus is the integrity check's test corpus: every sample bot of every game and language
// (owner GAME-LANG), the small unrelated programs of testdata/unrelated (owner u-NAME), and
// the disguised copies of testdata/disguises (owner the file's name, MANIFEST.tsv naming each
// one's original and kind).
type corpus struct {
	originals []Version
	disguises []disguise
}

type disguise struct {
	Version
	original string // its original's owner
	kind     string
}

// family is what an owner's program is: a sample's (or a copy's) game, an unrelated program
// itself. Two programs of one family are related - the samples of one game are ports of one
// another - and pairs of different families are unrelated.
func family(owner string) string {
	if strings.HasPrefix(owner, "u-") {
		return owner
	}
	g, _, _ := strings.Cut(owner, "-")
	return g
}

func loadCorpus(t testing.TB) corpus {
	var c corpus
	read := func(path string) []byte {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	for _, g := range []string{"amazes", "dropblock", "langwars", "ontherun", "snakecore"} {
		for _, lang := range images.LangNames() {
			dir := filepath.Join("..", "..", "bots", g, lang)
			v := Version{Owner: g + "-" + lang, Name: "v1", Files: map[string][]byte{}}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if !e.IsDir() {
					v.Files[e.Name()] = read(filepath.Join(dir, e.Name()))
				}
			}
			c.originals = append(c.originals, v)
		}
	}
	unrelated, _ := os.ReadDir(filepath.Join("testdata", "unrelated"))
	for _, e := range unrelated {
		if !e.IsDir() && langOf(e.Name()) != "" {
			c.originals = append(c.originals, Version{Owner: "u-" + e.Name(), Name: "v1", Files: map[string][]byte{e.Name(): read(filepath.Join("testdata", "unrelated", e.Name()))}})
		}
	}
	f, err := os.Open(filepath.Join("testdata", "disguises", "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.Split(sc.Text(), "\t")
		if len(parts) != 3 {
			continue
		}
		// bots/GAME/LANG/FILE
		p := strings.Split(parts[1], "/")
		if len(p) < 3 {
			t.Fatalf("MANIFEST.tsv: %q", sc.Text())
		}
		// A Go file laid out by hand, as gofmt would not, is kept as NAME.go.txt: gofmt leaves it be.
		name := strings.TrimSuffix(parts[0], ".txt")
		c.disguises = append(c.disguises, disguise{Version{Owner: name, Name: "v1",
			Files: map[string][]byte{name: read(filepath.Join("testdata", "disguises", parts[0]))}}, p[1] + "-" + p[2], parts[2]})
	}
	if len(c.disguises) == 0 {
		t.Fatal("no disguise in the corpus")
	}
	return c
}

// disguiseScores checks each disguised copy alone among the corpus's originals (as one copier
// in a contest): its score with its original, and the highest score of any unrelated pair of
// that run; and the precision at 10 of one ranking of every copy with its original and every
// unrelated pair.
func disguiseScores(t testing.TB, c corpus) (scores map[string]float64, highestUnrelated float64, precision float64) {
	var x Index
	for _, v := range c.originals {
		x.Add(v)
	}
	type ranked struct {
		score float64
		copy  bool
	}
	var all []ranked
	scores = map[string]float64{}
	unrelated := func(rep Report) float64 {
		hi := 0.0
		for _, p := range rep.Pairs {
			if family(p.A) != family(p.B) && !strings.Contains(p.A+p.B, "--") {
				hi = max(hi, p.Score)
			}
		}
		return hi
	}
	base := x.Compare(Options{})
	for _, p := range base.Pairs {
		if family(p.A) != family(p.B) {
			all = append(all, ranked{p.Score, false})
		}
	}
	highestUnrelated = unrelated(base)
	for _, d := range c.disguises {
		y := Index{docs: slices.Clone(x.docs)}
		y.Add(d.Version)
		rep := y.Compare(Options{})
		s := 0.0
		for _, p := range rep.Pairs {
			if p.A == d.Owner && p.B == d.original || p.B == d.Owner && p.A == d.original {
				s = p.Score
			}
			if (p.A == d.Owner || p.B == d.Owner) && family(p.A) != family(p.B) {
				all = append(all, ranked{p.Score, false}) // the copy against an unrelated program
				highestUnrelated = max(highestUnrelated, p.Score)
			}
		}
		scores[d.Owner] = s
		all = append(all, ranked{s, true})
	}
	slices.SortStableFunc(all, func(a, b ranked) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return 0
	})
	hits := 0
	for _, r := range all[:10] {
		if r.copy {
			hits++
		}
	}
	return scores, highestUnrelated, float64(hits) / 10
}

// Every kind of disguise - every name changed, the layout changed, comments changed, functions
// reordered, dead code inserted, independent statements swapped, a line by line translation to
// C# from C++ and from Java - ranks a copy above every unrelated pair.
func TestEveryDisguiseRanksAboveUnrelatedPairs(t *testing.T) {
	c := loadCorpus(t)
	scores, hi, precision := disguiseScores(t, c)
	kinds := map[string]bool{}
	for _, d := range c.disguises {
		kinds[d.kind] = true
		if s := scores[d.Owner]; s <= hi {
			t.Errorf("%s (%s of %s) scores %.3f with its original, not above the highest unrelated pair's %.3f", d.Owner, d.kind, d.original, s, hi)
		}
	}
	for _, k := range []string{"rename", "reformat", "comments", "reorder", "deadcode", "swap", "translate"} {
		if !kinds[k] {
			t.Errorf("the corpus has no disguise of the kind %s", k)
		}
	}
	if precision < 1 {
		t.Errorf("precision at 10: %.1f", precision)
	}
	t.Logf("%d disguises, %d originals; highest unrelated %.3f; precision at 10 %.1f", len(c.disguises), len(c.originals), hi, precision)
}

// A starter bot that two contestants each built on does not pair them when it is the base: what
// they share is what everyone was given. Without the base it does.
func TestTheBaseIsLeftOut(t *testing.T) {
	starter, err := os.ReadFile(filepath.Join("..", "..", "bots", "amazes", "cpp", "bot.cpp"))
	if err != nil {
		t.Fatal(err)
	}
	own := func(name string) []byte {
		data, err := os.ReadFile(filepath.Join("testdata", "unrelated", name))
		if err != nil {
			t.Skipf("the corpus has no %s: %v", name, err) // see the corpus
		}
		return data
	}
	mine := func(extra []byte) []byte { return append(append(slices.Clone(starter), '\n'), extra...) }
	unrelatedCpp := []string{}
	entries, _ := os.ReadDir(filepath.Join("testdata", "unrelated"))
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".cpp") {
			unrelatedCpp = append(unrelatedCpp, e.Name())
		}
	}
	if len(unrelatedCpp) < 2 {
		t.Fatalf("the corpus needs two unrelated C++ programs; it has %q", unrelatedCpp)
	}
	vs := []Version{
		{Owner: "ann", Name: "v1", Files: map[string][]byte{"bot.cpp": mine(own(unrelatedCpp[0]))}},
		{Owner: "bob", Name: "v1", Files: map[string][]byte{"bot.cpp": mine(own(unrelatedCpp[1]))}},
	}
	without := Sources(vs, Options{})
	with := Sources(vs, Options{Base: []map[string][]byte{{"bot.cpp": starter}}})
	if len(without.Pairs) != 1 || without.Pairs[0].Score < 0.3 {
		t.Errorf("without the base: %+v; want them paired on the starter", without.Pairs)
	}
	if len(with.Pairs) > 0 && with.Pairs[0].Score > 0.1 {
		t.Errorf("with the base: %.3f; want the starter left out", with.Pairs[0].Score)
	}
}

// Versions of one owner are never paired, however alike; a file too large or not text is left
// out with a note that names it; a file that is not a source (a data file) is no note.
func TestOwnVersionsAndFilesLeftOut(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "bots", "ontherun", "java", "Bot.java"))
	if err != nil {
		t.Fatal(err)
	}
	rep := Sources([]Version{
		{Owner: "ann", Name: "v1", Files: map[string][]byte{"Bot.java": src}},
		{Owner: "ann", Name: "v2", Files: map[string][]byte{"Bot.java": src, "map.txt": []byte("W W W")}},
		{Owner: "bob", Name: "v1", Files: map[string][]byte{"Huge.java": []byte(strings.Repeat("int x = 1;\n", MaxFileBytes/11+1)), "Blob.java": {0, 1, 2, 3}}},
	}, Options{})
	if len(rep.Pairs) != 0 {
		t.Errorf("pairs %+v; ann's versions are ann's", rep.Pairs)
	}
	notes := strings.Join(rep.Notes, "\n")
	if len(rep.Notes) != 2 || !strings.Contains(notes, "bob v1: Huge.java left out: 1048586 bytes, over 1048576") || !strings.Contains(notes, "bob v1: Blob.java left out: not text") {
		t.Errorf("the notes:\n%s", notes)
	}
}
