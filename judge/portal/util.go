package portal

import (
	"net"
	"slices"
	"time"
)

// timeNow is the clock (tests set it).
var timeNow = time.Now

func contains(list []string, s string) bool { return slices.Contains(list, s) }

func sortStrings(s []string) { slices.Sort(s) }

// listen opens addr for the portal.
func listen(addr string) (net.Listener, error) { return net.Listen("tcp", addr) }
