package standings

// Outcome is what a tournament came to.
type Outcome struct {
	Tournament string `json:"tournament"`
	Game       string `json:"game"`
	Format     string `json:"format"`
	// Matches counts the matches scheduled, Judged those with a result that counts.
	Matches int `json:"matches"`
	Judged  int `json:"judged"`
	// Failed are the matches the judge failed on every attempt: they count for no one.
	Failed []string `json:"failed"`
	// Broken are the entrants that did not compile.
	Broken []Broken `json:"broken"`
	// Standings rank every entrant, best first.
	Standings []Rated `json:"standings"`
	// Confidence is the confidence of the standings' rank ranges; Unseparated, of a round
	// played until it was sure, the adjacent pairs it could not separate.
	Confidence  float64     `json:"confidence"`
	Unseparated [][2]string `json:"unseparated,omitzero"`
}

// Broken is an entrant that did not compile, with its compiler's log.
type Broken struct {
	Name     string `json:"name"`
	Log      string `json:"log"`
	Excluded bool   `json:"excluded"`
}

// Rated is an entrant's standing and rating.
type Rated struct {
	Row
	Rating Rating `json:"rating"`
}

// Rating is an entrant's rating: for two-player games a Bradley-Terry fit of all the matches
// (which does not depend on their order) and Elo (played in match order, as a live ladder
// would), both on the Elo scale; for games of more players OpenSkill's mu and sigma, and the
// conservative mu - 3 sigma.
type Rating struct {
	BradleyTerry *float64 `json:"bradley_terry,omitempty"`
	Elo          *float64 `json:"elo,omitempty"`
	Mu           *float64 `json:"mu,omitempty"`
	Sigma        *float64 `json:"sigma,omitempty"`
	Ordinal      *float64 `json:"ordinal,omitempty"`
}
