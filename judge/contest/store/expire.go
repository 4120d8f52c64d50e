package store

import (
	"encoding/json"
	"strings"
	"time"
)

// What of the store may age out (queue.ExpireKeys, run by judge serve and judge store clean),
// each by a filter of keys and a pick that decides by the entry alone.
const (
	// MatchKeys are the matches' records; ExpirableMatch picks those that may go.
	MatchKeys = "match.*"
	// QuotaKeys are the test-match counts of each hour (TakeQuota); all may go once QuotaAge
	// old, since the hour they count is over by then.
	QuotaKeys = "quota.>"
	// SessionKeys are the sessions (NewSession), written once: all may go once SessionTTL
	// old, since each has ended by then; so may the marker a log-out left.
	SessionKeys = "session.*"
	// InviteKeys are the invites (NewInvite), written once: all may go once InviteTTL old,
	// used or not; so may the marker a use left.
	InviteKeys = "invite.*"
)

// QuotaAge is how long an hour's test-match count is kept after its last count: past the
// hour it counts, with an hour's room for the servers' clocks.
const QuotaAge = 2 * time.Hour

// ExpirableMatch says whether a match's record may go once old, and the keys that list it
// (its index keys), which go with it: a test or ladder match with its result. Kept whatever
// their age: validation matches (a submission names its own), a round's matches (standings
// point at them), and a match that has no result yet (it may still be played, and the ladder
// waits for it). A ladder rating's history names its matches; a match gone is a page not
// found there, as its expired replay is.
func ExpirableMatch(key string, value []byte) (bool, []string) {
	var m Match
	if json.Unmarshal(value, &m) != nil || m.Result == nil || (m.Kind != KindTest && m.Kind != KindLadder) ||
		strings.TrimPrefix(key, "match.") != m.ID || !validID(m.ID) {
		return false, nil
	}
	if ValidName("contest", m.Contest) != nil {
		return true, nil
	}
	index := []string{allMatchIndex(m.Contest, m.Kind, m.ID)}
	for _, login := range m.Readers() {
		if ValidName("login", login) == nil {
			// The legacy key too: a match listed before the keys named its kind has it.
			index = append(index, matchIndex(m.Contest, login, m.Kind, m.ID), legacyMatchIndex(m.Contest, login, m.ID))
		}
	}
	return true, index
}

// ExpirableByAge says that an entry may go once old, whatever it holds: an hour's test-match
// count, a session or an invite, each over by the age it is let go at.
func ExpirableByAge(string, []byte) (bool, []string) { return true, nil }
