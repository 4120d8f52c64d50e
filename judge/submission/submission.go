// Package submission is a player's source as the judge receives it: its files, its language
// and how it is read from disk. It knows nothing of how a submission is compiled or run, so
// the contest side (the portal, the contest engine, tournaments) holds submissions without
// linking the sandbox.
package submission

import "errors"

// Submission is one player's source.
type Submission struct {
	Lang string
	// Files are the sources by relative path.
	Files map[string][]byte
}

// ErrInvalid marks a submission that cannot be built as given (unknown language, bad file
// names, too large): the caller's input is at fault, not the infrastructure.
var ErrInvalid = errors.New("invalid submission")
