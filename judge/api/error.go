// Package api is the portal's API as it goes over the wire: the answers' and requests' types,
// and the one error a request is refused with, its code typed. It imports no implementation
// (only the result's and the game's plain types), so that the portal's handlers, which
// answer with it, and the client (judge/api/client), which reads it, share one set of types.
package api

import (
	"fmt"
	"net/http"
	"time"
)

// ErrorCode is what kind of refusal an Error is; each has one HTTP status (Status).
// docs/portal.md lists them.
type ErrorCode string

// The API's error codes.
const (
	CodeBadRequest      ErrorCode = "bad_request"
	CodeBadUpload       ErrorCode = "bad_upload"
	CodeBadKind         ErrorCode = "bad_kind"
	CodeBadLimit        ErrorCode = "bad_limit"
	CodeBadCursor       ErrorCode = "bad_cursor"
	CodeUnauthorized    ErrorCode = "unauthorized"
	CodeBadLogin        ErrorCode = "bad_login"
	CodeForbidden       ErrorCode = "forbidden"
	CodeClosed          ErrorCode = "closed"
	CodeCSRF            ErrorCode = "csrf"
	CodeCrossOrigin     ErrorCode = "cross_origin"
	CodeNotFound        ErrorCode = "not_found"
	CodeReplayExpired   ErrorCode = "replay_expired"
	CodeConflict        ErrorCode = "conflict"
	CodeExists          ErrorCode = "exists"
	CodeNoActiveVersion ErrorCode = "no_active_version"
	CodeNoLadder        ErrorCode = "no_ladder"
	CodeNoEntrants      ErrorCode = "no_entrants"
	CodeTooFew          ErrorCode = "too_few"
	CodeNotClosed       ErrorCode = "not_closed"
	CodeNotLive         ErrorCode = "not_live"
	CodeSelf            ErrorCode = "self"
	CodeTooLarge        ErrorCode = "too_large"
	CodeQuota           ErrorCode = "quota"
	CodeInternal        ErrorCode = "internal"
	CodeUnavailable     ErrorCode = "unavailable"
)

var statuses = map[ErrorCode]int{
	CodeBadRequest: http.StatusBadRequest, CodeBadUpload: http.StatusBadRequest, CodeBadKind: http.StatusBadRequest,
	CodeBadLimit: http.StatusBadRequest, CodeBadCursor: http.StatusBadRequest,
	CodeUnauthorized: http.StatusUnauthorized, CodeBadLogin: http.StatusUnauthorized,
	CodeForbidden: http.StatusForbidden, CodeClosed: http.StatusForbidden, CodeCSRF: http.StatusForbidden,
	CodeCrossOrigin: http.StatusForbidden,
	CodeNotFound:    http.StatusNotFound, CodeReplayExpired: http.StatusNotFound,
	CodeConflict: http.StatusConflict, CodeExists: http.StatusConflict, CodeNoActiveVersion: http.StatusConflict,
	CodeNoLadder: http.StatusConflict, CodeNoEntrants: http.StatusConflict, CodeTooFew: http.StatusConflict,
	CodeNotClosed: http.StatusConflict, CodeSelf: http.StatusConflict, CodeNotLive: http.StatusConflict,
	CodeTooLarge:    http.StatusRequestEntityTooLarge,
	CodeQuota:       http.StatusTooManyRequests,
	CodeInternal:    http.StatusInternalServerError,
	CodeUnavailable: http.StatusServiceUnavailable,
}

// Status is the HTTP status the code is answered with; 500 for a code the API does not have.
func (c ErrorCode) Status() int {
	if s, ok := statuses[c]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// Known reports whether the API has the code.
func (c ErrorCode) Known() bool {
	_, ok := statuses[c]
	return ok
}

// Error is a request refused, answered as {"error": {"code", "message"}} with Status.
type Error struct {
	Status  int       `json:"-"`
	Code    ErrorCode `json:"code"`
	Message string    `json:"message"`
	// Retry is a 429's Retry-After.
	Retry time.Duration `json:"-"`
}

func (e *Error) Error() string { return e.Message }

// Errorf is an Error of code, with the code's status and a message formatted as fmt.Sprintf
// does.
func Errorf(code ErrorCode, format string, args ...any) *Error {
	return &Error{Status: code.Status(), Code: code, Message: fmt.Sprintf(format, args...)}
}

// Failure is an error answer as it is sent: {"error": {...}}.
type Failure struct {
	Error *Error `json:"error"`
}
