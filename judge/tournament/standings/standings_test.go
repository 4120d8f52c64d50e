package standings

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/result"
)

// judged is a judged match: the seats and each seat's (score, rank); a fault kind for a seat
// is given as faults[seat].
func judged(id string, seats []int, scores []float64, ranks []int, faults map[int]game.FaultKind) Match {
	r := result.Result{ID: id, Status: result.StatusOK}
	for k := range seats {
		p := result.Player{Score: scores[k], Rank: ranks[k]}
		if kind, ok := faults[k]; ok {
			p.Fault = &game.Fault{Kind: kind}
		}
		r.Players = append(r.Players, p)
	}
	return Match{ID: id, Seats: seats, Result: r}
}

var three = []Entrant{{"ann", "cpp"}, {"bob", "go"}, {"cyd", "java"}}

func TestTwoPlayersByScore(t *testing.T) {
	matches := []Match{
		judged("t-1-1", []int{0, 1}, []float64{12, 8}, []int{1, 2}, nil),
		judged("t-1-2", []int{1, 0}, []float64{10, 10}, []int{1, 1}, nil),
		judged("t-1-3", []int{2, 0}, []float64{0, 20}, []int{2, 1}, map[int]game.FaultKind{0: game.Timeout}),
		judged("t-1-4", []int{1, 2}, []float64{5, 5}, []int{1, 1}, nil),
		{ID: "t-1-5", Seats: []int{2, 1}, Result: result.Failed("t-1-5", "amazes", 1, result.Errorf(result.Infrastructure, "engine down"))},
	}
	got, err := Compute(three, matches, For("amazes"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Row{
		{Rank: 1, Name: "ann", Lang: "cpp", Points: 42, Score: 42, Wins: 2, Draws: 1, Faults: map[string]int{}, Matches: 3},
		{Rank: 2, Name: "bob", Lang: "go", Points: 23, Score: 23, Draws: 2, Losses: 1, Faults: map[string]int{}, Matches: 3},
		{Rank: 3, Name: "cyd", Lang: "java", Points: 5, Score: 5, Draws: 1, Losses: 1, Faults: map[string]int{"timeout": 1}, Matches: 2},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("standings\n got %+v\nwant %+v", got, want)
	}
}

// Four-player matches by result: places give 3, 2, 1, 0 points; players sharing a place share
// the points of the places they span; the match scores break ties between entrants.
func TestFourPlayersByResult(t *testing.T) {
	five := []Entrant{{"a", "cpp"}, {"b", "cpp"}, {"c", "cpp"}, {"d", "cpp"}, {"e", "cpp"}}
	matches := []Match{
		judged("t-1-1", []int{0, 1, 2, 3}, []float64{3, 1, 1, 0}, []int{1, 2, 2, 4}, nil),
		judged("t-1-2", []int{4, 3, 1, 0}, []float64{2, 2, 2, 0}, []int{1, 1, 1, 4}, nil),
	}
	got, err := Compute(five, matches, For("dropblock"))
	if err != nil {
		t.Fatal(err)
	}
	points := map[string]float64{}
	places := map[string][]int{}
	for _, r := range got {
		points[r.Name], places[r.Name] = r.Points, r.Places
	}
	// Match 1: a 3, b and c (2+1)/2 = 1.5 each, d 0. Match 2: e, d and b (3+2+1)/3 = 2 each, a 0.
	if want := map[string]float64{"a": 3, "b": 3.5, "c": 1.5, "d": 2, "e": 2}; !reflect.DeepEqual(points, want) {
		t.Errorf("points %v, want %v", points, want)
	}
	if want := []int{1, 0, 0, 1}; !reflect.DeepEqual(places["a"], want) {
		t.Errorf("a's places %v, want %v", places["a"], want)
	}
	if want := []int{1, 1, 0, 0}; !reflect.DeepEqual(places["b"], want) {
		t.Errorf("b's places %v, want %v", places["b"], want)
	}
	// b 3.5 first; a 3 second; d and e have 2 points and a score of 2 each, so they share
	// third, listed by name; c last.
	var names []string
	var ranks []int
	for _, r := range got {
		names, ranks = append(names, r.Name), append(ranks, r.Rank)
	}
	if !reflect.DeepEqual(names, []string{"b", "a", "d", "e", "c"}) || !reflect.DeepEqual(ranks, []int{1, 2, 3, 3, 5}) {
		t.Errorf("order %v ranks %v", names, ranks)
	}
}

// The standings do not depend on the order the results arrive in.
func TestOrderDoesNotMatter(t *testing.T) {
	var matches []Match
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 40 {
		a, b := r.IntN(3), r.IntN(3)
		if a == b {
			continue
		}
		sa, sb := float64(r.IntN(5)), float64(r.IntN(5))
		ra, rb := 1, 1
		if sa > sb {
			rb = 2
		} else if sb > sa {
			ra = 2
		}
		matches = append(matches, judged(string(rune('a'+i)), []int{a, b}, []float64{sa, sb}, []int{ra, rb}, nil))
	}
	want, _ := Compute(three, matches, For("ontherun"))
	for range 5 {
		r.Shuffle(len(matches), func(i, j int) { matches[i], matches[j] = matches[j], matches[i] })
		got, _ := Compute(three, matches, For("ontherun"))
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("shuffled results gave other standings:\n%+v\n%+v", got, want)
		}
	}
}

func TestBadMatches(t *testing.T) {
	if _, err := Compute(three, []Match{judged("x", []int{0, 7}, []float64{1, 0}, []int{1, 2}, nil)}, For("amazes")); err == nil {
		t.Error("a seat of no entrant accepted")
	}
	if _, err := Compute(three, []Match{judged("z", []int{0, 1}, []float64{1, 0}, []int{1, 3}, nil)}, For("amazes")); err == nil {
		t.Error("a rank beyond the players accepted")
	}
	m := judged("y", []int{0, 1}, []float64{1, 0}, []int{1, 2}, nil)
	m.Seats = []int{0, 1, 2}
	if _, err := Compute(three, []Match{m}, For("amazes")); err == nil {
		t.Error("a result of 2 players for 3 seats accepted")
	}
}
