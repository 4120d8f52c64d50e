package local

import (
	"slices"
	"testing"

	"github.com/botjudge/judge/images"
)

// A bot built here is compiled with its image's flags, less those that link statically: a
// flag added to images.Langs reaches judge play --local without an edit here.
func TestFlagsAreTheImagesLessStaticLinking(t *testing.T) {
	for _, tc := range []struct {
		lang string
		want []string
	}{
		{"cpp", []string{"-O2", "-std=c++17", "-pipe", "-s"}},
		{"pascal", []string{"-O2", "-Xs", "-viewn"}},
		{"rust", []string{"--edition=2021", "-O", "-C", "strip=symbols", "--crate-name", "bot"}},
		{"java", []string{"--release", "17", "-encoding", "UTF-8", "-proc:none", "-nowarn"}},
		{"go", []string{"-trimpath", "-ldflags=-s -w"}},
		{"csharp", []string{"-optimize+", "-nologo"}},
	} {
		if got := flags(tc.lang); !slices.Equal(got, tc.want) {
			t.Errorf("flags(%s) = %q, want %q", tc.lang, got, tc.want)
		}
	}
	for _, l := range images.Langs() {
		if _, ok := recipes[l.Name]; !ok {
			t.Errorf("%s has no local recipe", l.Name)
		}
		for _, f := range flags(l.Name) {
			if f == "-static" || f == "-XS" || f == "target-feature=+crt-static" {
				t.Errorf("flags(%s) links statically: %q", l.Name, f)
			}
		}
	}
}
