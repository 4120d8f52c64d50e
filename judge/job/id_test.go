package job

import (
	"errors"
	"strings"
	"testing"
)

func TestValidID(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		id string
		ok bool
	}{
		{"round3-m17", true},
		{"a", true},
		{"A_b-9.c.d", true},
		{"2026.03.01-final_7", true},
		{strings.Repeat("x", MaxIDLen), true},
		{strings.Repeat("x", MaxIDLen+1), false},
		{"", false},
		{".a", false},
		{"a.", false},
		{".", false},
		{"a..b", false},
		{"a b", false},
		{"a*", false},
		{"a>", false},
		{"a/b", false},
		{"a\tb", false},
		{"a\nb", false},
		{"ünïcode", false},
		{"a:b", false},
		{"$JS", false},
	} {
		err := ValidID(tc.id)
		if (err == nil) != tc.ok {
			t.Errorf("ValidID(%q) = %v, want ok=%v", tc.id, err, tc.ok)
		}
		if err != nil && !errors.Is(err, ErrInvalidID) {
			t.Errorf("ValidID(%q) = %v, not an ErrInvalidID", tc.id, err)
		}
	}
}
