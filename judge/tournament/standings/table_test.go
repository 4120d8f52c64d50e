package standings

import (
	"strings"
	"testing"
)

// The table says each rank with the places it could truly hold, how sure the round is of
// each row above the next, and what it could not separate; the CSV gives the same as
// numbers; a game of more players has a column of each place instead of wins and losses.
func TestTableAndCSV(t *testing.T) {
	bt, above := 1600.0, 0.926
	two := Outcome{Tournament: "r", Game: "amazes", Format: "roundrobin", Matches: 2, Judged: 2, Confidence: 0.95,
		Unseparated: [][2]string{{"a", "b"}},
		Standings: []Rated{
			{Row: Row{Rank: 1, RankRange: [2]int{1, 2}, AboveNext: &above, Name: "a", Lang: "cpp", Points: 3, Score: 3, Matches: 2, Wins: 1, Draws: 0, Losses: 1}, Rating: Rating{BradleyTerry: &bt}},
			{Row: Row{Rank: 2, RankRange: [2]int{2, 2}, Name: "b", Lang: "go", Points: 1, Score: 1, Matches: 2, Faults: map[string]int{"timeout": 1}}},
		}}
	var w strings.Builder
	if err := WriteTable(&w, two); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"RANK     NAME", "1 (1-2)  a", "92%", "timeout:1", "at 95%", "not separated at 95% within the budget: a and b"} {
		if !strings.Contains(w.String(), want) {
			t.Errorf("the table has no %q:\n%s", want, w.String())
		}
	}
	if strings.Contains(w.String(), "equal in POINTS") {
		t.Errorf("a table with no tie on points explains the tiebreak:\n%s", w.String())
	}
	w.Reset()
	if err := WriteCSV(&w, two); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(w.String()), "\n")
	if len(lines) != 3 || lines[0] != "rank,rank_best,rank_worst,name,lang,points,score,matches,wins,draws,losses,faults,rating,above_next" ||
		lines[1] != "1,1,2,a,cpp,3,3,2,1,0,1,,1600,0.9260" || lines[2] != "2,2,2,b,go,1,1,2,0,0,0,timeout:1,," {
		t.Errorf("the CSV:\n%s", w.String())
	}
	// Four on 9 points: the tiebreak is in the table, and said.
	tied := Outcome{Standings: []Rated{
		{Row: Row{Rank: 1, Name: "a", Points: 9, Score: 0.5}}, {Row: Row{Rank: 1, Name: "b", Points: 9, Score: 0.5}},
		{Row: Row{Rank: 3, Name: "c", Points: 9, Score: -0.5}}, {Row: Row{Rank: 3, Name: "d", Points: 9, Score: -0.5}},
	}}
	w.Reset()
	WriteTable(&w, tied)
	for _, want := range []string{"SCORE", "0.5", "-0.5", "equal in POINTS: ranked by SCORE"} {
		if !strings.Contains(w.String(), want) {
			t.Errorf("the table of a tie on points has no %q:\n%s", want, w.String())
		}
	}
	four := Outcome{Standings: []Rated{{Row: Row{Rank: 1, Name: "a", Places: []int{2, 0, 1, 0}}}}}
	w.Reset()
	WriteCSV(&w, four)
	if !strings.HasPrefix(w.String(), "rank,rank_best,rank_worst,name,lang,points,score,matches,1st,2nd,3rd,4th,faults") {
		t.Errorf("the CSV of a game of four:\n%s", w.String())
	}
}
