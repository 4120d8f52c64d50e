//go:build !linux

package cores

import "errors"

// affinity is unknown off Linux, where the judge pins no bot.
func affinity() ([]int, error) { return nil, errors.New("only Linux tells a process's CPUs") }
