package ladder

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkLeaderboard is the leaderboard of a ladder of n versions that each met 50 others
// 4 times: fitted, and shown again unchanged.
func BenchmarkLeaderboard(b *testing.B) {
	for _, n := range []int{100, 500} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 2))
			s := State{Seats: 2, Players: map[string]*Player{}}
			for i := range n {
				sub := fmt.Sprintf("s%03d", i)
				s.Players[sub] = &Player{Version: Version{Sub: sub, Login: "c" + sub}, Mu: 25 + r.NormFloat64(), Sigma: 2, Matches: 200, Active: true, Met: map[string]*[3]int{}}
			}
			for i := range n {
				for range 50 {
					j := r.IntN(n)
					if j == i {
						continue
					}
					a, c := s.Players[fmt.Sprintf("s%03d", i)], s.Players[fmt.Sprintf("s%03d", j)]
					w := r.IntN(5)
					a.Met[c.Sub], c.Met[a.Sub] = &[3]int{w, 0, 4 - w}, &[3]int{4 - w, 0, w}
				}
			}
			b.Run("fitted", func(b *testing.B) {
				for b.Loop() {
					s.leaderboard()
				}
			})
			b.Run("shown again", func(b *testing.B) {
				for b.Loop() {
					s.Leaderboard()
				}
			})
		})
	}
}
