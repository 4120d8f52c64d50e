package daemon

import (
	"context"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/games"
	"github.com/botjudge/judge/judge/job"
)

func TestMatchJob(t *testing.T) {
	seed := uint64(3)
	j := job.New("m1", "amazes", &seed, map[string]string{"turns": "150"}, []job.Player{
		job.NewPlayer("a", "cpp", map[string][]byte{"a.cpp": []byte("int main(){}")}),
		job.NewPlayer("b", "go", map[string][]byte{"b.go": []byte("package main")}),
	})
	amazes, _ := games.Lookup("amazes")
	m, err := matchJob(j, amazes, 99)
	if err != nil || m.ID != "m1" || m.Game.Name() != "amazes" || m.Seed != 3 || m.Options["turns"] != "150" || len(m.Players) != 2 ||
		m.Players[1].Name != "b" || m.Players[1].Submission.Lang != "go" || string(m.Players[1].Submission.Files["b.go"]) != "package main" {
		t.Errorf("match job %+v, %v", m, err)
	}
	j.Seed = nil
	if m, err := matchJob(j, amazes, 99); err != nil || m.Seed != 99 {
		t.Errorf("without a seed: seed %d, %v; want 99", m.Seed, err)
	}
}

// A back-off ends when the daemon stops, not when its time is up.
func TestSleepEndsWithTheContext(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	start := time.Now()
	if sleep(ctx, time.Hour) || time.Since(start) > time.Second {
		t.Errorf("sleep on a cancelled context: reported the time passed, or took %v", time.Since(start))
	}
	if !sleep(t.Context(), time.Millisecond) {
		t.Error("a short sleep did not report its time passed")
	}
}
