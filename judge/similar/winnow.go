package similar

import "hash/fnv"

// The fingerprints of a token stream, by winnowing (Schleimer, Wilkerson and Aiken,
// "Winnowing: local algorithms for document fingerprinting", SIGMOD 2003): the hash of every
// k-gram of tokens, and in every window of w consecutive hashes the smallest (the rightmost of
// equals), each kept once. Any run of at least w+k-1 tokens that two streams share gives
// them a fingerprint in common; runs shorter than k give none (noise).
const (
	gramTokens = 12 // k
	window     = 8  // w: a match of 19 tokens (about three lines) is always found
)

// print is a fingerprint: a k-gram's hash and the index of its first token.
type print struct {
	hash uint64
	pos  int
}

// tokenIDs are the tokens' hashes.
func tokenIDs(ts []token) []uint64 {
	ids := make([]uint64, len(ts))
	for i, t := range ts {
		h := fnv.New64a()
		h.Write([]byte(t.text))
		ids[i] = h.Sum64() | 1
	}
	return ids
}

// gramHashes are the hashes of every k-gram of ids (a polynomial rolling hash).
func gramHashes(ids []uint64) []uint64 {
	if len(ids) < gramTokens {
		return nil
	}
	const base = 1000003
	pow := uint64(1)
	for range gramTokens - 1 {
		pow *= base
	}
	var h uint64
	for _, id := range ids[:gramTokens] {
		h = h*base + id
	}
	out := make([]uint64, 0, len(ids)-gramTokens+1)
	out = append(out, mixHash(h))
	for i := gramTokens; i < len(ids); i++ {
		h = (h-ids[i-gramTokens]*pow)*base + ids[i]
		out = append(out, mixHash(h))
	}
	return out
}

// mixHash spreads a rolling hash's bits, so that the window's minimum is a fair choice.
func mixHash(z uint64) uint64 {
	z ^= z >> 33
	z *= 0xff51afd7ed558ccd
	z ^= z >> 33
	z *= 0xc4ceb9fe1a85ec53
	return z ^ z>>33
}

// winnow selects the fingerprints of hashes: in each window of w, the rightmost minimum,
// recorded when it changes (every hash of a stream shorter than a window is kept).
func winnow(hashes []uint64) []print { return winnowWith(hashes, window) }

func winnowWith(hashes []uint64, window int) []print {
	if len(hashes) <= window {
		out := make([]print, len(hashes))
		for i, h := range hashes {
			out[i] = print{h, i}
		}
		return out
	}
	var out []print
	min := -1
	for end := window - 1; end < len(hashes); end++ {
		start := end - window + 1
		if min < start {
			min = start
			for i := start + 1; i <= end; i++ {
				if hashes[i] <= hashes[min] {
					min = i
				}
			}
			out = append(out, print{hashes[min], min})
		} else if hashes[end] <= hashes[min] {
			min = end
			out = append(out, print{hashes[min], min})
		}
	}
	return out
}
