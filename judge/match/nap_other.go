//go:build !linux

package match

import "time"

// nap sleeps d (no match is played off Linux: its sandbox is Linux's).
func nap(d time.Duration) { time.Sleep(d) }
