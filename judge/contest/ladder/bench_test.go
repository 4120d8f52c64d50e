package ladder

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/botjudge/judge/judge/rating"
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
					s.leaderboard(nil)
				}
			})
			b.Run("shown again", func(b *testing.B) {
				for b.Loop() {
					s.Leaderboard(nil)
				}
			})
		})
	}
}

// halite is BenchmarkLadderChoice's baseline, the ladder's choice before #53 (Halite III's):
// uniform among the k nearest in mu, k - n heavy-tailed (P(k-n >= j) = 1/(j+1)).
func halite(rng *rand.Rand, seed *Player, others []*Player, n int) []*Player {
	others = slices.Clone(others)
	slices.SortStableFunc(others, func(a, b *Player) int {
		return cmp.Compare(math.Abs(a.Mu-seed.Mu), math.Abs(b.Mu-seed.Mu))
	})
	extra := int(1/(1-rng.Float64())) - 1
	k := min(n+extra, len(others))
	pool := others[:k]
	rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	return others
}

// BenchmarkLadderChoice plays simulated ladders of versions of known strength (evenly spread,
// 0.05 of a match's noise apart) with the ladder's choice of opponents and Halite's (halite),
// at the same budget of matches, and reports how well the leaderboard then ranks them: top10 the share of ladders whose top
// ten are in their true order, rank_err the mean distance of a version's place from its true
// one, top10_err that of the true top ten. Run with -benchtime=1x (make bench-ladder).
func BenchmarkLadderChoice(b *testing.B) {
	for _, n := range []int{100, 500} {
		runs := 4000 / n // 40 ladders of 100, 8 of 500
		for _, seats := range []int{2, 4} {
			for _, per := range []int{20, 50, 100} {
				for _, c := range []struct {
					name   string
					choose chooser
				}{{"halite", halite}, {"ladder", nearest}} {
					b.Run(fmt.Sprintf("versions=%d/seats=%d/matches=%d/%s", n, seats, per, c.name), func(b *testing.B) {
						var exact, err, top float64
						var errs, tops []float64 // each ladder's, for the simulation's own error
						for b.Loop() {
							for run := range runs {
								se := newSeason(b, seats, versions(n)...)
								se.s.choose = c.choose
								se.set.MinRate = 0 // a match every 10 s cannot give each of 500 versions 6 an hour
								se.rng = rand.New(rand.NewPCG(uint64(run), uint64(n*seats+per)))
								for i := range n {
									se.strength[fmt.Sprintf("s%02d", i)] = 0.05 * float64(i) // s(n-1) the strongest
								}
								se.play(per * n / seats)
								ok := true
								var e1, t1 float64
								for _, r := range se.s.Leaderboard(nil) {
									var i int
									fmt.Sscanf(r.Sub, "s%d", &i)
									d := math.Abs(float64(r.Rank - (n - i)))
									e1 += d
									if n-i <= 10 {
										t1 += d
										ok = ok && d == 0
									}
								}
								err, top = err+e1, top+t1
								errs, tops = append(errs, e1/float64(n)), append(tops, t1/10)
								if ok {
									exact++
								}
							}
						}
						k := float64(b.N * runs)
						b.ReportMetric(exact/k, "top10")
						b.ReportMetric(err/k/float64(n), "rank_err")
						b.ReportMetric(top/k/10, "top10_err")
						b.ReportMetric(stat.StdDev(errs, nil)/math.Sqrt(float64(len(errs))), "rank_err_se")
						b.ReportMetric(stat.StdDev(tops, nil)/math.Sqrt(float64(len(tops))), "top10_err_se")
					})
				}
			}
		}
	}
}

