package similar

import (
	"fmt"
	"testing"
)

// The paper's own example (Schleimer, Wilkerson and Aiken 2003, figure 2): the hashes of the
// 5-grams of "adorunrunrunadorunrun", winnowed with windows of 4, give the fingerprints
// 17 17 8 39 17 at positions 3 6 8 11 15.
func TestWinnowThePapersExample(t *testing.T) {
	hashes := []uint64{77, 74, 42, 17, 98, 50, 17, 98, 8, 88, 67, 39, 77, 74, 42, 17, 98}
	got := fmt.Sprint(winnowWith(hashes, 4))
	if want := "[{17 3} {17 6} {8 8} {39 11} {17 15}]"; got != want {
		t.Errorf("winnowed %s; the paper has %s", got, want)
	}
}

// Winnowing's guarantee: a run of w+k-1 tokens two streams share gives a fingerprint in
// common, wherever it sits; a stream shorter than a window keeps every hash.
func TestWinnowFindsEveryLongEnoughMatch(t *testing.T) {
	ids := func(seed uint64, n int) []uint64 {
		out := make([]uint64, n)
		for i := range out {
			seed = seed*6364136223846793005 + 1442695040888963407
			out[i] = seed | 1
		}
		return out
	}
	shared := ids(7, window+gramTokens-1)
	for trial := range 200 {
		a := append(append(ids(uint64(trial), trial%50), shared...), ids(uint64(1000+trial), 30)...)
		b := append(append(ids(uint64(2000+trial), 60-trial%40), shared...), ids(uint64(3000+trial), 10)...)
		pa, pb := winnow(gramHashes(a)), winnow(gramHashes(b))
		in := map[uint64]bool{}
		for _, p := range pa {
			in[p.hash] = true
		}
		found := false
		for _, p := range pb {
			found = found || in[p.hash]
		}
		if !found {
			t.Fatalf("trial %d: a shared run of %d tokens left no fingerprint in common", trial, len(shared))
		}
	}
	if n := len(winnow([]uint64{3, 1, 2})); n != 3 {
		t.Errorf("a stream shorter than a window kept %d of its 3 hashes", n)
	}
}
