package portal

import (
	"bufio"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/botjudge/judge/judge/api"
)

// downloadPages serves the judge's downloads and the page that says how to judge locally.
type downloadPages struct{ *Server }

// download is one of the judge's binaries the portal serves.
type download struct {
	Name, OS, Arch, Sum string
}

// downloads are the binaries SHA256SUMS in the downloads directory lists, of the names make
// release gives them (judge-VERSION-OS-ARCH): nothing else in the directory is served.
func (s downloadPages) downloads() ([]download, error) {
	if s.c.Downloads == "" {
		return nil, nil
	}
	f, err := os.Open(filepath.Join(s.c.Downloads, "SHA256SUMS"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []download
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		parts := strings.Split(name, "-")
		if !ok || len(sum) != 64 || len(parts) < 4 || parts[0] != "judge" || strings.ContainsAny(name, `/\`) {
			continue
		}
		out = append(out, download{Name: name, OS: parts[len(parts)-2], Arch: strings.TrimSuffix(parts[len(parts)-1], ".exe"), Sum: sum})
	}
	return out, sc.Err()
}

// judgePage is a contest's page of the judge for contestants: its binaries, and the commands
// that test a bot on one's own machine and use the portal from a terminal.
func (s downloadPages) judgePage(w http.ResponseWriter, r *http.Request, c caller) error {
	files, err := s.downloads()
	if err != nil {
		s.c.Log.Error("the judge's downloads", "dir", s.c.Downloads, "err", err)
	}
	ct, err := s.c.Store.Contest(r.Context(), c.Contest)
	if err != nil {
		return err
	}
	_, added := s.gameDir(ct)
	s.render(w, http.StatusOK, "judge.html", struct {
		pageData
		Files   []download
		Version string
		URL     string
		Game    string
		// GameArg is judge play's --game; Added, whether it is the directory of the game's
		// download.
		GameArg string
		Added   bool
		// Starters are the languages of the contest's starter bots; PlayStarter and Play the
		// commands that play a match of the contest with one, and with the contestant's bots.
		Starters          []string
		PlayStarter, Play string
	}{s.base(r, c, "The judge", ""), files, s.c.Version, s.c.BaseURL() + "/c/" + c.Contest + "/", ct.Game, gameArg(ct, added), added, s.starters(ct),
		s.localPlay(ct, added, ct.Game+"-LANG/", ct.Game+"-LANG/"), s.localPlay(ct, added, "mybot/", "otherbot/")})
	return nil
}

// downloadFile serves one of the listed binaries, to anyone: the judge is no secret.
func (s downloadPages) downloadFile(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	files, err := s.downloads()
	if err != nil {
		s.writeError(w, api.Errorf(api.CodeUnavailable, "the judge's downloads cannot be read now"))
		return
	}
	for _, f := range files {
		if f.Name != name {
			continue
		}
		file, err := os.Open(filepath.Join(s.c.Downloads, name))
		if err != nil {
			s.writeError(w, api.Errorf(api.CodeNotFound, "%s is listed but not there: ask the organisers", name))
			return
		}
		defer file.Close()
		st, err := file.Stat()
		if err != nil || !st.Mode().IsRegular() {
			s.writeError(w, api.Errorf(api.CodeNotFound, "%s is listed but not there: ask the organisers", name))
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
		http.ServeContent(w, r, name, st.ModTime(), file)
		return
	}
	s.writeError(w, api.Errorf(api.CodeNotFound, "no such download"))
}
