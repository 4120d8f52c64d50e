// Package similar finds submissions of different contestants that are copies of each other:
// by their sources (MOSS's winnowing over the tokens of a real lexer for each language, with
// identifiers, literals and comments normalized away, and the code everyone was given left
// out) and by how they play (the same answers in the same positions, from replays already
// judged). It reports pairs for a person to look at, ranked; it decides nothing.
package similar

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
)

// Version is one version of a contestant's, or one entrant of a tournament's: its sources.
type Version struct {
	// Owner is whose it is: versions of one owner are never paired.
	Owner string
	// Name is how reports name the version ("v3", a path).
	Name  string
	Files map[string][]byte
}

// label is how notes name v: its owner, and its name when that is another.
func (v Version) label() string {
	if v.Name == v.Owner || v.Name == "" {
		return v.Owner
	}
	return v.Owner + " " + v.Name
}

// Options are how Sources compares.
type Options struct {
	// Base is the code everyone was given (starter bots, a game's helper library, published
	// house bots): a passage found in it counts for no pair (MOSS's base files).
	Base []map[string][]byte
	// MaxOwners ignores a passage found in the versions of more owners than this, as code
	// everyone writes (MOSS's -m); 0 is DefaultMaxOwners.
	MaxOwners int
}

// DefaultMaxOwners is Options.MaxOwners' default, MOSS's.
const DefaultMaxOwners = 10

// floorPrints is the fewest fingerprints a score is taken over: a version smaller than that
// (a few lines) cannot score high on them alone.
const floorPrints = 20

// Pair is two owners' most similar versions.
type Pair struct {
	A, B               string // the owners
	VersionA, VersionB string
	// Score is the share of the smaller version's fingerprints that the other has, 0 to 1.
	Score float64
	// Shared counts the fingerprints in common.
	Shared int
	// Regions are the passages in common, in A's order.
	Regions []Region
}

// Region is a passage of A's (lines FromA to ToA of FileA) that B has too (FromB to ToB of
// FileB).
type Region struct {
	FileA string `json:"file_a"`
	FromA int    `json:"from_a"`
	ToA   int    `json:"to_a"`
	FileB string `json:"file_b"`
	FromB int    `json:"from_b"`
	ToB   int    `json:"to_b"`
}

// doc is a version made ready to compare.
type doc struct {
	v      Version
	files  []string    // by name
	toks   [][]token   // each file's
	prints []filePrint // its fingerprints, in order
}

type filePrint struct {
	print
	file int
}

// prepare tokenizes and fingerprints v's sources; notes say which files were left out, why.
func prepare(v Version) (*doc, []string) {
	d := &doc{v: v}
	var notes []string
	for _, name := range slices.Sorted(maps.Keys(v.Files)) {
		src := v.Files[name]
		lang := langOf(name)
		if lang == "" {
			continue // not a source: a data file, a build file
		}
		if len(src) > MaxFileBytes {
			notes = append(notes, fmt.Sprintf("%s: %s left out: %d bytes, over %d", v.label(), name, len(src), MaxFileBytes))
			continue
		}
		ts, err := tokenize(lang, src)
		if err != nil {
			notes = append(notes, fmt.Sprintf("%s: %s left out: %v", v.label(), name, err))
			continue
		}
		fi := len(d.files)
		d.files, d.toks = append(d.files, name), append(d.toks, ts)
		for _, p := range winnow(gramHashes(tokenIDs(ts))) {
			d.prints = append(d.prints, filePrint{p, fi})
		}
	}
	return d, notes
}

// baseHashes are every k-gram hash of the base's sources.
func baseHashes(base []map[string][]byte) map[uint64]bool {
	out := map[uint64]bool{}
	for _, files := range base {
		for name, src := range files {
			lang := langOf(name)
			if lang == "" || len(src) > MaxFileBytes {
				continue
			}
			ts, err := tokenize(lang, src)
			if err != nil {
				continue
			}
			for _, h := range gramHashes(tokenIDs(ts)) {
				out[h] = true
			}
		}
	}
	return out
}

