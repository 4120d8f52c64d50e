// Red-team bot: on its first line it tries to run another program the Go way.
package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
)

func main() {
	bufio.NewReader(os.Stdin).ReadString('\n')
	err := exec.Command("/bot/bot").Run()
	fmt.Println("spawned or refused:", err)
}
