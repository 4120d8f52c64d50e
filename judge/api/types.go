package api

import (
	"fmt"
	"time"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/result"
	"github.com/botjudge/judge/judge/tournament/standings"
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
	Ladder *Ladder `json:"ladder,omitempty"`
	// Trial is its trial's progress while it is staged, or was.
	Trial   *Trial `json:"trial,omitempty"`
	Created string `json:"created"`
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
	// League is its league and its test against the league's boss, in a contest with leagues.
	League *LeagueProgress `json:"league,omitempty"`
}

// League is a league of a contest's ladder: its name and its boss, the house bot a version of
// the league beats to move up ("" for a top league without one). In a leaderboard, Versions
// counts its versions on the board.
type League struct {
	Name     string `json:"name"`
	Boss     string `json:"boss"`
	Versions int    `json:"versions,omitempty"`
}

// LeagueProgress is a version's league (Top when there is none above) and its test against the
// league's boss, as a trial's: the log-likelihood ratio between its bounds, the matches with
// the boss, and the verdict (Better: it moved up; NotBetter: it stays, and a new version
// tries again; null while undecided, and in a league without a boss).
type LeagueProgress struct {
	Name    string     `json:"name"`
	Boss    string     `json:"boss"`
	Top     bool       `json:"top"`
	LLR     float64    `json:"llr"`
	Bounds  [2]float64 `json:"bounds"`
	Matches int        `json:"matches"`
	Verdict *string    `json:"verdict"`
	// Promoted are the version's moves up, the oldest first.
	Promoted []Promotion `json:"promoted,omitempty"`
}

// Promotion is a version's move up to league To, at At, after Matches matches with the boss
// below it.
type Promotion struct {
	To      string    `json:"to"`
	At      time.Time `json:"at"`
	Matches int       `json:"matches"`
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
	// Seed is the match's seed, to play a match again with another version (another match's
	// seed, to compare them: judge replay diff); nil for one of its own.
	Seed *uint64 `json:"seed,omitempty"`
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

// Leaderboard is the contest's ladder, best first, and what the ladder is doing: Status is
// one of the Ladder* words, Message says it in a sentence ("" while it plays), Next is about
// when its next match starts at the ceiling.
type Leaderboard struct {
	Rows []LeaderboardRow `json:"rows"`
	// Leagues are the contest's leagues, the lowest first (none without leagues); the rows
	// list the top league first.
	Leagues []League   `json:"leagues,omitempty"`
	Status  string     `json:"status"`
	Message string     `json:"message,omitempty"`
	Next    *time.Time `json:"next,omitempty"`
}

// What a ladder is doing.
const (
	LadderPlaying = "playing" // matches are played as the machines allow
	LadderCeiling = "ceiling" // every version has had its share of the hour for now
	LadderPaused  = "paused"  // a round uses the machines
	LadderStopped = "stopped" // the deadline passed
	LadderOff     = "off"     // the organisers have not turned it on
)

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
	// RankRange is the places [best, worst] it could truly hold, at 95%; AboveNext how sure
	// the ladder is that it stands above the next row (null for the last); Provisional while
	// its rating is not settled; Band numbers the runs of rows not told apart, from 1.
	RankRange   [2]int   `json:"rank_range"`
	AboveNext   *float64 `json:"above_next"`
	Provisional bool     `json:"provisional"`
	Band        int      `json:"band"`
	// League is its league's name, in a contest with leagues: every row of a league ranks
	// above the leagues below, and its range stays within its league.
	League string `json:"league,omitempty"`
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
	// Trial is the test a staged version's trial runs (the default's when the organisers set
	// none); AutoPromote, whether a version it finds better becomes active by itself.
	Trial       TrialTest `json:"trial"`
	AutoPromote bool      `json:"auto_promote"`
	// Leagues are the ladder's leagues, the lowest first ([] for none).
	Leagues []League `json:"leagues"`
}

// TrialTest is a trial's sequential test: is the new version elo1 better than the active
// one, or no better than elo0, at error rates alpha and beta.
type TrialTest struct {
	Elo0  float64 `json:"elo0"`
	Elo1  float64 `json:"elo1"`
	Alpha float64 `json:"alpha"`
	Beta  float64 `json:"beta"`
}

