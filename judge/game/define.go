package game

// Spec declares a game: Define makes it a Game. A game's package declares its Spec once (its
// name, its player counts, its options) and writes only what is its own: Start.
type Spec struct {
	Name string
	// MinPlayers, MaxPlayers and DefaultPlayers are what Players returns.
	MinPlayers, MaxPlayers, DefaultPlayers int
	// Options are the game's options, documented in this order.
	Options []Declared
	// Start starts a match of c.Players players (game.Start has checked the count). It reads
	// every option from o through the declared options, before anything can fail (an option
	// not read is reported unknown), and records its own problems with them with o.Fail.
	// Whatever o has found wrong, Define reports instead of the match.
	Start func(c Config, o *Options) (Match, error)
	// Library, when set, supplies helper code to the game's bots at compile time (Library).
	Library func(lang string) map[string][]byte
	// Roles names each seat's part, for a game whose seats play different parts (Roles).
	Roles []string
}

// Define is the Game a Spec declares.
func Define(s Spec) Game { return defined{s} }

type defined struct{ s Spec }

func (g defined) Name() string { return g.s.Name }
func (g defined) Players() (min, max, def int) {
	return g.s.MinPlayers, g.s.MaxPlayers, g.s.DefaultPlayers
}
func (g defined) Options() []Option { return Document(g.s.Options...) }

// New starts a match, or reports every problem with its options (*OptionError).
func (g defined) New(c Config) (Match, error) {
	o := NewOptions(c.Options)
	m, err := g.s.Start(c, o)
	if oerr := o.Err(); oerr != nil {
		return nil, oerr
	}
	return m, err
}

// Roles is the spec's seats' parts, or none.
func (g defined) Roles() []string { return g.s.Roles }

// Library is the spec's library for lang, or none.
func (g defined) Library(lang string) map[string][]byte {
	if g.s.Library == nil {
		return nil
	}
	return g.s.Library(lang)
}
