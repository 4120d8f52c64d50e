// Package apierror is the one error type with which the portal refuses a request: an HTTP
// status, the API's error code and a message for people (docs/portal.md lists the codes). The
// pages and the API answer it alike; the packages under the portal that read a request (the
// upload's reader) return it, so that what they refuse reaches the caller as they said it.
package apierror

import (
	"fmt"
	"time"
)

// Error is a request refused, answered as {"error": {"code", "message"}} with Status.
type Error struct {
	Status  int    `json:"-"`
	Code    string `json:"code"`
	Message string `json:"message"`
	// Retry is a 429's Retry-After.
	Retry time.Duration `json:"-"`
}

func (e *Error) Error() string { return e.Message }

// New is an Error whose message is formatted as fmt.Sprintf does.
func New(status int, code, format string, args ...any) *Error {
	return &Error{Status: status, Code: code, Message: fmt.Sprintf(format, args...)}
}
