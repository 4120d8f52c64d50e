package queue

import (
	"testing"

	"github.com/botjudge/judge/judge/queue/queuetest"
)

func TestMain(m *testing.M) { queuetest.Main(m) }
