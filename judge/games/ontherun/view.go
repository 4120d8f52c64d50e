package ontherun

import (
	"slices"

	"github.com/botjudge/judge/judge/game"
)

// viewState is the match as the viewer (judge/view/web/games/ontherun.js) draws it, the whole
// truth: the map itself is the replay header's world (World). Cities are labels 1..n; 0 is a
// piece not yet placed.
type viewState struct {
	// Turn is the turn under way, 0 while the pieces are placed.
	Turn int `json:"turn"`
	// Next is who answers next: "detectives" or "fugitive", or "over".
	Next string `json:"next"`
	// Fugitive is the fugitive's city; Detectives the cities of detectives 1 to 4.
	Fugitive   int                `json:"f"`
	Detectives [numDetectives]int `json:"d"`
	// Trail is every city the fugitive has been in, its start first; By the transport letter
	// (C, T, P) of each move since, By[k] taking it from Trail[k] to Trail[k+1].
	Trail []int  `json:"trail"`
	By    string `json:"by"`
	// Told is the last line the Detectives were told of the fugitive: its start city, a
	// transport letter, or on an announcement turn the letter and the city ("T 8").
	Told string `json:"told,omitempty"`
	// Known is the city the Detectives last heard the fugitive was in (its start or an
	// announcement), KnownTurn the turn they heard it (0 for the start); Heard is the number of
	// announcements they have been told.
	Known     int `json:"known,omitempty"`
	KnownTurn int `json:"kt"`
	Heard     int `json:"heard"`
	// Catch is what an arrest now would score (Fugitive, Detectives), while the game runs.
	Catch []float64 `json:"catch,omitempty"`
	// Caught says the fugitive was arrested; End how the game ended.
	Caught bool   `json:"caught,omitempty"`
	End    string `json:"end,omitempty"`
}

// View is the match now: the points (0-0 until the game ends, then the result's) and the
// pieces, the fugitive's trail and what the Detectives know of it.
func (m *match) View() game.View {
	s := viewState{
		Turn: m.turn, Fugitive: m.fugitive, Detectives: m.detectives,
		Trail: slices.Clone(m.trail), By: m.by, Told: m.told,
		Known: m.known, KnownTurn: m.knownTurn, Heard: m.knownTurn / turnsPerRound,
		Caught: m.caught, End: m.ending,
	}
	if s.Trail == nil {
		s.Trail = []int{}
	}
	switch m.phase {
	case detStart, detMove:
		s.Next = "detectives"
	case fugStart, fugMove:
		s.Next = "fugitive"
	default:
		s.Next = "over"
	}
	if m.phase != over {
		s.Catch = []float64{float64(s.Heard), float64(totalPoints - s.Heard)}
	}
	return game.View{Scores: []float64{m.scores[0], m.scores[1]}, State: s}
}