// Trial is how far a staged version's trial is: the log-likelihood ratio between its bounds,
// the matches it rests on, and the verdict (Better, NotBetter; null while undecided).
type Trial struct {
	LLR     float64    `json:"llr"`
	Bounds  [2]float64 `json:"bounds"`
	Matches int        `json:"matches"`
	Verdict *string    `json:"verdict"`
	// Against is the active version's number it is compared with.
	Against int `json:"against,omitempty"`
}

// Verdicts of a trial.
const (
	Better    = "better"
	NotBetter = "not_better"
)

// RoundSpec is what an organiser chooses of a round (POST /api/v1/contests/{contest}/rounds,
// judge portal round start): its kind ("test" or "official") and, as a tournament file has
// them, its format, rounds and final.
type RoundSpec struct {
	Kind   string `json:"kind"`
	Format string `json:"format"`
	Rounds int    `json:"rounds"`
	Final  int    `json:"final"`
	// Confidence, UntilSeparated, Top and Budget are a tournament file's (docs/tournament.md):
	// how sure the standings are stated, and a round that plays on until it is sure.
	Confidence     float64 `json:"confidence,omitempty"`
	UntilSeparated bool    `json:"until_separated,omitempty"`
	Top            int     `json:"top,omitempty"`
	Budget         int     `json:"budget,omitempty"`
	// Leagues is which of a contest's leagues enter: LeaguesAll (the default) or LeaguesTop.
	Leagues string `json:"leagues,omitempty"`
}

// Which leagues a round takes (RoundSpec.Leagues).
const (
	LeaguesAll = "all"
	LeaguesTop = "top"
)

// Round is a round as the caller may see it (GET /api/v1/rounds/{id}, each of a contest's,
// and the answer to a RoundSpec): its settings, its frozen versions, its status and, once it
// is done, its standings with their doubt.
type Round struct {
	ID             string             `json:"id"`
	Contest        string             `json:"contest"`
	Kind           string             `json:"kind"`
	Format         string             `json:"format"`
	Rounds         int                `json:"rounds"`
	Final          int                `json:"final"`
	Seed           uint64             `json:"seed"`
	Seats          int                `json:"seats,omitempty"`
	Confidence     float64            `json:"confidence,omitempty"`
	UntilSeparated bool               `json:"until_separated,omitempty"`
	Top            int                `json:"top,omitempty"`
	Budget         int                `json:"budget,omitempty"`
	Leagues        string             `json:"leagues,omitempty"`
	Entrants       []RoundEntrant     `json:"entrants"`
	Status         string             `json:"status"`
	Created        time.Time          `json:"created"`
	Finished       time.Time          `json:"finished,omitzero"`
	Outcome        *standings.Outcome `json:"outcome,omitempty"`
	Error          string             `json:"error,omitempty"`
	// Judged counts its matches judged so far; Playing are the ids of those a judge is playing
	// now, to watch live (GET /api/v1/matches/{id}/live), the first begun first. Only GET
	// /api/v1/rounds/{id} gives them.
	Judged  int      `json:"judged"`
	Playing []string `json:"playing,omitempty"`
	// SoFar are the standings from the matches judged so far while the round runs (points,
	// scores and places, no doubt or ratings: those are the whole round's, in Outcome at its
	// end). Only GET /api/v1/rounds/{id} gives them.
	SoFar []standings.Row `json:"so_far,omitempty"`
}

// RoundEntrant is a version frozen for a round; its id (Sub) and where its sources are kept
// (Source) are an organiser's to see only.
type RoundEntrant struct {
	Login     string `json:"login"`
	Sub       string `json:"sub,omitempty"`
	Version   int    `json:"version"`
	Lang      string `json:"lang"`
	Source    string `json:"source,omitempty"`
	SHA256    string `json:"sha256"`
	Toolchain string `json:"toolchain"`
}

// Rounds are a contest's rounds.
type Rounds struct {
	Rounds []Round `json:"rounds"`
}

// Stats are a contestant's statistics of its own matches (GET /api/v1/contests/{contest}/stats,
// judge contest stats): its results by opponent, by seat, by match length and by version (each
// against the one before), and its own faults by version and kind. Matches counts those with a
// result the judge gave.
type Stats struct {
	Login      string        `json:"login"`
	Matches    int           `json:"matches"`
	ByOpponent []StatsRow    `json:"by_opponent"`
	BySeat     []StatsRow    `json:"by_seat"`
	ByLength   []StatsRow    `json:"by_length"`
	ByVersion  []StatsRow    `json:"by_version"`
	ByOptions  []StatsRow    `json:"by_options"`
	Faults     []StatsFaults `json:"faults"`
	// ClosestCalls are the answers of the actor's that came nearest their CPU limit, over all
	// its matches (the ladder's and the rest), the nearest first, at most ten.
	ClosestCalls []StatsCall `json:"closest_calls"`
}