// Report is what Sources found.
type Report struct {
	// Pairs are the owners' pairs with a passage in common, the most similar first.
	Pairs []Pair
	// Notes say which files were left out, and why (too large, not text).
	Notes []string
}

// Index holds versions made ready to compare (tokenized and fingerprinted once each), for a
// check that runs as versions arrive; Compare is then cheap.
type Index struct {
	docs  []*doc
	notes []string
}

// Add prepares v; a version of an owner and name it has already is replaced.
func (x *Index) Add(v Version) { x.AddPrepared(Prepare(v)) }

// Prepared is a version tokenized and fingerprinted (Prepare), to add to an index (AddPrepared)
// without holding it meanwhile.
type Prepared struct {
	d     *doc
	notes []string
}

// Prepare tokenizes and fingerprints v.
func Prepare(v Version) Prepared {
	d, notes := prepare(v)
	return Prepared{d, notes}
}

// AddPrepared adds a version prepared; a version of an owner and name it has already is
// replaced (its notes are kept once).
func (x *Index) AddPrepared(p Prepared) {
	for i, o := range x.docs {
		if o.v.Owner == p.d.v.Owner && o.v.Name == p.d.v.Name {
			x.docs[i] = p.d
			return
		}
	}
	x.docs, x.notes = append(x.docs, p.d), append(x.notes, p.notes...)
}

// Has reports whether the index holds owner's version name.
func (x *Index) Has(owner, name string) bool {
	for _, d := range x.docs {
		if d.v.Owner == owner && d.v.Name == name {
			return true
		}
	}
	return false
}

// Len is how many versions the index holds.
func (x *Index) Len() int { return len(x.docs) }

// Sources compares the versions of different owners by their sources.
func Sources(versions []Version, o Options) Report {
	var x Index
	for _, v := range versions {
		x.Add(v)
	}
	return x.Compare(o)
}

// Compare compares the index's versions of different owners.
func (x *Index) Compare(o Options) Report {
	maxOwners := cmp.Or(o.MaxOwners, DefaultMaxOwners)
	rep := Report{Notes: slices.Clone(x.notes)}
	docs := x.docs
	base := baseHashes(o.Base)
	// A passage of the base, or of more than maxOwners owners, counts for no one.
	owners := map[uint64]map[string]bool{}
	for _, d := range docs {
		for _, p := range d.prints {
			if base[p.hash] {
				continue
			}
			if owners[p.hash] == nil {
				owners[p.hash] = map[string]bool{}
			}
			owners[p.hash][d.v.Owner] = true
		}
	}
	// Each doc's kept fingerprints (the prepared ones stay as they are, for the next call).
	kept := make([][]filePrint, len(docs))
	first := make([]map[uint64]int, len(docs))
	index := map[uint64][]int{}
	for i, d := range docs {
		first[i] = map[uint64]int{}
		for _, p := range d.prints {
			if os := owners[p.hash]; os == nil || len(os) > maxOwners {
				continue
			}
			if _, seen := first[i][p.hash]; !seen {
				first[i][p.hash] = len(kept[i])
				index[p.hash] = append(index[p.hash], i)
			}
			kept[i] = append(kept[i], p)
		}
	}
	// Shared fingerprints of every two docs of different owners.
	shared := map[[2]int]int{}
	for _, ds := range index {
		for a := range ds {
			for b := a + 1; b < len(ds); b++ {
				if docs[ds[a]].v.Owner != docs[ds[b]].v.Owner {
					shared[[2]int{ds[a], ds[b]}]++
				}
			}
		}
	}
	type best struct {
		Pair
		a, b int
	}
	bests := map[[2]string]best{}
	for k, n := range shared {
		a, b := k[0], k[1]
		if docs[a].v.Owner > docs[b].v.Owner {
			a, b = b, a
		}
		da, db := docs[a].v, docs[b].v
		score := min(float64(n)/float64(max(min(len(first[a]), len(first[b])), floorPrints)), 1)
		key := [2]string{da.Owner, db.Owner}
		if p, ok := bests[key]; !ok || score > p.Score || score == p.Score && da.Name+"\x00"+db.Name < p.VersionA+"\x00"+p.VersionB {
			bests[key] = best{Pair{A: da.Owner, B: db.Owner, VersionA: da.Name, VersionB: db.Name, Score: score, Shared: n}, a, b}
		}
	}
	for _, p := range bests {
		p.Regions = regions(docs[p.a], kept[p.a], docs[p.b], kept[p.b], first[p.b])
		rep.Pairs = append(rep.Pairs, p.Pair)
	}
	slices.SortFunc(rep.Pairs, func(x, y Pair) int {
		return cmp.Or(cmp.Compare(y.Score, x.Score), cmp.Compare(x.A, y.A), cmp.Compare(x.B, y.B))
	})
	return rep
}

