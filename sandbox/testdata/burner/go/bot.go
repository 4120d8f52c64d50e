// Start-up burner for the judge's tests: burns 600 ms of CPU before it reads anything, then
// sleeps for good without a word. Every game must charge the burn to its first request.
package main

import (
	"syscall"
	"time"
)

func cpu() time.Duration {
	var r syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &r)
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}

var sink int

func main() {
	end := cpu() + 600*time.Millisecond // burn-ms
	for cpu() < end {
		for i := 0; i < 100000; i++ {
			sink += i
		}
	}
	for {
		time.Sleep(time.Hour)
	}
}
