package local

import "errors"

// Supported says why bots cannot run here as plain processes: on Windows the judge can neither
// stop a bot between turns nor read its CPU time exactly, so its figures would be wrong.
func Supported() error {
	return errors.New("--local is not available on Windows: the judge cannot stop a bot between turns nor read its CPU time exactly there; run the Linux judge under WSL 2 (docs/contestant.md)")
}
