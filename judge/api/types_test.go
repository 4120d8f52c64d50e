package api

import "testing"

// A closest call's share reads as whole percents, or with two decimals under 1%.
func TestStatsCallPercent(t *testing.T) {
	for _, tc := range []struct {
		share float64
		want  string
	}{{0.95, "95%"}, {0.01, "1%"}, {0.0003, "0.03%"}, {0, "0.00%"}, {1, "100%"}} {
		if got := (StatsCall{Share: tc.share}).Percent(); got != tc.want {
			t.Errorf("share %v: %q; want %q", tc.share, got, tc.want)
		}
	}
}
