package setting

// Closest is the one of names most like typed, a misspelling of it (at most two letters
// added, dropped or changed) or a name starting with it; "" when none is.
func Closest(typed string, names []string) string {
	best, bestD := "", 3
	for _, n := range names {
		d := distance(typed, n)
		if len(typed) > 1 && len(n) > len(typed) && n[:len(typed)] == typed {
			d = min(d, 1)
		}
		if d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

// distance is the Levenshtein distance between a and b, by bytes (names are ASCII).
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			sub := prev[j-1]
			if a[i-1] != b[j-1] {
				sub++
			}
			cur[j] = min(sub, prev[j]+1, cur[j-1]+1)
		}
		prev = cur
	}
	return prev[len(b)]
}
