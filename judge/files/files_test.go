package files

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckName(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"main.cpp", true},
		{"src/a.cpp", true},
		{"a b.java", true},
		{"été.py", true},
		{"a-b/c_d.go", true},
		{strings.Repeat("x", MaxNameLen), true},
		{strings.Repeat("d/", MaxDepth-1) + "f", true},
		{"", false},
		{".", false},
		{"..", false},
		{"../x.cpp", false},
		{"a/../../x", false},
		{"a/..", false},
		{"a/./b", false},
		{"/abs.cpp", false},
		{"a//b", false},
		{"a/", false},
		{"a\\b", false},
		{"a\x00b", false},
		{"a\nb", false},
		{"a\tb", false},
		{"a\x7fb", false},
		{"a\u0085b", false},
		{"a\xffb", false},
		{"-o", false},
		{"src/-x.cpp", false},
		{strings.Repeat("x", MaxNameLen+1), false},
		{strings.Repeat("d/", MaxDepth) + "f", false},
	} {
		err := CheckName(tc.name)
		if (err == nil) != tc.ok {
			t.Errorf("CheckName(%q) = %v, want ok=%v", tc.name, err, tc.ok)
		}
		if err != nil && !errors.Is(err, ErrBadName) {
			t.Errorf("CheckName(%q) = %v, not an ErrBadName", tc.name, err)
		}
	}
}

func TestCheckNames(t *testing.T) {
	for _, tc := range []struct {
		names []string
		ok    bool
	}{
		{[]string{"a.cpp", "b.cpp"}, true},
		{[]string{"a/x.cpp", "a/y.cpp", "ab"}, true},
		{[]string{"a", "a/x.cpp"}, false},
		{[]string{"a/b/c", "a/b"}, false},
		{[]string{"ok.cpp", "../bad.cpp"}, false},
	} {
		err := CheckNames(tc.names)
		if (err == nil) != tc.ok {
			t.Errorf("CheckNames(%q) = %v, want ok=%v", tc.names, err, tc.ok)
		}
		if err != nil && !errors.Is(err, ErrBadName) {
			t.Errorf("CheckNames(%q) = %v, not an ErrBadName", tc.names, err)
		}
	}
}
