package match

// ExitGrace is exitGrace, for the tests that time it.
const ExitGrace = exitGrace