// BenchmarkTrial plays trials on the simulated ladder at true differences of 0, elo1 and
// twice elo1 of the default test (judge compare's: elo0 0, elo1 50, 5% each way), and reports
// the matches to a verdict and the share of verdicts "better". In the simulation a match's
// performance is strength plus a standard normal, so an Elo difference d is a difference in
// strength of sqrt(2) Phi^-1(1/(1+10^(-d/400))). Run with -benchtime=1x (make bench-ladder).
func BenchmarkTrial(b *testing.B) {
	const runs = 200
	test := Defaults.Test()
	for _, seats := range []int{2, 4} {
		for _, elo := range []float64{0, test.Elo1, 2 * test.Elo1} {
			d := math.Sqrt2 * distuv.UnitNormal.Quantile(rating.EloScore(elo))
			b.Run(fmt.Sprintf("seats=%d/elo=%g", seats, elo), func(b *testing.B) {
				var matches, better, undecided float64
				for b.Loop() {
					for run := range runs {
						se := stagedSeason(b, seats, 6, d)
						se.rng = rand.New(rand.NewPCG(uint64(run), uint64(seats*1000)+uint64(elo)))
						for range 20000 {
							if se.s.Players["s00b"].decided() {
								break
							}
							se.play(1)
						}
						tr := se.s.Players["s00b"].Trial
						matches += float64(tr.Progress(test).Matches)
						switch tr.Verdict {
						case rating.Better:
							better++
						case "":
							undecided++
						}
					}
				}
				k := float64(b.N * runs)
				b.ReportMetric(matches/k, "matches")
				b.ReportMetric(better/k, "better")
				b.ReportMetric(undecided/k, "undecided")
			})
		}
	}
}

// BenchmarkLeagues plays simulated seasons of three leagues (Bronze's boss at strength 0,
// Silver's at 1, Gold) and 36 versions, four of each strength from -0.5 to 2.0, each
// version playing 400 matches, and reports for the versions of each strength: matches, the
// mean of its ladder matches when it first stood in its right league (Bronze below 0, Silver
// from 0 to 1, Gold above; at a boss's own strength either league is right), reached the
// share that got there, above the share that ended above it. Run with -benchtime=1x (make
// bench-ladder).
func BenchmarkLeagues(b *testing.B) {
	const runs, per, budget = 10, 4, 400
	strengths := []float64{-0.5, 0, 0.25, 0.5, 1, 1.25, 1.5, 2}
	right := func(s float64) (lo, hi int) {
		for _, boss := range []float64{0, 1} {
			if s > boss {
				lo++
			}
			if s >= boss {
				hi++
			}
		}
		return lo, hi
	}
	for _, seats := range []int{2, 4} {
		for _, str := range strengths {
			b.Run(fmt.Sprintf("seats=%d/strength=%+.2f", seats, str), func(b *testing.B) {
				var matches, reached, above, n float64
				for b.Loop() {
					for run := range runs {
						var all []float64
						for _, s := range strengths {
							for range per {
								all = append(all, s)
							}
						}
						se := leagueSeason(b, seats, all...)
						se.strength[HouseSeat("silver")] = 1
						se.set.MinRate = 0
						se.rng = rand.New(rand.NewPCG(uint64(run), uint64(seats)))
						first := map[string]int{} // its matches when it first stood in its right league
						for range budget * len(all) / seats {
							se.play(1)
							for i, s := range all {
								sub := fmt.Sprintf("s%02d", i)
								lo, hi := right(s)
								p := se.s.Players[sub]
								if _, done := first[sub]; !done {
									if lg := se.s.LeagueOf(p.Login, se.set); lg >= lo && lg <= hi {
										first[sub] = p.Matches
									}
								}
							}
						}
						for i, s := range all {
							if s != str {
								continue
							}
							sub := fmt.Sprintf("s%02d", i)
							n++
							if m, ok := first[sub]; ok {
								reached++
								matches += float64(m)
							}
							if _, hi := right(s); se.s.LeagueOf(se.s.Players[sub].Login, se.set) > hi {
								above++
							}
						}
					}
				}
				b.ReportMetric(matches/max(reached, 1), "matches")
				b.ReportMetric(reached/n, "reached")
				b.ReportMetric(above/n, "above")
			})
		}
	}
}
