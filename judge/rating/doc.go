// Package rating holds the rating systems used to rank bots outside a
// single game: an Elo ladder for live, incremental updates, and a
// Bradley-Terry maximum-likelihood fit for final tournament standings,
// where the result must not depend on the order in which games finished.
// The Weng-Lin (OpenSkill-compatible) Bayesian model for multi-player games
// lives in the subpackage openskill.
//
// Separate says how sure a round's standings are (each pair's confidence, each
// entrant's interval of ranks), and SPRT decides between two hypotheses on a
// stream of paired results, as `judge compare` does.
//
// Everything here is pure computation: no I/O, no global state, and no input
// slice is ever modified. Distributions and the optimiser are gonum's. The algorithms are
// written from their published descriptions (Elo 1978, "The Rating of
// Chessplayers, Past and Present"; Hunter 2004, "MM algorithms for
// generalized Bradley-Terry models", Annals of Statistics 32(1)), not
// copied from other implementations.
//
// Both systems report on the same scale: 400 points of difference means
// 10:1 odds of winning, and the field is centred on 1500, so a ladder
// rating and a tournament rating can be shown side by side.
package rating
