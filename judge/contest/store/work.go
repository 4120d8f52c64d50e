package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/botjudge/judge/judge/queue/kv"

	"github.com/botjudge/judge/judge/game"
	"github.com/botjudge/judge/judge/result"
)

// Status is where a submission is on its way to being playable.
type Status string

// The statuses of a submission, in the order it goes through them.
const (
	Queued       Status = "queued"        // its build job is on the queue
	Compiling    Status = "compiling"     // a daemon compiles it
	CompileError Status = "compile_error" // it does not compile (Build.Log says why)
	Validating   Status = "validating"    // its validation match is on the queue or playing
	Rejected     Status = "rejected"      // its validation match found a fault
	Ready        Status = "ready"         // it passed validation: it can be made active
	Active       Status = "active"        // it is the contestant's active version
)

// Submission is one version of a contestant's bot.
type Submission struct {
	ID      string    `json:"id"`
	Contest string    `json:"contest"`
	Login   string    `json:"login"`
	Version int       `json:"version"`
	Lang    string    `json:"lang"`
	Files   []string  `json:"files"`
	Source  string    `json:"source"` // the object holding the files
	Status  Status    `json:"status"`
	Created time.Time `json:"created"`
	// Build is the compilation's report, once it is known.
	Build *result.Build `json:"build,omitempty"`
	// Validation is the validation match, once there is one.
	Validation *Validation `json:"validation,omitempty"`
	// Error is why the judge could not build or validate it (not the contestant's fault). A
	// validation the judge could not play leaves it validating: Retries counts the matches
	// it failed, and RetryAt is when the portals play it again (Revalidations).
	Error   string    `json:"error,omitempty"`
	Retries int       `json:"retries,omitempty"`
	RetryAt time.Time `json:"retry_at,omitzero"`
}

// Validation is a submission's validation match and what it found.
type Validation struct {
	Match string      `json:"match"`
	Fault *game.Fault `json:"fault,omitempty"`
}

// Match is a validation or test match a contestant asked for.
type Match struct {
	ID      string    `json:"id"`
	Contest string    `json:"contest"`
	Kind    string    `json:"kind"` // validation or test
	Owner   string    `json:"owner"`
	Seats   []Seat    `json:"seats"`
	Seed    uint64    `json:"seed"`
	Created time.Time `json:"created"`
	// Options are the contest's options the match was played with, empty for none (the
	// game's defaults); a record of before they were kept has none (nil).
	Options map[string]string `json:"options,omitzero"`
	// Result is the judge's result, once published; Replay the object holding the replay.
	Result *result.Result `json:"result,omitempty"`
	Replay string         `json:"replay,omitempty"`
}

// Seat is one player of a match: a contestant's version or a house bot.
type Seat struct {
	Login      string `json:"login,omitempty"`
	House      string `json:"house,omitempty"`
	Submission string `json:"submission,omitempty"`
}

// Name is how the seat is named in the match: the login, or house:NAME.
func (s Seat) Name() string {
	if s.House != "" {
		return "house:" + s.House
	}
	return s.Login
}

// Match kinds.
const (
	KindValidation = "validation"
	KindTest       = "test"
	KindLadder     = "ladder"
	KindRound      = "round" // a match of a test competition or the official round
)

