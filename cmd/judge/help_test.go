package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/botjudge/judge/images"
)

// The help texts that list the languages list every one of images.Langs, in its order: a
// language added to images.Langs appears in them without an edit.
func TestHelpListsEveryLanguage(t *testing.T) {
	var names, prefixes []string
	for _, l := range images.Langs() {
		names = append(names, l.Name)
		prefixes = append(prefixes, l.Name+":")
	}
	root := newRoot()
	for _, tc := range []struct {
		command []string
		text    func(*cobra.Command) string
		want    string
	}{
		{[]string{"play"}, func(c *cobra.Command) string { return c.Long },
			"optionally prefixed with its\nlanguage (" + strings.Join(prefixes, ", ") + "); players are"},
		{[]string{"compile"}, func(c *cobra.Command) string { return c.Flags().Lookup("lang").Usage },
			"language (" + strings.Join(names, ", ") + "); default: from the file extensions"},
		{[]string{"images", "build"}, func(c *cobra.Command) string { return c.Flags().Lookup("lang").Usage },
			"only the images of these languages (" + strings.Join(names, ", ") + ")"},
	} {
		t.Run(strings.Join(tc.command, " "), func(t *testing.T) {
			c, _, err := root.Find(tc.command)
			if err != nil {
				t.Fatal(err)
			}
			if got := tc.text(c); !strings.Contains(got, tc.want) {
				t.Errorf("help %q; want it to contain %q", got, tc.want)
			}
		})
	}
}
