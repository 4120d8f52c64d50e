// Red-team bot in Go for the script game: each line is a command, and each command answers
// one line. "echo X" answers itself; "alloc N" touches N MiB; "threads N" holds N OS threads;
// "spawn" runs another program; "write P" creates a file.
package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
)

var kept [][]byte

func main() {
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		cmd, arg, _ := strings.Cut(in.Text(), " ")
		n, _ := strconv.Atoi(arg)
		switch cmd {
		case "echo":
			fmt.Println(in.Text())
		case "alloc":
			for i := 0; i < n; i++ {
				b := make([]byte, 1<<20)
				for j := range b {
					b[j] = 1
				}
				kept = append(kept, b)
			}
			fmt.Println("allocated", n)
		case "threads":
			// A goroutine locked to its thread and blocked keeps that OS thread for itself,
			// so the runtime must make a new one for every goroutine.
			var started sync.WaitGroup
			for i := 0; i < n; i++ {
				started.Add(1)
				go func() {
					runtime.LockOSThread()
					started.Done()
					select {}
				}()
			}
			started.Wait()
			fmt.Println("threads", n)
		case "spawn":
			fmt.Println("spawn", exec.Command("/bot/bot").Run())
		case "write":
			f, err := os.Create(arg)
			if err == nil {
				f.Close()
				fmt.Println("write", arg, "succeeded")
			} else {
				fmt.Println("write", arg, err)
			}
		default:
			fmt.Println("unknown", cmd)
		}
	}
}
