package api

import (
	"time"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/result"
)

// A version's statuses (docs/portal.md), as the store has them (store.Status): it stays in
// one of the last four by itself.
const (
	StatusQueued       = "queued"
	StatusCompiling    = "compiling"
	StatusValidating   = "validating"
	StatusCompileError = "compile_error"
	StatusRejected     = "rejected"
	StatusReady        = "ready"
	StatusActive       = "active"
)

// Settled reports whether a version's status is one it stays in by itself.
func Settled(status string) bool {
	return status != StatusQueued && status != StatusCompiling && status != StatusValidating
}

// Submission is a version: GET /api/v1/submissions/{id}, and each of a list's.
type Submission struct {
	ID         string        `json:"id"`
	Version    int           `json:"version"`
	Login      string        `json:"login"`
	Lang       string        `json:"lang"`
	Files      []string      `json:"files"`
	Status     string        `json:"status"`
	Build      *result.Build `json:"build"`
	Validation *Validation   `json:"validation"`
	Error      string        `json:"error,omitempty"`
	// Disabled is why the ladder took the version off, and the matches that counted.
	Disabled *Disabled `json:"disabled"`
	// Ladder is the version's place on the ladder, or on trial there (staged).
	Ladder  *Ladder `json:"ladder,omitempty"`
	Created string  `json:"created"`
}

// Validation is a version's validation match, and its own fault there.
type Validation struct {
	Match string      `json:"match"`
	Fault *game.Fault `json:"fault,omitempty"`
}

// Disabled is why the ladder took a version off, and the matches that counted.
type Disabled struct {
	Reason  string    `json:"reason"`
	Matches []string  `json:"matches"`
	At      time.Time `json:"at"`
}

// Ladder is a version on the ladder.
type Ladder struct {
	Staged  bool               `json:"staged"`
	Mu      float64            `json:"mu"`
	Sigma   float64            `json:"sigma"`
	Rating  float64            `json:"rating"`
	Matches int                `json:"matches"`
	Versus  map[string]*Record `json:"versus"`
	// Queue is its place in the ladder's queue, while it plays.
	Queue *QueuePlace `json:"queue,omitempty"`
}

// Record is a version's results against one opponent.
type Record struct {
	Won   int `json:"won"`
	Drawn int `json:"drawn"`
	Lost  int `json:"lost"`
}

// QueuePlace is a version's place in the ladder's queue: 1 is seeded next; WaitSeconds is the
// expected wait from the ladder's pace (0 while it is not known); Behind is true below the
// guaranteed rate.
type QueuePlace struct {
	Place       int  `json:"place"`
	Pending     bool `json:"pending"`
	WaitSeconds int  `json:"wait_seconds"`
	Behind      bool `json:"behind"`
}

// Uploaded is the answer to an upload (202): the new version, queued.
type Uploaded struct {
	ID      string `json:"id"`
	Version int    `json:"version"`
	Status  string `json:"status"`
}

// Submissions is a page of a contestant's versions, the newest first; Next is the cursor of
// the following page, absent on the last.
type Submissions struct {
	Submissions []Submission `json:"submissions"`
	Next        string       `json:"next,omitempty"`
}

// MatchRequest asks for a test match: POST /api/v1/contests/{contest}/matches.
type MatchRequest struct {
	// Opponents are "house:NAME" or a contestant's login each.
	Opponents []string `json:"opponents"`
}

// MatchAsked is the answer to a MatchRequest (202).
type MatchAsked struct {
	ID string `json:"id"`
}

// Match is a match as the caller may see it: the result with only the caller's stderr.
type Match struct {
	ID      string         `json:"id"`
	Kind    string         `json:"kind"`
	Players []string       `json:"players"`
	Status  string         `json:"status"`
	Seed    uint64         `json:"seed"`
	Result  *result.Result `json:"result"`
	Created string         `json:"created"`
}

// Matches is a page of matches, the newest first.
type Matches struct {
	Matches []Match `json:"matches"`
	Next    string  `json:"next,omitempty"`
}

// Leaderboard is the contest's ladder, best first.
type Leaderboard struct {
	Rows []LeaderboardRow `json:"rows"`
}

// LeaderboardRow is a contestant's active version on the ladder.
type LeaderboardRow struct {
	Rank     int     `json:"rank"`
	Login    string  `json:"login"`
	Version  int     `json:"version"`
	Lang     string  `json:"lang"`
	Mu       float64 `json:"mu"`
	Sigma    float64 `json:"sigma"`
	Rating   float64 `json:"rating"`
	Matches  int     `json:"matches"`
	Disabled bool    `json:"disabled"`
	// Faults counts its recent matches with a fault of its own.
	Faults int `json:"faults"`
}

// Contest is a contest as a contestant sees it (no sources): GET /api/v1/contests/{contest}.
// GameAdded says that its game is an organiser's, whose directory a contestant's judge needs
// (GET .../game); Players, how many its matches seat.
type Contest struct {
	Name          string            `json:"name"`
	Game          string            `json:"game"`
	GameAdded     bool              `json:"game_added"`
	Options       map[string]string `json:"options"`
	Players       int               `json:"players"`
	Langs         []string          `json:"langs"`
	House         []string          `json:"house"`
	TestQuota     int               `json:"test_quota"`
	UploadQuota   int               `json:"upload_quota"`
	PeerMatches   bool              `json:"peer_matches"`
	PublishHouse  bool              `json:"publish_house"`
	Deadline      *string           `json:"deadline"`
	ClosedAt      *string           `json:"closed_at"`
	Ladder        bool              `json:"ladder"`
	InFlight      int               `json:"in_flight"`
	DisableFaults int               `json:"disable_faults"`
	DisableWindow int               `json:"disable_window"`
	MinRate       int               `json:"min_rate"`
	MaxRate       int               `json:"max_rate"`
	TestRounds    []time.Time       `json:"test_rounds"`
}
