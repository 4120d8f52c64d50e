package store

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/botjudge/judge/judge/contest/ladder"

	"golang.org/x/crypto/bcrypt"
)

// Contest is what the organiser set up: the game and how it is played, the languages, the
// house bots, the deadline and the test-match quota.
type Contest struct {
	Name    string            `json:"name"`
	Game    string            `json:"game"`
	Options map[string]string `json:"options,omitempty"`
	// Langs are the languages allowed; empty allows every language the judge has.
	Langs []string `json:"langs,omitempty"`
	// House are the organiser's bots, which validation and test matches play against.
	House []House `json:"house,omitempty"`
	// Deadline ends submissions; zero is none.
	Deadline time.Time `json:"deadline,omitzero"`
	// TestQuota is how many test matches a contestant may ask for per hour
	// (DefaultTestQuota unless the organiser says).
	TestQuota int `json:"test_quota"`
	// UploadQuota is how many versions a contestant may upload per hour (UploadsAllowed).
	UploadQuota int `json:"upload_quota,omitempty"`
	// PeerMatches lets contestants ask for test matches against each other's active versions.
	PeerMatches bool `json:"peer_matches"`
	// PublishHouse lets contestants download the house bots, to play the reproduce command.
	PublishHouse bool `json:"publish_house,omitempty"`
	// TestRounds are the times of the test competitions: a round robin of the active
	// versions, with public standings.
	TestRounds []time.Time `json:"test_rounds,omitempty"`
	// Ladder keeps matches flowing among the contestants' active versions, by Settings.
	Ladder         bool            `json:"ladder,omitempty"`
	LadderSettings ladder.Settings `json:"ladder_settings"`
	Created        time.Time       `json:"created"`
	// ClosedAt is when the organisers closed the contest (CloseContest): from then on it is
	// read-only (no version, test match, round, person or setting more) and still viewable.
	// Zero is open.
	ClosedAt time.Time `json:"closed_at,omitzero"`
	// Similar are the organisers' verdicts on pairs of contestants the integrity check found
	// alike (judge/similar), and Excluded the contestants left out of the official round.
	Similar  []SimilarMark `json:"similar,omitempty"`
	Excluded []string      `json:"excluded,omitempty"`
}

// SimilarMark is an organiser's verdict on two contestants found alike: cleared (not a copy)
// or confirmed (a copy), by whom and when.
type SimilarMark struct {
	A       string    `json:"a"`
	B       string    `json:"b"`
	Verdict string    `json:"verdict"`
	By      string    `json:"by"`
	At      time.Time `json:"at"`
}

// The verdicts of a SimilarMark.
const (
	SimilarCleared   = "cleared"
	SimilarConfirmed = "confirmed"
)

// DefaultTestQuota is a new contest's test matches per contestant and hour.
const DefaultTestQuota = 10

// DefaultUploadQuota is the uploads per contestant and hour of a contest that sets none: a
// version every two minutes, far more than a person needs and far fewer than a script makes.
const DefaultUploadQuota = 30

// UploadsAllowed is the contest's upload quota, or the default when it sets none (as
// contests made before there was one).
func (c Contest) UploadsAllowed() int {
	if c.UploadQuota == 0 {
		return DefaultUploadQuota
	}
	return c.UploadQuota
}

// House is a house bot: its sources are in the object store under Source.
type House struct {
	Name   string `json:"name"`
	Lang   string `json:"lang"`
	Source string `json:"source"`
}

// AllowsLang reports whether lang may be submitted.
func (c Contest) AllowsLang(lang string) bool {
	return len(c.Langs) == 0 || slices.Contains(c.Langs, lang)
}

// HouseBot finds a house bot by name.
func (c Contest) HouseBot(name string) (House, bool) {
	for _, h := range c.House {
		if h.Name == name {
			return h, true
		}
	}
	return House{}, false
}

// Closed reports whether submissions have ended at t: the deadline has passed, or the
// contest was closed.
func (c Contest) Closed(t time.Time) bool {
	return c.ReadOnly() || !c.Deadline.IsZero() && !t.Before(c.Deadline)
}

// ReadOnly reports whether the organisers closed the contest.
func (c Contest) ReadOnly() bool { return !c.ClosedAt.IsZero() }

// Ended is when submissions ended: the deadline or the closing, whichever came first.
func (c Contest) Ended() time.Time {
	if c.ReadOnly() && (c.Deadline.IsZero() || c.ClosedAt.Before(c.Deadline)) {
		return c.ClosedAt
	}
	return c.Deadline
}

