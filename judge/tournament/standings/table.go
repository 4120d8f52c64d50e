package standings

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
)

// columns are the columns of the table and the CSV.
func columns(out Outcome) []string {
	cols := []string{"rank", "name", "lang", "points", "score", "matches"}
	if places(out) == 0 {
		cols = append(cols, "wins", "draws", "losses")
	} else {
		for p := 1; p <= places(out); p++ {
			cols = append(cols, ordinal(p))
		}
	}
	return append(cols, "faults", "rating", "above_next")
}

func places(out Outcome) int {
	n := 0
	for _, r := range out.Standings {
		n = max(n, len(r.Places))
	}
	return n
}

func ordinal(n int) string {
	switch n {
	case 1:
		return "1st"
	case 2:
		return "2nd"
	case 3:
		return "3rd"
	}
	return strconv.Itoa(n) + "th"
}

func cells(out Outcome, r Rated) []string {
	num := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	row := []string{rankCell(r.Row), r.Name, r.Lang, num(r.Points), num(r.Score), strconv.Itoa(r.Matches)}
	if n := places(out); n == 0 {
		row = append(row, strconv.Itoa(r.Wins), strconv.Itoa(r.Draws), strconv.Itoa(r.Losses))
	} else {
		for p := 0; p < n; p++ {
			c := 0
			if p < len(r.Places) {
				c = r.Places[p]
			}
			row = append(row, strconv.Itoa(c))
		}
	}
	var faults []string
	for k, n := range r.Faults {
		faults = append(faults, fmt.Sprintf("%s:%d", k, n))
	}
	sort.Strings(faults)
	row = append(row, strings.Join(faults, " "))
	rt := r.Rating
	switch {
	case rt.BradleyTerry != nil:
		row = append(row, fmt.Sprintf("%.0f", *rt.BradleyTerry))
	case rt.Mu != nil:
		row = append(row, fmt.Sprintf("%.2f (mu %.2f, sigma %.2f)", *rt.Ordinal, *rt.Mu, *rt.Sigma))
	default:
		row = append(row, "")
	}
	above := "-"
	if r.AboveNext != nil {
		above = fmt.Sprintf("%.0f%%", 100*math.Floor(100**r.AboveNext)/100)
	}
	return append(row, above)
}

// rankCell is a rank with the places it could truly hold when they are more than it: "2 (1-4)".
func rankCell(r Row) string {
	if rr := r.RankRange; rr[0] != 0 && rr != [2]int{r.Rank, r.Rank} {
		return fmt.Sprintf("%d (%d-%d)", r.Rank, rr[0], rr[1])
	}
	return strconv.Itoa(r.Rank)
}

// WriteTable prints the outcome for a person: the table of `judge tournament` and `judge
// portal round show`, with its doubt and what the round could not do.
func WriteTable(w io.Writer, out Outcome) error {
	fmt.Fprintf(w, "%s  %s  %s: %d of %d matches judged\n", out.Tournament, out.Game, out.Format, out.Judged, out.Matches)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.ToUpper(strings.Join(columns(out), "\t")))
	for _, r := range out.Standings {
		fmt.Fprintln(tw, strings.Join(cells(out, r), "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if tiedOnPoints(out) {
		fmt.Fprintln(w, "equal in POINTS: ranked by SCORE, the sum of their match scores; equal in both, they share a rank")
	}
	if out.Confidence > 0 {
		fmt.Fprintf(w, "in brackets: the places each could truly hold, at %s; ABOVE_NEXT: how sure the round is that it stands above the next (docs/tournament.md)\n", percent(out.Confidence))
	}
	if len(out.Unseparated) > 0 {
		var pairs []string
		for _, p := range out.Unseparated {
			pairs = append(pairs, p[0]+" and "+p[1])
		}
		fmt.Fprintf(w, "not separated at %s within the budget: %s\n", percent(out.Confidence), strings.Join(pairs, "; "))
	}
	for _, b := range out.Broken {
		first, _, _ := strings.Cut(strings.TrimSpace(b.Log), "\n")
		fmt.Fprintf(w, "%s did not compile: %s\n", b.Name, first)
	}
	if len(out.Failed) > 0 {
		fmt.Fprintf(w, "the judge failed %d matches on every attempt (they count for no one; `judge tournament retry --failed` plays them again): %s\n",
			len(out.Failed), strings.Join(out.Failed, " "))
	}
	return nil
}

// tiedOnPoints is whether two rows have the same points, so that the tiebreak decided their order.
func tiedOnPoints(out Outcome) bool {
	for i := 1; i < len(out.Standings); i++ {
		if out.Standings[i].Points == out.Standings[i-1].Points {
			return true
		}
	}
	return false
}

// percent is a confidence as people write it: 95%, 99.9%.
func percent(c float64) string { return strconv.FormatFloat(100*c, 'f', -1, 64) + "%" }

// WriteCSV writes the table's columns, the rank a number and the places it could
// hold in two more, rank_best and rank_worst, and above_next a fraction (empty for none).
func WriteCSV(w io.Writer, out Outcome) error {
	cw := csv.NewWriter(w)
	cols := columns(out)
	cw.Write(append(cols[:1:1], append([]string{"rank_best", "rank_worst"}, cols[1:]...)...))
	for _, r := range out.Standings {
		row := cells(out, r)
		row[0] = strconv.Itoa(r.Rank)
		row[len(row)-1] = ""
		if r.AboveNext != nil {
			row[len(row)-1] = strconv.FormatFloat(*r.AboveNext, 'f', 4, 64)
		}
		cw.Write(append(row[:1:1], append([]string{strconv.Itoa(r.RankRange[0]), strconv.Itoa(r.RankRange[1])}, row[1:]...)...))
	}
	cw.Flush()
	return cw.Error()
}
