package queue

import (
	"fmt"
	"strings"
)

// ConsumerName is the durable pull consumer every daemon shares, so that each job goes to
// one of them: the consumer of LaneMain. The other lanes' consumers are named after it
// (Lane.consumer).
const ConsumerName = "judges"

// Lane is a priority class of jobs: a daemon takes a job of a lane only when no earlier
// lane has one waiting.
type Lane int

// The lanes, first to last.
const (
	LaneMain   Lane = iota // official rounds, tournaments, builds and validations: judge.jobs
	LaneTest               // contestants' test matches: judge.jobs.low
	LaneLadder             // the ladder's matches, which fill what is left: judge.jobs.ladder
	lanes
)

// subject is the lane's jobs subject under prefix.
func (l Lane) subject(prefix string) string {
	return prefix + [...]string{".jobs", ".jobs.low", ".jobs.ladder"}[l]
}

// String is the lane's name as a replay records it (MetaLane): main, test or ladder.
func (l Lane) String() string {
	if l < 0 || l >= lanes {
		return fmt.Sprintf("lane(%d)", int(l))
	}
	return [...]string{"main", "test", "ladder"}[l]
}

// LaneOf is the lane of a job delivered on subject (Delivery.Subject), whatever the prefix;
// false for a subject that is no lane's.
func LaneOf(subject string) (Lane, bool) {
	prefix, _, ok := strings.Cut(subject, ".") // a prefix has no dots
	for l := range lanes {
		if ok && l.subject(prefix) == subject {
			return l, true
		}
	}
	return 0, false
}

// consumer is the name of the daemons' shared consumer of the lane.
func (l Lane) consumer() string {
	return ConsumerName + [...]string{"", "-low", "-ladder"}[l]
}
