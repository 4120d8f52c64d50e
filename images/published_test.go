package images

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// A publish keeps the archive it put and the newest others up to --keep, whatever the clocks
// of the machines that published them said; the rest are deleted.
func TestPublishKeepsTheNewest(t *testing.T) {
	day := func(d int) time.Time { return time.Date(2026, 11, d, 0, 0, 0, 0, time.UTC) }
	index := []Published{{Key: "a", Created: day(1)}, {Key: "c", Created: day(3)}, {Key: "b", Created: day(2)},
		{Key: "future", Created: day(30)}, {Key: "new", Created: day(1)}, {Key: "new", Created: day(26)}}
	for _, tc := range []struct {
		keep          int
		kept, dropped string
	}{
		{3, "future c new", "b a"},
		{1, "new", "future c b a"},
		{0, "new", "future c b a"},
		{10, "future c b a new", ""},
	} {
		kept, dropped := Newest(slices.Clone(index), "new", tc.keep)
		var keys []string
		for _, p := range kept {
			keys = append(keys, p.Key)
		}
		if strings.Join(keys, " ") != tc.kept || strings.Join(dropped, " ") != tc.dropped {
			t.Errorf("keep %d: kept %v, dropped %v; want %q, %q", tc.keep, keys, dropped, tc.kept, tc.dropped)
		}
		if n := len(kept); kept[n-1].Created != day(26) {
			t.Errorf("keep %d: the archive just published is the older entry of its key: %v", tc.keep, kept[n-1].Created)
		}
	}
}
