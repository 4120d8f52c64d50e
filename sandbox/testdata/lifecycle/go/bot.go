// Test bot for the judge's bot-lifecycle tests (Go version).
//
// Before reading stdin it runs each line of ./start.txt, if that file
// exists, as a command ("burn 500" then "echo READY", say). Then it runs every stdin line as a command and exits
// with status 0 at end of input. Commands:
//
//	echo ...   print the whole line back        exit N     exit with status N
//	burn MS    burn MS ms of CPU, say "burned"  sleep MS   sleep MS ms, say "slept"
//	signal N   send signal N to itself, then say "alive" if still running
//	close      close stdout, then spin forever  hang       block forever
//	other      say "unknown"
//
// Answers are written unbuffered; start.txt commands answer only "echo".
package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func run(line string, fromStdin bool) {
	line = strings.TrimSuffix(line, "\r")
	fields := strings.Fields(line)
	cmd, n := "", 0
	if len(fields) > 0 {
		cmd = fields[0]
	}
	if len(fields) > 1 {
		n, _ = strconv.Atoi(fields[1])
	}
	switch cmd {
	case "echo":
		fmt.Println(line)
	case "exit":
		os.Exit(n)
	case "burn":
		end := cpuTime() + time.Duration(n)*time.Millisecond
		for cpuTime() < end {
		}
		if fromStdin {
			fmt.Println("burned")
		}
	case "sleep":
		time.Sleep(time.Duration(n) * time.Millisecond)
		if fromStdin {
			fmt.Println("slept")
		}
	case "signal":
		syscall.Kill(os.Getpid(), syscall.Signal(n))
		time.Sleep(time.Second)
		fmt.Println("alive")
	case "close":
		os.Stdout.Close()
		for {
		}
	case "hang":
		for {
			time.Sleep(time.Hour)
		}
	default:
		fmt.Println("unknown")
	}
}

func main() {
	if f, err := os.Open("start.txt"); err == nil {
		s := bufio.NewScanner(f)
		for s.Scan() {
			run(s.Text(), false)
		}
		f.Close()
	}
	s := bufio.NewScanner(os.Stdin)
	for s.Scan() {
		run(s.Text(), true)
	}
}
