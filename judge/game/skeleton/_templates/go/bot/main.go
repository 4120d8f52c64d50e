// A sample bot of {{.Title}}: it answers 7 every turn.
package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		fmt.Println(7)
	}
}
