// Package setting holds the types the judge's settings are written in (sizes in bytes), and the
// error that names a value's key. The components' option structs (sandbox.Limits,
// build.Limits, queue.Options) are written in them, so that those structs are the
// configuration's sections as they are: one representation of each value, each checked by
// its own type or by its section's Validate.
//
// It imports nothing of the judge, so that every component can.
package setting

import (
	"cmp"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/docker/go-units"
)

// Bytes is a size in bytes; in configuration it is written like "64KiB", "256m" or "1GiB"
// (binary units) or as a plain number of bytes.
type Bytes int64

// String formats b with binary units, for people ("64KiB").
func (b Bytes) String() string { return units.BytesSize(float64(b)) }

// MarshalText writes b as a plain number of bytes: exact, where String rounds.
func (b Bytes) MarshalText() ([]byte, error) { return strconv.AppendInt(nil, int64(b), 10), nil }

// UnmarshalText reads "64KiB", "1g", "1024" and the like.
func (b *Bytes) UnmarshalText(text []byte) error {
	n, err := units.RAMInBytes(strings.TrimSpace(string(text)))
	if err != nil {
		return fmt.Errorf("%q is not a size (use e.g. 64KiB, 256MiB, 1GiB)", text)
	}
	*b = Bytes(n)
	return nil
}

// KeyError is a value that is wrong, named by its key ("memory", or "sandbox.memory" once
// In has placed it in its section).
type KeyError struct {
	Key string
	Err error
}

func (e *KeyError) Error() string { return e.Key + ": " + e.Err.Error() }
func (e *KeyError) Unwrap() error { return e.Err }

// Invalid is a KeyError for key.
func Invalid(key, format string, args ...any) error {
	return &KeyError{Key: key, Err: fmt.Errorf(format, args...)}
}

// Named is err as key's (a KeyError), or nil: for a value whose own Validate said what is
// wrong with it.
func Named(key string, err error) error {
	if err == nil {
		return nil
	}
	return &KeyError{Key: key, Err: err}
}

// Positive is an error unless v > 0.
func Positive[T cmp.Ordered](key string, v T) error {
	var zero T
	if v > zero {
		return nil
	}
	return Invalid(key, "must be greater than zero (got %v)", v)
}

// NotNegative is an error if v < 0.
func NotNegative[T cmp.Ordered](key string, v T) error {
	var zero T
	if v >= zero {
		return nil
	}
	return Invalid(key, "must not be negative (got %v)", v)
}

// In places the KeyErrors in err (one, or joined by errors.Join) in section: "memory"
// becomes "sandbox.memory". Other errors pass unchanged.
func In(section string, err error) error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var errs []error
		for _, e := range j.Unwrap() {
			errs = append(errs, In(section, e))
		}
		return errors.Join(errs...)
	}
	var ke *KeyError
	if errors.As(err, &ke) {
		return &KeyError{Key: section + "." + ke.Key, Err: ke.Err}
	}
	return err
}