// NewID is a new random id, valid as a key part and as a job id.
func NewID(prefix string) string {
	b := make([]byte, 10)
	rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

func subKey(id string) string   { return "sub." + id }
func matchKey(id string) string { return "match." + id }

// index keys list a contestant's submissions and matches, and a contest's matches for its
// organisers. A match's name its kind, so that a list of one kind reads only its own keys.
// Each is created once and never written again: lists are paged by their keys' revisions
// (page.go).
func subIndex(contest, login string, version int) string {
	return fmt.Sprintf("own.%s.%s.s.%06d", contest, login, version)
}
func matchIndex(contest, login, kind, id string) string {
	return fmt.Sprintf("own.%s.%s.m.%s.%s", contest, login, kindToken(kind), id)
}
func allMatchIndex(contest, kind, id string) string {
	return fmt.Sprintf("all.%s.m.%s.%s", contest, kindToken(kind), id)
}

// legacyMatchIndex is how a contestant's match was listed before the keys named its kind (and
// the organisers' list had keys of its own); a season in progress has these, and they are
// read beside the new ones until they expire with their matches.
func legacyMatchIndex(contest, login, id string) string {
	return fmt.Sprintf("own.%s.%s.m.%s", contest, login, id)
}

// kindToken is a match's kind as a key's part; a kind the portal does not make (none does)
// still makes a key.
func kindToken(kind string) string {
	if ValidName("kind", kind) != nil {
		return "other"
	}
	return kind
}

// Kinds are the kinds of match a list may be filtered by.
var Kinds = []string{KindTest, KindLadder, KindValidation, KindRound}

// AddSubmission numbers s as the user's next version and stores it (status queued), once: its id
// is sub.ID when set (a fresh NewID, so that its Source can name it), else a new one.
func (s *Store) AddSubmission(ctx context.Context, sub Submission) (Submission, error) {
	u, err := update(ctx, s, userKey(sub.Contest, sub.Login), func(u *User) error {
		u.Versions++
		return nil
	})
	if err != nil {
		return sub, err
	}
	if sub.ID == "" {
		sub.ID = NewID("s")
	}
	sub.Version, sub.Status, sub.Created = u.Versions, Queued, s.now().UTC()
	if err := s.create(ctx, subKey(sub.ID), sub); err != nil {
		return sub, err
	}
	if err := s.createIndex(ctx, subIndex(sub.Contest, sub.Login, sub.Version), sub.ID); err != nil {
		return sub, err
	}
	return sub, nil
}

// Submission reads a submission.
func (s *Store) Submission(ctx context.Context, id string) (Submission, error) {
	var sub Submission
	if !validID(id) {
		return sub, ErrNotFound
	}
	_, err := s.get(ctx, subKey(id), &sub)
	return sub, err
}

// UpdateSubmission changes a submission safely against other portals.
func (s *Store) UpdateSubmission(ctx context.Context, id string, change func(*Submission) error) (Submission, error) {
	if !validID(id) {
		return Submission{}, ErrNotFound
	}
	return update(ctx, s, subKey(id), change)
}

// Submissions lists a contestant's submissions, newest first; login "*" lists everyone's.
func (s *Store) Submissions(ctx context.Context, contest, login string) ([]Submission, error) {
	p, err := s.SubmissionPage(ctx, contest, login, List{})
	return p.Items, err
}

// SubmissionPage is a page of a contestant's submissions, newest first; login "*" pages
// everyone's.
func (s *Store) SubmissionPage(ctx context.Context, contest, login string, l List) (Page[Submission], error) {
	if err := validList(contest, login); err != nil {
		return Page[Submission]{}, err
	}
	return page(ctx, s, listName("s", contest, login), l, func() resolver[Submission] {
		return func(ctx context.Context, _ *memIndex, e indexed) (Submission, bool, error) {
			sub, err := s.Submission(ctx, e.id)
			if errors.Is(err, ErrNotFound) {
				return sub, false, nil
			}
			return sub, err == nil && sub.Contest == contest, err
		}
	})
}

// validList checks a list's contest and login ("*" for everyone's) before they go into a
// key filter, where a wildcard or a dot would list what is not theirs.
func validList(contest, login string) error {
	if err := ValidName("contest", contest); err != nil {
		return err
	}
	if login == "*" {
		return nil
	}
	return ValidName("login", login)
}

// Activate makes a ready submission the user's active version.
func (s *Store) Activate(ctx context.Context, sub Submission) (User, error) {
	if sub.Status != Ready && sub.Status != Active {
		return User{}, fmt.Errorf("%w: version %d is %s; only a version that passed validation (ready) can be made active",
			ErrConflict, sub.Version, sub.Status)
	}
	return update(ctx, s, userKey(sub.Contest, sub.Login), func(u *User) error {
		u.Active = sub.ID
		if u.Staged == sub.ID {
			u.Staged = ""
		}
		return nil
	})
}

// Stage puts a ready version on trial on the ladder, in place of any the user had there.
func (s *Store) Stage(ctx context.Context, sub Submission) (User, error) {
	if sub.Status != Ready {
		return User{}, fmt.Errorf("%w: version %d is %s; only a version that passed validation and is not active (ready) can be tried",
			ErrConflict, sub.Version, sub.Status)
	}
	return update(ctx, s, userKey(sub.Contest, sub.Login), func(u *User) error {
		u.Staged = sub.ID
		return nil
	})
}

// ErrConflict is a change the state does not allow now (409).
var ErrConflict = errors.New("conflict")

// AddMatch stores a new match, listed for those who may read it; a match stored already is
// listed and ErrExists returned.
func (s *Store) AddMatch(ctx context.Context, m Match) (Match, error) {
	if m.ID == "" {
		m.ID = NewID("m")
	}
	m.Created = s.now().UTC()
	made := s.create(ctx, matchKey(m.ID), m)
	if made != nil && !errors.Is(made, ErrExists) {
		return m, made
	}
	// Listed even when it existed: whoever stored it may have stopped before listing it.
	keys := []string{allMatchIndex(m.Contest, m.Kind, m.ID)}
	for _, login := range m.Readers() {
		keys = append(keys, matchIndex(m.Contest, login, m.Kind, m.ID))
	}
	for _, k := range keys {
		if err := s.createIndex(ctx, k, m.ID); err != nil && !errors.Is(err, ErrExists) {
			return m, err
		}
	}
	return m, made
}

// Readers are the contestants who may read a match (organisers aside): the one who asked
// for it, and for a ladder match every contestant it seats. A round's match is everyone's
// in the contest to watch; Readers are those who find it in their own list.
func (m Match) Readers() []string {
	var out []string
	if m.Owner != "" {
		out = append(out, m.Owner)
	}
	if m.Kind == KindLadder || m.Kind == KindRound {
		for _, seat := range m.Seats {
			if seat.Login != "" && seat.House == "" && !slices.Contains(out, seat.Login) {
				out = append(out, seat.Login)
			}
		}
	}
	return out
}

// Match reads a match.
func (s *Store) Match(ctx context.Context, id string) (Match, error) {
	var m Match
	if !validID(id) {
		return m, ErrNotFound
	}
	_, err := s.get(ctx, matchKey(id), &m)
	return m, err
}

// UpdateMatch changes a match safely against other portals.
func (s *Store) UpdateMatch(ctx context.Context, id string, change func(*Match) error) (Match, error) {
	if !validID(id) {
		return Match{}, ErrNotFound
	}
	return update(ctx, s, matchKey(id), change)
}

// Matches lists the matches a contestant may read, newest first; login "*" lists everyone's.
func (s *Store) Matches(ctx context.Context, contest, login string) ([]Match, error) {
	return s.MatchesWhere(ctx, contest, login, "", nil)
}

// MatchesWhere lists the matches of kind ("" every kind) a contestant may read, newest first
// (login "*": everyone's), of those whose id keep keeps (nil keeps all): only those records
// are read.
func (s *Store) MatchesWhere(ctx context.Context, contest, login, kind string, keep func(id string) bool) ([]Match, error) {
	p, err := s.matchPage(ctx, contest, login, List{Kind: kind}, keep)
	return p.Items, err
}

// MatchPage is a page of the matches a contestant may read, newest first; login "*" pages
// everyone's.
func (s *Store) MatchPage(ctx context.Context, contest, login string, l List) (Page[Match], error) {
	return s.matchPage(ctx, contest, login, l, nil)
}

func (s *Store) matchPage(ctx context.Context, contest, login string, l List, keep func(string) bool) (Page[Match], error) {
	if err := validList(contest, login); err != nil {
		return Page[Match]{}, err
	}
	if l.Kind != "" && !slices.Contains(Kinds, l.Kind) {
		return Page[Match]{}, fmt.Errorf("%w: kind %q: want one of %v", ErrInvalid, l.Kind, Kinds)
	}
	return page(ctx, s, listName("m", contest, login), l, func() resolver[Match] {
		seen := map[string]bool{}
		return func(ctx context.Context, idx *memIndex, e indexed) (Match, bool, error) {
			if seen[e.id] || (keep != nil && !keep(e.id)) {
				return Match{}, false, nil
			}
			m, err := s.Match(ctx, e.id)
			if errors.Is(err, ErrNotFound) {
				idx.drop(e.seq) // expired: its keys went first
				return m, false, nil
			}
			if err != nil || m.Contest != contest {
				return m, false, err
			}
			if e.kind == "" { // a legacy key
				if ok, err := s.legacyListed(ctx, m, l.Kind, login, e.login); !ok || err != nil {
					return m, false, err
				}
			}
			seen[e.id] = true
			return m, true, nil
		}
	})
}

// legacyListed says whether a match found under a legacy key (that of login's list) belongs
// in the list of kind of list ("*": everyone's), which the key alone does not say: it must
// be of the kind, listed once (everyone's list finds it under each of its readers' keys,
// and keeps the first reader's), and not listed anew too (a portal that stored it again
// since), or it would be on two pages.
func (s *Store) legacyListed(ctx context.Context, m Match, kind, list, login string) (bool, error) {
	if kind != "" && m.Kind != kind {
		return false, nil
	}
	again := allMatchIndex(m.Contest, m.Kind, m.ID)
	if list != "*" {
		again = matchIndex(m.Contest, list, m.Kind, m.ID)
	} else if rs := m.Readers(); len(rs) == 0 || rs[0] != login {
		return false, nil
	}
	_, err := s.kv.Get(ctx, again)
	if errors.Is(err, kv.ErrKeyNotFound) {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("store: %s: %w", again, err)
	}
	return false, nil
}

// ErrQuota is a test match or an upload past the hour's quota; Retry says when the next hour
// begins.
type ErrQuota struct {
	What  Quota
	Limit int
	Retry time.Duration
}

func (e *ErrQuota) Error() string {
	return fmt.Sprintf("the %s quota of this hour (%d) is used up; try again in %s", e.What, e.Limit, e.Retry.Round(time.Second))
}

// Quota is what a quota counts.
type Quota string

// The quotas.
const (
	TestMatches Quota = "test-match"
	Uploads     Quota = "upload"
)

// TakeQuota counts one test match of the user's in the current hour, across every portal,
// or returns *ErrQuota when limit are counted already.
func (s *Store) TakeQuota(ctx context.Context, contest, login string, limit int) error {
	return s.Take(ctx, TestMatches, contest, login, limit)
}

// Take counts one of what in the user's current hour, across every portal, or returns
// *ErrQuota when limit are counted already.
func (s *Store) Take(ctx context.Context, what Quota, contest, login string, limit int) error {
	now := s.now().UTC()
	hour := now.Truncate(time.Hour)
	key := fmt.Sprintf("quota.%s.%s.%s", contest, login, hour.Format("2006010215"))
	if what != TestMatches { // the test matches' keys are as they were before there were others
		key = fmt.Sprintf("quota.%s.%s.%s.%s", contest, login, what, hour.Format("2006010215"))
	}
	if err := s.create(ctx, key, 0); err != nil && !errors.Is(err, ErrExists) {
		return err
	}
	_, err := update(ctx, s, key, func(n *int) error {
		if *n >= limit {
			return &ErrQuota{What: what, Limit: limit, Retry: hour.Add(time.Hour).Sub(now)}
		}
		*n++
		return nil
	})
	return err
}

func revalidateKey(sub string) string { return "revalidate." + sub }

// MarkRevalidate lists a submission whose validation match the judge could not play, for
// the portals to play it again (Revalidations); listed twice is listed once.
func (s *Store) MarkRevalidate(ctx context.Context, sub string) error {
	if !validID(sub) {
		return ErrNotFound
	}
	if err := s.create(ctx, revalidateKey(sub), sub); err != nil && !errors.Is(err, ErrExists) {
		return err
	}
	return nil
}

// Revalidations are the submissions MarkRevalidate listed and DoneRevalidate did not end.
func (s *Store) Revalidations(ctx context.Context) ([]string, error) {
	keys, err := s.keys(ctx, revalidateKey("*"))
	var out []string
	for _, k := range keys {
		out = append(out, strings.TrimPrefix(k, revalidateKey("")))
	}
	return out, err
}

// DoneRevalidate takes a submission off the list of Revalidations.
func (s *Store) DoneRevalidate(ctx context.Context, sub string) error {
	if !validID(sub) {
		return ErrNotFound
	}
	return s.kv.Purge(ctx, revalidateKey(sub))
}

// validID is a cheap check that id can be a key part: the portal's ids, and a round's match
// ids, which start with the contest's name.
func validID(id string) bool {
	if id == "" || len(id) > 96 {
		return false
	}
	for _, c := range id {
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// Line is a contestant's versions on their way to the judge: the one whose build or
// validation the judge has (Current), and those uploaded after it, oldest first. Each
// contestant has one job on the queue at a time, so that a contestant who uploads a
// thousand versions delays another's build by one job, not a thousand.
type Line struct {
	Current string   `json:"current,omitempty"`
	Waiting []string `json:"waiting,omitempty"`
}

func lineKey(contest, login string) string { return "line." + contest + "." + login }

// updateLine changes a contestant's line, made empty when there is none.
func (s *Store) updateLine(ctx context.Context, contest, login string, change func(*Line) error) (Line, error) {
	if ValidName("contest", contest) != nil || ValidName("login", login) != nil {
		return Line{}, ErrNotFound
	}
	key := lineKey(contest, login)
	if err := s.create(ctx, key, Line{}); err != nil && !errors.Is(err, ErrExists) {
		return Line{}, err
	}
	return update(ctx, s, key, change)
}

// Enter puts sub in its contestant's line and reports whether it is the one the judge may
// have now (the caller then queues it); otherwise it waits its turn (Leave).
func (s *Store) Enter(ctx context.Context, contest, login, sub string) (bool, error) {
	l, err := s.updateLine(ctx, contest, login, func(l *Line) error {
		switch {
		case l.Current == sub || slices.Contains(l.Waiting, sub):
		case l.Current == "":
			l.Current = sub
		default:
			l.Waiting = append(l.Waiting, sub)
		}
		return nil
	})
	return l.Current == sub, err
}

// Leave takes sub out of its contestant's line once the judge is done with it, and returns
// the version whose turn it now is ("" for none), which the caller queues. Only the first
// of the portals that see sub done is given the next one.
func (s *Store) Leave(ctx context.Context, contest, login, sub string) (string, error) {
	next := ""
	_, err := s.updateLine(ctx, contest, login, func(l *Line) error {
		next = ""
		l.Waiting = slices.DeleteFunc(l.Waiting, func(w string) bool { return w == sub })
		if l.Current != sub && l.Current != "" {
			return nil
		}
		l.Current = ""
		if len(l.Waiting) > 0 {
			l.Current, l.Waiting = l.Waiting[0], l.Waiting[1:]
			next = l.Current
		}
		return nil
	})
	return next, err
}

// Lines are every contestant's line that has a version in it, by "contest.login".
func (s *Store) Lines(ctx context.Context) (map[string]Line, error) {
	keys, err := s.keys(ctx, lineKey("*", "*"))
	if err != nil {
		return nil, err
	}
	out := map[string]Line{}
	for _, k := range keys {
		var l Line
		if _, err := s.get(ctx, k, &l); err == nil && (l.Current != "" || len(l.Waiting) > 0) {
			out[strings.TrimPrefix(k, "line.")] = l
		}
	}
	return out, nil
}

// JudgeRejected are the submissions a portal of before rejected because the judge could not
// play their validation match (Error set, no fault of theirs), which are played again now;
// each store is searched once (a marker key says it was), since it reads every submission.
func (s *Store) JudgeRejected(ctx context.Context) ([]Submission, error) {
	const done = "migrated.judge-rejected"
	if _, err := s.kv.Get(ctx, done); err == nil {
		return nil, nil
	}
	keys, err := s.keys(ctx, subKey("*"))
	if err != nil {
		return nil, err
	}
	var out []Submission
	for _, k := range keys {
		var sub Submission
		if _, err := s.get(ctx, k, &sub); err != nil {
			continue
		}
		if sub.Status == Rejected && strings.HasPrefix(sub.Error, "the judge could not play its validation match") &&
			(sub.Validation == nil || sub.Validation.Fault == nil) {
			out = append(out, sub)
		}
	}
	return out, s.create(ctx, done, time.Now().UTC())
}

// createIndex creates an index key, whose lists then wait for it (index.go).
func (s *Store) createIndex(ctx context.Context, key, id string) error {
	data, _ := json.Marshal(id)
	rev, err := s.kv.Create(ctx, key, data)
	if errors.Is(err, kv.ErrKeyExists) {
		return ErrExists
	}
	if err != nil {
		return fmt.Errorf("store: %s: %w", key, err)
	}
	s.wroteIndex(rev)
	return nil
}

// indexed reads the ids an index filter lists.
func (s *Store) indexed(ctx context.Context, filter string) ([]string, error) {
	keys, err := s.keys(ctx, filter)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, k := range keys {
		var id string
		if _, err := s.get(ctx, k, &id); err == nil {
			ids = append(ids, id)
		}
	}
	return ids, nil
}
