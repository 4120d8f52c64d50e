package portal_test

import (
	"testing"

	"github.com/botjudge/judge/judge/queue/queuetest"
)

func TestMain(m *testing.M) { queuetest.Main(m) }
