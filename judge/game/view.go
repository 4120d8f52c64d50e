package game

// Viewer is a match that can show its state to people (judge view, judge replay html). It is
// optional: a game without it is shown as its exchanges only.
type Viewer interface {
	// View is the state of the match now: after the last Reply, or before the first request.
	// It must not change the match, and what it returns must not change afterwards (it is
	// encoded later, once per distinct frame).
	View() View
}

// View is one moment of a match as a viewer draws it.
type View struct {
	// Scores are each player's points at this moment, for the score chart.
	Scores []float64 `json:"scores"`
	// State is the game's own picture of the moment, encoded as JSON for its renderer
	// (judge/view/web/games/<game>.js). It holds the whole truth (hidden information
	// included): the renderer decides what to show.
	State any `json:"state"`
}
