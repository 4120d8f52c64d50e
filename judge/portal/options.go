package portal

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/botjudge/judge/judge/setting"
)

// Options are the portal's: the configuration's portal section.
type Options struct {
	// Listen is where the portal serves.
	Listen string `mapstructure:"listen"`
	// URL is the portal's address as contestants reach it, for invite links; empty is
	// http(s)://Listen.
	URL string `mapstructure:"url"`
	// TLSCert and TLSKey make the portal serve HTTPS itself; both or neither.
	TLSCert string `mapstructure:"tls_cert"`
	TLSKey  string `mapstructure:"tls_key"`
	// TrustedProxies are the reverse proxies (addresses or CIDR prefixes) whose
	// X-Forwarded-For and X-Forwarded-Proto are believed; from anyone else they are ignored.
	TrustedProxies []string `mapstructure:"trusted_proxies"`
	// LoginRate is how many login attempts an address, and a login, may make per minute.
	LoginRate int `mapstructure:"login_rate"`
	// Downloads is a directory of the judge's binaries for contestants, as make release
	// writes it (dist/: judge-VERSION-OS-ARCH files and their SHA256SUMS): the portal lists
	// them on each contest's "the judge" page and serves them at /downloads/NAME. Empty: the
	// page says where else to get the judge.
	Downloads string `mapstructure:"downloads"`
	// TokenDays is how many days an API token lives when its maker does not say (the one
	// user add prints too); TokenMaxDays the most its maker may ask for.
	TokenDays    int `mapstructure:"token_days"`
	TokenMaxDays int `mapstructure:"token_max_days"`
}

// DefaultOptions are the portal's defaults: this machine only, 10 logins a minute, API
// tokens for 90 days (a season) and at most a year.
func DefaultOptions() Options {
	return Options{Listen: "127.0.0.1:8090", TrustedProxies: []string{}, LoginRate: 10, TokenDays: 90, TokenMaxDays: 365}
}

// TokenTTL is how long a token lives when its maker does not say.
func (o Options) TokenTTL() time.Duration { return time.Duration(o.TokenDays) * 24 * time.Hour }

// Validate checks the options; errors name the key.
func (o Options) Validate() error {
	var errs []error
	if _, _, err := net.SplitHostPort(o.Listen); err != nil {
		errs = append(errs, setting.Invalid("listen", "want host:port (got %q)", o.Listen))
	}
	if o.URL != "" {
		if u, err := url.Parse(o.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			errs = append(errs, setting.Invalid("url", "want an http or https URL (got %q)", o.URL))
		}
	}
	if (o.TLSCert == "") != (o.TLSKey == "") {
		errs = append(errs, setting.Invalid("tls_cert", "tls_cert and tls_key go together"))
	}
	_, err := parseProxies(o.TrustedProxies)
	errs = append(errs, setting.Named("trusted_proxies", err), setting.Positive("login_rate", o.LoginRate),
		setting.Positive("token_days", o.TokenDays), setting.Positive("token_max_days", o.TokenMaxDays))
	if o.TokenDays > o.TokenMaxDays {
		errs = append(errs, setting.Invalid("token_days", "%d is more than token_max_days, %d", o.TokenDays, o.TokenMaxDays))
	}
	return errors.Join(errs...)
}

func parseProxies(list []string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, p := range list {
		p = strings.TrimSpace(p)
		if pr, err := netip.ParsePrefix(p); err == nil {
			out = append(out, pr.Masked())
			continue
		}
		a, err := netip.ParseAddr(p)
		if err != nil {
			return nil, fmt.Errorf("%q is neither an address nor a CIDR prefix", p)
		}
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// BaseURL is where contestants reach the portal.
func (o Options) BaseURL() string {
	if o.URL != "" {
		return strings.TrimRight(o.URL, "/")
	}
	if o.TLSCert != "" {
		return "https://" + o.Listen
	}
	return "http://" + o.Listen
}

// InviteURL serves the link a user opens to set a password.
func (o Options) InviteURL(code string) string { return o.BaseURL() + "/invite/" + code }
