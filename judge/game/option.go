package game

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Option documents one option of a game.
type Option struct {
	Name    string `json:"name"`
	Default string `json:"default"`
	Help    string `json:"help"`
}

// A Declared option is declared once, as a package variable of its game: Options documents
// it (Doc) and New reads it (Read), so its name, default and bounds cannot disagree.
type Declared interface {
	Doc() Option
}

// Document is a game's Options: the declared options' documentation, in order.
func Document(opts ...Declared) []Option {
	out := make([]Option, len(opts))
	for i, o := range opts {
		out[i] = o.Doc()
	}
	return out
}

// IntOption is an integer option within [Min, Max].
type IntOption struct {
	Name              string
	Default, Min, Max int
	// Help says what the option is; Doc adds the range.
	Help string
}

// Doc documents the option, its range included.
func (o IntOption) Doc() Option {
	return Option{Name: o.Name, Default: strconv.Itoa(o.Default), Help: fmt.Sprintf("%s, %d..%d", o.Help, o.Min, o.Max)}
}

// Read reads the option from a job's options.
func (o IntOption) Read(opts *Options) int { return opts.Int(o.Name, o.Default, o.Min, o.Max) }

// DurationOption is a duration option ("30s", "1m") within [Min, Max].
type DurationOption struct {
	Name              string
	Default, Min, Max time.Duration
	// Help says what the option is; Doc adds the range.
	Help string
}

// Doc documents the option, its range included.
func (o DurationOption) Doc() Option {
	return Option{Name: o.Name, Default: shortDuration(o.Default), Help: fmt.Sprintf("%s, %s..%s", o.Help, shortDuration(o.Min), shortDuration(o.Max))}
}

// Read reads the option from a job's options.
func (o DurationOption) Read(opts *Options) time.Duration {
	return opts.Duration(o.Name, o.Default, o.Min, o.Max)
}

// TextOption is a text option whose default is empty, such as a maze or a map given in full;
// the game parses and checks it (Options.Fail).
type TextOption struct {
	Name string
	Help string
}

// Doc documents the option.
func (o TextOption) Doc() Option { return Option{Name: o.Name, Help: o.Help} }

// Read reads the option from a job's options ("" when absent).
func (o TextOption) Read(opts *Options) string { return opts.String(o.Name, "") }

// ParseOr reads the text option o and parses it: a world given in full (a maze, a map). An
// empty one is made by generate instead (from the seed). Text that does not parse is
// recorded against the option (so that the match is not started) and generate's world
// stands in meanwhile.
func ParseOr[T any](opts *Options, o TextOption, parse func(string) (T, error), generate func() (T, error)) (T, error) {
	if text := o.Read(opts); text != "" {
		v, err := parse(text)
		if err == nil {
			return v, nil
		}
		opts.Fail(o.Name, "%v", err)
	}
	return generate()
}

// The memory option is the same in every game: a bot's memory limit in MiB, within these
// bounds; only the default differs.
const (
	MinMemoryMiB = 16
	MaxMemoryMiB = 4096
)

// MemoryOption is the memory option with a game's default.
type MemoryOption struct{ DefaultMiB int }

func (o MemoryOption) int() IntOption {
	return IntOption{Name: "memory", Default: o.DefaultMiB, Min: MinMemoryMiB, Max: MaxMemoryMiB, Help: "memory per player in MiB"}
}

// Doc documents the option.
func (o MemoryOption) Doc() Option { return o.int().Doc() }

// Read reads the option and returns it in bytes, for Setup.Memory. Its value is in MiB: a
// value with a unit (the configuration's 256MiB) is refused saying so.
func (o MemoryOption) Read(opts *Options) int64 {
	i := o.int()
	if s := strings.TrimSpace(opts.get(i.Name, strconv.Itoa(i.Default))); strings.TrimRight(s, "0123456789") != "" {
		opts.Fail(i.Name, "%q is not a number of MiB (memory=1024 is 1 GiB)", s)
		return int64(i.Default) << 20
	}
	return int64(i.Read(opts)) << 20
}

// shortDuration is d as a job would write it: "1m" rather than "1m0s". It parses back to d.
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = s[:len(s)-2]
	}
	if strings.HasSuffix(s, "h0m") {
		s = s[:len(s)-2]
	}
	return s
}

// Options helps a game read its options: every value read is checked, and Err reports
// options the game does not know. A game reads them through its declared options.
type Options struct {
	raw  map[string]string
	used map[string]bool
	errs []string
	// Values are all options with defaults applied, for Setup.Options.
	Values map[string]string
}

// NewOptions wraps a job's options.
func NewOptions(raw map[string]string) *Options {
	return &Options{raw: raw, used: map[string]bool{}, Values: map[string]string{}}
}

func (o *Options) get(name, def string) string {
	o.used[name] = true
	v, ok := o.raw[name]
	if !ok {
		v = def
	}
	o.Values[name] = v
	return v
}

// Int reads an integer option within [min, max].
func (o *Options) Int(name string, def, min, max int) int {
	s := o.get(name, strconv.Itoa(def))
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || strconv.Itoa(v) != strings.TrimSpace(s) {
		o.errs = append(o.errs, fmt.Sprintf("option %s: %q is not an integer", name, s))
		return def
	}
	if v < min || v > max {
		o.errs = append(o.errs, fmt.Sprintf("option %s: %d is out of range %d..%d", name, v, min, max))
		return def
	}
	return v
}

// Duration reads a duration option ("30s", "1m") within [min, max].
func (o *Options) Duration(name string, def, min, max time.Duration) time.Duration {
	s := o.get(name, shortDuration(def))
	v, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		o.errs = append(o.errs, fmt.Sprintf("option %s: %q is not a duration (e.g. 30s)", name, s))
		return def
	}
	if v < min || v > max {
		o.errs = append(o.errs, fmt.Sprintf("option %s: %v is out of range %v..%v", name, v, shortDuration(min), shortDuration(max)))
		return def
	}
	return v
}

// String reads a text option. A game's own options are declared (IntOption, ...); String
// and Int and Duration serve options named at run time, as a test game's per-player ones.
func (o *Options) String(name, def string) string { return o.get(name, def) }

// Fail records a problem with an option found by the game itself.
func (o *Options) Fail(name, format string, args ...any) {
	o.errs = append(o.errs, fmt.Sprintf("option %s: %s", name, fmt.Sprintf(format, args...)))
}

// Err reports bad values and unknown options, or nil.
func (o *Options) Err() error {
	errs := slices.Clone(o.errs)
	var unknown []string
	for k := range o.raw {
		if !o.used[k] {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	for _, k := range unknown {
		known := make([]string, 0, len(o.used))
		for u := range o.used {
			known = append(known, u)
		}
		sort.Strings(known)
		errs = append(errs, fmt.Sprintf("unknown option %q (known: %s)", k, strings.Join(known, ", ")))
	}
	if len(errs) == 0 {
		return nil
	}
	return &OptionError{Problems: errs}
}

// OptionError is an invalid option; the referee reports it as bad_option.
type OptionError struct{ Problems []string }

func (e *OptionError) Error() string { return strings.Join(e.Problems, "; ") }
