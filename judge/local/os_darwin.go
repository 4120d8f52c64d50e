package local

import (
	"fmt"
	"runtime"
	"time"
)

// processCPU: of the systems the judge is built for, only Linux gives the judge another process's CPU time as it runs (a process
// CPU clock); elsewhere a bot's CPU time per turn is not measured.
func processCPU(int) (time.Duration, error) {
	return 0, fmt.Errorf("%w (%s)", ErrNoCPUClock, runtime.GOOS)
}

// peakRSS is not read while the process runs off Linux: its rusage gives it at the end.
func peakRSS(int) int64 { return 0 }

// Supported is nil: bots run here as plain processes, though unmetered (processCPU).
func Supported() error { return nil }
