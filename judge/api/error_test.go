package api

import (
	"encoding/json"
	"testing"
)

func TestErrorCodesAndStatuses(t *testing.T) {
	for _, tc := range []struct {
		code   ErrorCode
		status int
	}{
		{CodeBadRequest, 400}, {CodeBadUpload, 400}, {CodeUnauthorized, 401}, {CodeClosed, 403},
		{CodeCrossOrigin, 403}, {CodeNotFound, 404}, {CodeReplayExpired, 404}, {CodeNoActiveVersion, 409},
		{CodeTooFew, 409}, {CodeNotLive, 409}, {CodeTooLarge, 413}, {CodeQuota, 429}, {CodeInternal, 500}, {CodeUnavailable, 503},
		{"no_such_code", 500},
	} {
		e := Errorf(tc.code, "%s %d", "x", 1)
		if e.Status != tc.status || e.Code.Status() != tc.status || e.Message != "x 1" {
			t.Errorf("Errorf(%s) = %+v, want status %d", tc.code, e, tc.status)
		}
		if e.Code.Known() != (tc.code != "no_such_code") {
			t.Errorf("%s known: %v", tc.code, e.Code.Known())
		}
	}
	out, _ := json.Marshal(Failure{Errorf(CodeClosed, "closed at noon")})
	if string(out) != `{"error":{"code":"closed","message":"closed at noon"}}` {
		t.Errorf("on the wire: %s", out)
	}
}