// StatsCall is one answer's CPU against its limit: in match Match, of version Version, at
// Turn; Share is CPUus over LimitUS.
type StatsCall struct {
	Match   string  `json:"match"`
	Kind    string  `json:"kind"`
	Version int     `json:"version"`
	Turn    int     `json:"turn"`
	CPUus   int64   `json:"cpu_us"`
	LimitUS int64   `json:"limit_us"`
	Share   float64 `json:"share"`
}

// Percent is Share as a person reads it: whole percents, or two decimals under 1% (a fast
// bot's share is not 0%).
func (c StatsCall) Percent() string {
	if c.Share < 0.01 {
		return fmt.Sprintf("%.2f%%", 100*c.Share)
	}
	return fmt.Sprintf("%.0f%%", 100*c.Share)
}

// StatsRow is the results of the matches of one kind: Key names it (an opponent, "seat 0"
// with its part in a game of parts, "seat 0 (Fugitive)", a span of moves, "v3", the options
// played with, "turns=150 time=30s"); Won, Drawn and Lost are against the others of each match (in a match
// of more than two, each other player: above, level, below); Score is the mean score; WinRate
// is (won + drawn/2) over the comparisons; Change, in ByVersion, the win rate's change from the
// version before.
type StatsRow struct {
	Key     string   `json:"key"`
	Matches int      `json:"matches"`
	Won     int      `json:"won"`
	Drawn   int      `json:"drawn"`
	Lost    int      `json:"lost"`
	Score   float64  `json:"score"`
	WinRate float64  `json:"win_rate"`
	Change  *float64 `json:"change,omitempty"`
}

// StatsFaults counts a version's own faults by kind.
type StatsFaults struct {
	Version int            `json:"version"`
	Kinds   map[string]int `json:"kinds"`
}

// Similarity is a contest's integrity check, for its organisers: every two contestants whose
// versions are alike, by their sources (Score: the share of the smaller version's fingerprints
// the other has, 0 to 1, with the passages in common) and by how they play (Behaviour: over
// the positions both met in the contest's replays, the share answered the same; null with too
// few), highest score first; Baseline is any two's behaviour; Notes the files left out.
type Similarity struct {
	Contest  string        `json:"contest"`
	Pairs    []SimilarPair `json:"pairs"`
	Baseline *float64      `json:"behaviour_baseline"`
	Notes    []string      `json:"notes"`
	// Versions and Replays are what was compared: every version of every contestant, and the
	// replays read so far (the check reads them in the background as matches are judged).
	Versions int `json:"versions"`
	Replays  int `json:"replays"`
	// Excluded are the contestants left out of the official round.
	Excluded []string `json:"excluded"`
}

// SimilarPair is two contestants found alike (Similarity): their most similar versions
// (VersionA, VersionB: the numbers), the passages in common, the positions both met and some
// matches where A answered as B did, and the organisers' verdict ("", "cleared", "confirmed").
type SimilarPair struct {
	A         string          `json:"a"`
	B         string          `json:"b"`
	Score     float64         `json:"score"`
	Behaviour *float64        `json:"behaviour"`
	VersionA  int             `json:"version_a,omitempty"`
	VersionB  int             `json:"version_b,omitempty"`
	Regions   []SimilarRegion `json:"regions"`
	Compared  int             `json:"compared"`
	Matches   []string        `json:"matches"`
	Verdict   string          `json:"verdict"`
}

// SimilarRegion is a passage of A's version (lines FromA to ToA of FileA) that B's has too.
type SimilarRegion struct {
	FileA string `json:"file_a"`
	FromA int    `json:"from_a"`
	ToA   int    `json:"to_a"`
	FileB string `json:"file_b"`
	FromB int    `json:"from_b"`
	ToB   int    `json:"to_b"`
}

// SimilarVerdict is an organiser's verdict on a pair (PUT .../similar/{a}/{b}): "cleared",
// "confirmed" or "" (none), and Exclude, contestants of the pair to leave out of the official
// round (or, with Include, to let in again).
type SimilarVerdict struct {
	Verdict string   `json:"verdict"`
	Exclude []string `json:"exclude,omitempty"`
	Include []string `json:"include,omitempty"`
}
