// Package rating holds the rating systems used to rank bots outside a
// single game: an Elo ladder for live, incremental updates, and a
// Bradley-Terry maximum-likelihood fit for final tournament standings,
// where the result must not depend on the order in which games finished.
// The Weng-Lin (OpenSkill-compatible) Bayesian model for multi-player games
// lives in the subpackage openskill.
//
// Everything here is pure computation on the standard library: no I/O, no
// global state, and no input slice is ever modified. The algorithms are
// written from their published descriptions (Elo 1978, "The Rating of
// Chessplayers, Past and Present"; Hunter 2004, "MM algorithms for
// generalized Bradley-Terry models", Annals of Statistics 32(1)), not
// copied from other implementations.
//
// Both systems report on the same scale: 400 points of difference means
// 10:1 odds of winning, and the field is centred on 1500, so a ladder
// rating and a tournament rating can be shown side by side.
package rating
