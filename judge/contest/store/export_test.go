package store

import "time"

// SetNow sets s's clock, for tests of what time ends.
func SetNow(s *Store, now func() time.Time) { s.now = now }
