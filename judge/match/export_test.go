package match

// ExitGrace is exitGrace, for the tests that time it.
const ExitGrace = exitGrace

// GameErr is gameErr, for its table.
var GameErr = gameErr