// regions are the passages a and b share (their kept fingerprints): runs of fingerprints in
// common that follow each other in both, as lines of each. Of a passage b has more than once,
// the copy that continues the run is taken; a lone fingerprint beside longer runs is left out
// (a line or two that recurs), and runs that meet are one.
func regions(a *doc, ka []filePrint, b *doc, kb []filePrint, _ map[uint64]int) []Region {
	at := map[uint64][]filePrint{}
	for _, p := range kb {
		at[p.hash] = append(at[p.hash], p)
	}
	type hit struct{ pa, pb filePrint }
	var hits []hit
	for _, p := range ka {
		cands := at[p.hash]
		if len(cands) == 0 {
			continue
		}
		best := cands[0]
		if n := len(hits); n > 0 && len(cands) > 1 {
			prev := hits[n-1]
			want := prev.pb.pos + (p.pos - prev.pa.pos)
			for _, c := range cands {
				if c.file == prev.pb.file && (best.file != prev.pb.file || abs(c.pos-want) < abs(best.pos-want)) {
					best = c
				}
			}
		}
		hits = append(hits, hit{p, best})
	}
	type run struct {
		Region
		prints int
	}
	var runs []run
	near := func(x, y filePrint) bool {
		return x.file == y.file && y.pos > x.pos && y.pos-x.pos <= window+gramTokens
	}
	for i := 0; i < len(hits); {
		j := i
		for j+1 < len(hits) && near(hits[j].pa, hits[j+1].pa) && near(hits[j].pb, hits[j+1].pb) {
			j++
		}
		first, last := hits[i], hits[j]
		ta, tb := a.toks[first.pa.file], b.toks[first.pb.file]
		r := Region{
			FileA: a.files[first.pa.file], FromA: ta[first.pa.pos].line, ToA: ta[min(last.pa.pos+gramTokens-1, len(ta)-1)].line,
			FileB: b.files[first.pb.file], FromB: tb[first.pb.pos].line, ToB: tb[min(last.pb.pos+gramTokens-1, len(tb)-1)].line,
		}
		if n := len(runs); n > 0 && runs[n-1].FileA == r.FileA && runs[n-1].FileB == r.FileB && r.FromA <= runs[n-1].ToA+1 && r.FromB <= runs[n-1].ToB+1 && r.FromB >= runs[n-1].FromB {
			runs[n-1].ToA, runs[n-1].ToB = max(runs[n-1].ToA, r.ToA), max(runs[n-1].ToB, r.ToB)
			runs[n-1].prints += j - i + 1
		} else {
			runs = append(runs, run{r, j - i + 1})
		}
		i = j + 1
	}
	long := slices.ContainsFunc(runs, func(r run) bool { return r.prints > 1 })
	var out []Region
	for _, r := range runs {
		if r.prints > 1 || !long {
			out = append(out, r.Region)
		}
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
