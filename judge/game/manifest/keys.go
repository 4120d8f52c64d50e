package manifest

import (
	"fmt"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"
)

// unknownKeys are the keys of the manifest's YAML that no field of the manifest takes, each
// named with its line, its place (players.defualt, options[1].hlep), the keys allowed there
// and the closest of them: reported with the manifest's other errors, in a person's words
// (yaml's own names the Go type the file is read into).
func unknownKeys(doc *yaml.Node) []string {
	if doc == nil || doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil
	}
	var out []string
	walkKeys(doc.Content[0], reflect.TypeOf(Manifest{}), "", &out)
	return out
}

func walkKeys(n *yaml.Node, t reflect.Type, at string, out *[]string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t.Kind() == reflect.Struct && n.Kind == yaml.MappingNode:
		fields := map[string]reflect.Type{}
		var names []string
		for i := range t.NumField() {
			tag, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
			if tag != "" && tag != "-" {
				fields[tag] = t.Field(i).Type
				names = append(names, tag)
			}
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			key := k.Value
			if at != "" {
				key = at + "." + k.Value
			}
			ft, ok := fields[k.Value]
			if !ok {
				msg := fmt.Sprintf("line %d: %s: no such key; the keys%s are %s", k.Line, key, where(at), strings.Join(names, ", "))
				if c := closest(k.Value, names); c != "" {
					msg += fmt.Sprintf(" (did you mean %s?)", c)
				}
				*out = append(*out, msg)
				continue
			}
			walkKeys(v, ft, key, out)
		}
	case t.Kind() == reflect.Slice && n.Kind == yaml.SequenceNode:
		for i, item := range n.Content {
			walkKeys(item, t.Elem(), fmt.Sprintf("%s[%d]", at, i), out)
		}
	}
}

func where(at string) string {
	if at == "" {
		return ""
	}
	return " of " + at
}

// closest is the name nearest key by edit distance, if near enough to be a slip (at most a
// third of its letters, and 2).
func closest(key string, names []string) string {
	best, bestD := "", max(2, len(key)/3)+1
	for _, n := range names {
		if d := editDistance(key, n); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

// editDistance is Levenshtein's, with a swap of neighbours counted once.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
