package setting

import (
	"errors"
	"strings"
	"testing"
)

func TestBytes(t *testing.T) {
	for _, tc := range []struct {
		text string
		want Bytes
	}{{"1024", 1024}, {"64KiB", 64 << 10}, {"256m", 256 << 20}, {" 1GiB ", 1 << 30}, {"1234567", 1234567}} {
		var b Bytes
		if err := b.UnmarshalText([]byte(tc.text)); err != nil || b != tc.want {
			t.Errorf("%q: %d, %v; want %d", tc.text, b, err, tc.want)
		}
		// MarshalText is exact where String rounds: it is how defaults are registered.
		text, _ := b.MarshalText()
		var back Bytes
		if err := back.UnmarshalText(text); err != nil || back != b {
			t.Errorf("%d does not round-trip: %q", b, text)
		}
	}
	var b Bytes
	if err := b.UnmarshalText([]byte("lots")); err == nil || !strings.Contains(err.Error(), `"lots"`) {
		t.Errorf("lots: %v", err)
	}
}

func TestInNamesTheSection(t *testing.T) {
	other := errors.New("not a key's")
	err := In("sandbox", errors.Join(Positive("memory", 0), nil, NotNegative("tmpfs", -1), other, Positive("cpus", 1.0)))
	want := "sandbox.memory: must be greater than zero (got 0)\nsandbox.tmpfs: must not be negative (got -1)\nnot a key's"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	var ke *KeyError
	if !errors.As(err, &ke) || ke.Key != "sandbox.memory" {
		t.Errorf("KeyError %+v", ke)
	}
	if In("x", nil) != nil {
		t.Error("In(nil) is not nil")
	}
}

func TestClosest(t *testing.T) {
	names := []string{"game", "seed", "replay", "stderr", "memory"}
	for typed, want := range map[string]string{"gmae": "game", "sed": "seed", "replya": "replay", "memroy": "memory",
		"mem": "memory", "zzzzzz": "", "g": "", "std": "stderr"} {
		if got := Closest(typed, names); got != want {
			t.Errorf("Closest(%q) = %q; want %q", typed, got, want)
		}
	}
}