// ClosedError is a change refused because the contest is closed: an ErrClosed.
func (c Contest) ClosedError() error { return closedError{c.Name, c.ClosedAt} }

type closedError struct {
	contest string
	at      time.Time
}

func (e closedError) Error() string {
	return fmt.Sprintf("contest %s was closed at %s: it is read-only", e.contest, e.at.UTC().Format("2006-01-02 15:04 MST"))
}

func (e closedError) Is(target error) bool { return target == ErrClosed }

// CloseContest makes a contest read-only from now on (Contest.ClosedAt); closed already, it
// stays closed since then.
func (s *Store) CloseContest(ctx context.Context, name string) (Contest, error) {
	if ValidName("contest", name) != nil {
		return Contest{}, ErrNotFound
	}
	return s.UpdateContest(ctx, name, func(c *Contest) error {
		if !c.ReadOnly() {
			c.ClosedAt = s.now().UTC()
		}
		return nil
	})
}

func contestKey(name string) string { return "contest." + name }

// CreateContest stores a new contest; its name must be free.
func (s *Store) CreateContest(ctx context.Context, c Contest) (Contest, error) {
	if err := ValidName("contest", c.Name); err != nil {
		return c, err
	}
	for _, h := range c.House {
		if err := ValidName("house bot", h.Name); err != nil {
			return c, err
		}
	}
	c.Created = s.now().UTC()
	if c.LadderSettings.Unset() {
		c.LadderSettings = ladder.Defaults
	}
	if err := c.LadderSettings.Validate(); err != nil {
		return c, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	if err := s.create(ctx, contestKey(c.Name), c); errors.Is(err, ErrExists) {
		return c, fmt.Errorf("contest %s: %w", c.Name, ErrExists)
	} else if err != nil {
		return c, err
	}
	return c, nil
}

// Contest reads a contest.
func (s *Store) Contest(ctx context.Context, name string) (Contest, error) {
	var c Contest
	if ValidName("contest", name) != nil {
		return c, ErrNotFound
	}
	_, err := s.get(ctx, contestKey(name), &c)
	if c.LadderSettings.Unset() {
		c.LadderSettings = ladder.Defaults // a contest made before ladders had settings
	}
	return c, err
}

// Contests lists every contest, by name.
func (s *Store) Contests(ctx context.Context) ([]Contest, error) {
	keys, err := s.keys(ctx, contestKey("*"))
	if err != nil {
		return nil, err
	}
	slices.Sort(keys)
	var out []Contest
	for _, k := range keys {
		if c, err := s.Contest(ctx, strings.TrimPrefix(k, contestKey(""))); err == nil {
			out = append(out, c)
		}
	}
	return out, nil
}

// UpdateContest changes a contest with change, safely against other portals.
func (s *Store) UpdateContest(ctx context.Context, name string, change func(*Contest) error) (Contest, error) {
	return update(ctx, s, contestKey(name), change)
}

// User is a contestant or an organiser of one contest.
type User struct {
	Contest   string `json:"contest"`
	Login     string `json:"login"`
	Organiser bool   `json:"organiser,omitempty"`
	// Password is the bcrypt hash; empty until the invite is accepted.
	Password []byte `json:"password,omitempty"`
	// Epoch counts password changes and "log out everywhere": a session of an older epoch
	// is no longer valid.
	Epoch int `json:"epoch"`
	// TokenEpoch counts password changes and resets too, but not the first password an
	// invite sets: the token AddUser makes comes before it and must outlive it. A token of an
	// older token epoch is no longer valid. Apart from Epoch, so that the tokens of users
	// made before tokens had epochs (all 0) live until the next change.
	TokenEpoch int       `json:"token_epoch,omitempty"`
	Created    time.Time `json:"created"`
	// Disabled users were removed (RemoveUser): they cannot log in or use a token, and the
	// ladder and the rounds leave them out; what they did stays.
	Disabled bool `json:"disabled,omitempty"`
	// Versions counts the user's submissions; Active is the active one's id.
	Versions int    `json:"versions"`
	Active   string `json:"active,omitempty"`
	// Staged is the version on trial on the ladder: unrated matches before it is made active.
	Staged string `json:"staged,omitempty"`
}

func userKey(contest, login string) string { return "user." + contest + "." + login }

// Invite is a one-time code that sets a user's password.
type Invite struct {
	Contest string    `json:"contest"`
	Login   string    `json:"login"`
	Expires time.Time `json:"expires"`
}

// InviteTTL is how long an invite may wait to be accepted.
const InviteTTL = 14 * 24 * time.Hour

// NewUser is a user made by AddUser, with its first token and invite code (shown once).
type NewUser struct {
	User   User
	Token  string
	Invite string
}

// AddUser adds a user to an existing contest, with an API token and a one-time invite code.
func (s *Store) AddUser(ctx context.Context, contest, login string, organiser bool) (NewUser, error) {
	if err := ValidName("login", login); err != nil {
		return NewUser{}, err
	}
	if _, err := s.Contest(ctx, contest); err != nil {
		return NewUser{}, fmt.Errorf("contest %s: %w", contest, err)
	}
	u := User{Contest: contest, Login: login, Organiser: organiser, Created: s.now().UTC()}
	if err := s.create(ctx, userKey(contest, login), u); errors.Is(err, ErrExists) {
		return NewUser{}, fmt.Errorf("user %s of contest %s: %w", login, contest, ErrExists)
	} else if err != nil {
		return NewUser{}, err
	}
	tok, _, err := s.NewToken(ctx, contest, login, "first", s.TokenTTL)
	if err != nil {
		return NewUser{}, err
	}
	inv, err := s.NewInvite(ctx, contest, login)
	if err != nil {
		return NewUser{}, err
	}
	return NewUser{User: u, Token: tok, Invite: inv}, nil
}

// User reads a user.
func (s *Store) User(ctx context.Context, contest, login string) (User, error) {
	var u User
	if ValidName("contest", contest) != nil || ValidName("login", login) != nil {
		return u, ErrNotFound
	}
	_, err := s.get(ctx, userKey(contest, login), &u)
	return u, err
}

// Users lists a contest's users, by login.
func (s *Store) Users(ctx context.Context, contest string) ([]User, error) {
	if err := ValidName("contest", contest); err != nil {
		return nil, err
	}
	idx, err := s.index(ctx)
	if err != nil {
		return nil, err
	}
	var out []User
	for _, login := range idx.logins(contest) {
		var u User
		if _, err := s.get(ctx, userKey(contest, login), &u); err == nil {
			out = append(out, u)
		}
	}
	return out, nil
}

// NewInvite makes a one-time invite code for a user.
func (s *Store) NewInvite(ctx context.Context, contest, login string) (string, error) {
	code := secret("inv_")
	inv := Invite{Contest: contest, Login: login, Expires: s.now().UTC().Add(InviteTTL)}
	if err := s.create(ctx, "invite."+digest(code), inv); err != nil {
		return "", err
	}
	return code, nil
}

// Invitation reads an invite without using it, for the page that asks for a password.
func (s *Store) Invitation(ctx context.Context, code string) (Invite, error) {
	var inv Invite
	if _, err := s.get(ctx, "invite."+digest(code), &inv); err != nil {
		return inv, err
	}
	if s.now().After(inv.Expires) {
		return inv, ErrNotFound
	}
	return inv, nil
}

// ErrWeakPassword is a password refused for its length.
var ErrWeakPassword = fmt.Errorf("%w: a password has 10 to 72 bytes", ErrInvalid)

func (s *Store) hashPassword(pw string) ([]byte, error) {
	if len(pw) < 10 || len(pw) > 72 {
		return nil, ErrWeakPassword
	}
	return bcrypt.GenerateFromPassword([]byte(pw), s.passwordCost())
}

// passwordCost is bcrypt's cost for new passwords: PasswordCost, else bcrypt's default.
func (s *Store) passwordCost() int {
	if s.PasswordCost != 0 {
		return s.PasswordCost
	}
	return bcrypt.DefaultCost
}

// AcceptInvite uses an invite to set the user's password; the invite is gone after, even when
// two requests use it at once (one of them wins).
func (s *Store) AcceptInvite(ctx context.Context, code, password string) (User, error) {
	hash, err := s.hashPassword(password)
	if err != nil {
		return User{}, err
	}
	key := "invite." + digest(code)
	var inv Invite
	rev, err := s.get(ctx, key, &inv)
	if err != nil {
		return User{}, err
	}
	if err := s.kv.DeleteAt(ctx, key, rev); err != nil {
		return User{}, ErrNotFound // another request used it first
	}
	if s.now().After(inv.Expires) {
		return User{}, ErrNotFound
	}
	reset := false
	u, err := update(ctx, s, userKey(inv.Contest, inv.Login), func(u *User) error {
		if u.Disabled {
			return ErrNotFound // removed since the invite was made
		}
		// An invite to a user who has a password is a reset: whoever had the old one may
		// have made tokens with it.
		reset = len(u.Password) > 0
		u.Password, u.Epoch = hash, u.Epoch+1
		if reset {
			u.TokenEpoch++
		}
		return nil
	})
	if err == nil && reset {
		s.dropTokens(ctx, u)
	}
	return u, err
}

// SetPassword changes a user's password, which ends every session and every API token of
// the user.
func (s *Store) SetPassword(ctx context.Context, contest, login, old, password string) (User, error) {
	hash, err := s.hashPassword(password)
	if err != nil {
		return User{}, err
	}
	u, err := update(ctx, s, userKey(contest, login), func(u *User) error {
		if bcrypt.CompareHashAndPassword(u.Password, []byte(old)) != nil {
			return ErrBadLogin
		}
		u.Password, u.Epoch, u.TokenEpoch = hash, u.Epoch+1, u.TokenEpoch+1
		return nil
	})
	if err == nil {
		s.dropTokens(ctx, u)
	}
	return u, err
}

// ResetUser ends every session and API token of a user and forgets the password: the user
// logs in again only through the new one-time invite code it returns (a lost password, a
// leaked token, a person who left).
func (s *Store) ResetUser(ctx context.Context, contest, login string) (User, string, error) {
	if ValidName("contest", contest) != nil || ValidName("login", login) != nil {
		return User{}, "", ErrNotFound
	}
	u, err := update(ctx, s, userKey(contest, login), func(u *User) error {
		if u.Disabled {
			return fmt.Errorf("%w: %s was removed from contest %s", ErrInvalid, login, contest)
		}
		u.Password, u.Epoch, u.TokenEpoch = nil, u.Epoch+1, u.TokenEpoch+1
		return nil
	})
	if err != nil {
		return u, "", err
	}
	s.dropTokens(ctx, u)
	code, err := s.NewInvite(ctx, contest, login)
	return u, code, err
}

// RemoveUser takes a user out of a contest: every session and API token ended, the password
// and any invite void, and the ladder and the rounds leave the user's versions out from their
// next look. The user's versions, matches and ratings stay, so that no result changes.
func (s *Store) RemoveUser(ctx context.Context, contest, login string) (User, error) {
	if ValidName("contest", contest) != nil || ValidName("login", login) != nil {
		return User{}, ErrNotFound
	}
	u, err := update(ctx, s, userKey(contest, login), func(u *User) error {
		u.Disabled, u.Password, u.Epoch, u.TokenEpoch = true, nil, u.Epoch+1, u.TokenEpoch+1
		return nil
	})
	if err == nil {
		s.dropTokens(ctx, u)
	}
	return u, err
}

// ErrBadLogin is a login or password that does not match, told apart by nothing.
var ErrBadLogin = errors.New("wrong login or password")

// dummyHash makes a login of an unknown user cost what a known one's does (the same cost). It
// is made at the first such login, not at start-up: every judge command would pay its ~50 ms.
func (s *Store) dummyHash() []byte {
	s.dummy.Do(func() {
		s.dummyHashed, _ = bcrypt.GenerateFromPassword([]byte("not a password of anyone"), s.passwordCost())
	})
	return s.dummyHashed
}

// CheckPassword is the user if password is theirs.
func (s *Store) CheckPassword(ctx context.Context, contest, login, password string) (User, error) {
	u, err := s.User(ctx, contest, login)
	if errors.Is(err, ErrNotFound) || (err == nil && (len(u.Password) == 0 || u.Disabled)) {
		bcrypt.CompareHashAndPassword(s.dummyHash(), []byte(password))
		return User{}, ErrBadLogin
	}
	if err != nil {
		return User{}, err
	}
	if bcrypt.CompareHashAndPassword(u.Password, []byte(password)) != nil {
		return User{}, ErrBadLogin
	}
	return u, nil
}

// Token is an API token's record (the token itself is not kept). It is kept twice: under
// the digest of the token, which finds it from the token, and under the user's index
// (tokenIndex), which lists and revokes it; the index's copy names the digest.
type Token struct {
	// ID names the token to list and revoke it; it tells nothing of the token.
	ID      string    `json:"id,omitempty"`
	Contest string    `json:"contest"`
	Login   string    `json:"login"`
	Name    string    `json:"name"`
	Created time.Time `json:"created"`
	// Expires is when the token stops working; zero is never (a token made before tokens
	// expired, or with no time to live).
	Expires time.Time `json:"expires,omitzero"`
	// Epoch is the user's TokenEpoch when the token was made.
	Epoch  int    `json:"epoch,omitempty"`
	Digest string `json:"digest,omitempty"`
}

func tokenKey(digest string) string { return "token." + digest }

// tokenIndex lists a user's tokens, beside its submissions and matches (subIndex).
func tokenIndex(contest, login, id string) string {
	return fmt.Sprintf("own.%s.%s.t.%s", contest, login, id)
}

// Expired reports whether the token no longer works at t.
func (t Token) Expired(at time.Time) bool { return !t.Expires.IsZero() && !at.Before(t.Expires) }

// NewToken makes an API token for a user that lives for ttl (0: until revoked); the token is
// shown once.
func (s *Store) NewToken(ctx context.Context, contest, login, name string, ttl time.Duration) (string, Token, error) {
	u, err := s.User(ctx, contest, login)
	if err != nil {
		return "", Token{}, err
	}
	tok := secret("jt_")
	t := Token{ID: NewID("tk"), Contest: contest, Login: login, Name: name, Created: s.now().UTC(), Epoch: u.TokenEpoch}
	if ttl > 0 {
		t.Expires = t.Created.Add(ttl)
	}
	// The index first: a token is never valid without being listed, so never beyond revoking.
	idx := t
	idx.Digest = digest(tok)
	if err := s.create(ctx, tokenIndex(contest, login, t.ID), idx); err != nil {
		return "", Token{}, err
	}
	if err := s.create(ctx, tokenKey(idx.Digest), t); err != nil {
		return "", Token{}, err
	}
	return tok, t, nil
}

// TokenUser is the user a token belongs to, and the token's record; a token revoked, or
// made before the user's password last changed, is not found.
func (s *Store) TokenUser(ctx context.Context, token string) (User, Token, error) {
	if !strings.HasPrefix(token, "jt_") {
		return User{}, Token{}, ErrNotFound
	}
	var t Token
	key := tokenKey(digest(token))
	rev, err := s.get(ctx, key, &t)
	if err != nil {
		return User{}, Token{}, err
	}
	u, err := s.User(ctx, t.Contest, t.Login)
	if err != nil {
		return User{}, Token{}, err
	}
	if t.Expired(s.now()) {
		s.dropToken(ctx, t, key)
	}
	if u.Disabled || t.Epoch != u.TokenEpoch || t.Expired(s.now()) {
		return User{}, Token{}, ErrNotFound
	}
	if t.ID == "" {
		t = s.adoptToken(ctx, key, rev, t)
	}
	return u, t, nil
}

// adoptToken gives a token made before tokens were listed its id and index entry, at its
// first use, so that its owner can see and revoke it. Of two requests at once, one wins
// (the other's index entry is taken back); a failure leaves the token as it was, to adopt
// at its next use.
func (s *Store) adoptToken(ctx context.Context, key string, rev uint64, t Token) Token {
	n := t
	n.ID = NewID("tk")
	idx := n
	idx.Digest = strings.TrimPrefix(key, "token.")
	ikey := tokenIndex(t.Contest, t.Login, n.ID)
	if s.create(ctx, ikey, idx) != nil {
		return t
	}
	data, err := json.Marshal(n)
	if err == nil {
		_, err = s.kv.Update(ctx, key, data, rev)
	}
	if err != nil {
		s.kv.Delete(ctx, ikey)
		return t
	}
	return n
}

// Tokens lists a user's valid tokens, oldest first (with their digests: not for showing).
func (s *Store) Tokens(ctx context.Context, contest, login string) ([]Token, error) {
	u, err := s.User(ctx, contest, login)
	if err != nil {
		return nil, err
	}
	keys, err := s.keys(ctx, tokenIndex(contest, login, "*"))
	if err != nil {
		return nil, err
	}
	var out []Token
	for _, k := range keys {
		var t Token
		if _, err := s.get(ctx, k, &t); err != nil {
			continue
		}
		if t.Expired(s.now()) {
			s.dropToken(ctx, t, tokenKey(t.Digest))
		} else if t.Epoch == u.TokenEpoch {
			out = append(out, t)
		}
	}
	slices.SortFunc(out, func(a, b Token) int { return cmp.Or(a.Created.Compare(b.Created), strings.Compare(a.ID, b.ID)) })
	return out, nil
}

// RevokeToken ends one of a user's tokens, by id: only the user's own (another's id is not
// found in this user's index).
func (s *Store) RevokeToken(ctx context.Context, contest, login, id string) error {
	if !validID(id) || ValidName("contest", contest) != nil || ValidName("login", login) != nil {
		return ErrNotFound
	}
	var t Token
	ikey := tokenIndex(contest, login, id)
	if _, err := s.get(ctx, ikey, &t); err != nil {
		return err
	}
	if err := s.kv.Delete(ctx, tokenKey(t.Digest)); err != nil {
		return fmt.Errorf("store: revoking a token: %w", err)
	}
	return s.kv.Delete(ctx, ikey)
}

// dropTokens deletes the records of u's tokens of older epochs. It only tidies: the epoch
// has ended them already, so a failure here leaves dead records, not live tokens.
func (s *Store) dropTokens(ctx context.Context, u User) {
	keys, err := s.keys(ctx, tokenIndex(u.Contest, u.Login, "*"))
	if err != nil {
		return
	}
	for _, k := range keys {
		var t Token
		if _, err := s.get(ctx, k, &t); err == nil && t.Epoch != u.TokenEpoch {
			s.dropToken(ctx, t, tokenKey(t.Digest))
		}
	}
}

// dropToken deletes a dead token's record (key) and its index entry, where it has one (a
// token made before tokens were listed has none). Tidying only, as dropTokens.
func (s *Store) dropToken(ctx context.Context, t Token, key string) {
	s.kv.Delete(ctx, key)
	if t.ID != "" {
		s.kv.Delete(ctx, tokenIndex(t.Contest, t.Login, t.ID))
	}
}

// Session is a logged-in browser.
type Session struct {
	Contest string    `json:"contest"`
	Login   string    `json:"login"`
	Epoch   int       `json:"epoch"`
	Expires time.Time `json:"expires"`
	// CSRF is the token the session's forms carry.
	CSRF string `json:"csrf"`
}

// SessionTTL is how long a session lasts.
const SessionTTL = 7 * 24 * time.Hour

// NewSession starts a session for u; the id goes in the cookie.
func (s *Store) NewSession(ctx context.Context, u User) (string, Session, error) {
	id := secret("")
	sess := Session{Contest: u.Contest, Login: u.Login, Epoch: u.Epoch, Expires: s.now().UTC().Add(SessionTTL), CSRF: secret("")}
	if err := s.create(ctx, "session."+digest(id), sess); err != nil {
		return "", Session{}, err
	}
	return id, sess, nil
}

// SessionUser is the session of id and its user, if the session is still valid: not
// expired, not logged out, the user's password unchanged since.
func (s *Store) SessionUser(ctx context.Context, id string) (Session, User, error) {
	var sess Session
	if id == "" {
		return sess, User{}, ErrNotFound
	}
	if _, err := s.get(ctx, "session."+digest(id), &sess); err != nil {
		return sess, User{}, err
	}
	if s.now().After(sess.Expires) {
		s.kv.Delete(ctx, "session."+digest(id)) // tidying: it has ended already
		return sess, User{}, ErrNotFound
	}
	u, err := s.User(ctx, sess.Contest, sess.Login)
	if err != nil {
		return sess, User{}, err
	}
	if u.Epoch != sess.Epoch || u.Disabled {
		return sess, User{}, ErrNotFound
	}
	return sess, u, nil
}

// EndSession logs a session out.
func (s *Store) EndSession(ctx context.Context, id string) error {
	if id == "" {
		return nil
	}
	return s.kv.Delete(ctx, "session."+digest(id))
}

// AddOrganiser makes u (an organiser of another contest) an organiser of contest, with the
// same password; a user of that login there already is an error.
func (s *Store) AddOrganiser(ctx context.Context, contest string, u User) error {
	n := User{Contest: contest, Login: u.Login, Organiser: true, Password: u.Password, Epoch: 1, Created: s.now().UTC()}
	if err := s.create(ctx, userKey(contest, u.Login), n); errors.Is(err, ErrExists) {
		return fmt.Errorf("user %s of contest %s: %w", u.Login, contest, ErrExists)
	} else if err != nil {
		return err
	}
	return nil
}
