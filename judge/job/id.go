package job

import (
	"errors"
	"fmt"
	"strings"
)

// MaxIDLen is the longest job id ValidID accepts, in bytes.
const MaxIDLen = 128

// ErrInvalidID is wrapped by every error ValidID returns, so that a caller can tell a bad id
// (the job's fault) from a queue failure (the infrastructure's) with errors.Is.
var ErrInvalidID = errors.New("invalid job id")

// ValidID reports whether id can name a job. An id becomes part of a subject
// (judge.results.<id>), so it is limited to ASCII letters, digits, '-', '_' and '.', at most
// MaxIDLen bytes, with no empty dot-separated part (no leading or trailing '.', no '..'):
// wildcards, spaces and empty tokens would make a subject that is invalid or matches other
// jobs' results.
func ValidID(id string) error {
	switch {
	case id == "":
		return fmt.Errorf("job: %w: empty", ErrInvalidID)
	case len(id) > MaxIDLen:
		return fmt.Errorf("job: %w: %d bytes, at most %d allowed", ErrInvalidID, len(id), MaxIDLen)
	case strings.HasPrefix(id, "."), strings.HasSuffix(id, "."):
		return fmt.Errorf("job: %w %q: starts or ends with '.'", ErrInvalidID, id)
	case strings.Contains(id, ".."):
		return fmt.Errorf("job: %w %q: contains '..'", ErrInvalidID, id)
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.' {
			continue
		}
		return fmt.Errorf("job: %w %q: byte %d is %q; only letters, digits, '-', '_' and '.' are allowed", ErrInvalidID, id, i, c)
	}
	return nil
}
