package contestcmd

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"strings"
	"testing"
	"time"

	"github.com/botjudge/judge/judge/api"
)

// The portal's archive of a version's files is written only as regular files at paths inside
// the directory.
func TestUntarStaysInsideTheVersion(t *testing.T) {
	archive := func(headers ...tar.Header) []byte {
		var buf bytes.Buffer
		gz := gzip.NewWriter(&buf)
		tw := tar.NewWriter(gz)
		for _, h := range headers {
			h.Size = int64(len(h.Name))
			if h.Typeflag != tar.TypeReg {
				h.Size = 0
			}
			h.Mode = 0o644
			tw.WriteHeader(&h)
			tw.Write([]byte(h.Name)[:h.Size])
		}
		tw.Close()
		gz.Close()
		return buf.Bytes()
	}
	for _, tc := range []struct {
		name string
		data []byte
		ok   bool
	}{
		{"plain files", archive(tar.Header{Name: "bot.cpp", Typeflag: tar.TypeReg}, tar.Header{Name: "util.h", Typeflag: tar.TypeReg}), true},
		{"a path up", archive(tar.Header{Name: "../bot.cpp", Typeflag: tar.TypeReg}), false},
		{"a folder", archive(tar.Header{Name: "bot.cpp", Typeflag: tar.TypeReg}, tar.Header{Name: "src/util.h", Typeflag: tar.TypeReg}), true},
		{"a path that leaves and comes back", archive(tar.Header{Name: "src/../../bot.cpp", Typeflag: tar.TypeReg}), false},
		{"an absolute path", archive(tar.Header{Name: "/etc/passwd", Typeflag: tar.TypeReg}), false},
		{"a link", archive(tar.Header{Name: "bot.cpp", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"}), false},
		{"a name twice", archive(tar.Header{Name: "bot.cpp", Typeflag: tar.TypeReg}, tar.Header{Name: "bot.cpp", Typeflag: tar.TypeReg}), false},
		{"not an archive", []byte("<html>a proxy's error page</html>"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files, err := untar(bytes.NewReader(tc.data))
			if (err == nil) != tc.ok {
				t.Errorf("%v %v, want ok %v", files, err, tc.ok)
			}
			if tc.ok && string(files["bot.cpp"]) != "bot.cpp" {
				t.Errorf("the file's content: %q", files["bot.cpp"])
			}
		})
	}
}

// The leaderboard's table names each row's league where the contest has leagues, and each
// league's boss; without leagues, no league column.
func TestPrintBoard(t *testing.T) {
	half := 0.5
	rows := []api.LeaderboardRow{
		{Rank: 1, Login: "cat", Version: 2, Lang: "go", Rating: 30, Matches: 40, RankRange: [2]int{1, 1}, League: "Gold"},
		{Rank: 2, Login: "ann", Version: 1, Lang: "cpp", Rating: 10, Matches: 8, RankRange: [2]int{2, 3}, AboveNext: &half, Provisional: true, League: "Bronze"},
		{Rank: 3, Login: "bob", Version: 1, Lang: "cpp", Rating: 9, Matches: 9, RankRange: [2]int{2, 3}, League: "Bronze"},
	}
	var with, without bytes.Buffer
	printBoard(&with, api.Leaderboard{Rows: rows, Leagues: []api.League{{Name: "Bronze", Boss: "easy", Versions: 2}, {Name: "Gold", Versions: 1}}})
	for _, want := range []string{"RANK     LEAGUE  LOGIN", "1        Gold    cat", "2 (2-3)  Bronze  ann", "50%", "provisional", "league Gold: no boss, 1 on the board\nleague Bronze: boss easy, 2 on the board\n"} {
		if !strings.Contains(with.String(), want) {
			t.Errorf("with leagues, no %q in\n%s", want, with.String())
		}
	}
	for i := range rows {
		rows[i].League = ""
	}
	printBoard(&without, api.Leaderboard{Rows: rows})
	if strings.Contains(without.String(), "LEAGUE") || strings.Contains(without.String(), "league ") || !strings.Contains(without.String(), "2 (2-3)  ann") {
		t.Errorf("without leagues:\n%s", without.String())
	}
}

func TestLeagueLine(t *testing.T) {
	better, not := api.Better, api.NotBetter
	at := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		l    api.LeagueProgress
		want string
	}{
		{api.LeagueProgress{Name: "Bronze", Boss: "easy", LLR: 1.2, Bounds: [2]float64{-2.94, 2.94}, Matches: 7},
			"version 3 is in league Bronze; against its boss easy: undecided (log-likelihood ratio 1.20 between -2.94 and 2.94, 7 matches)"},
		{api.LeagueProgress{Name: "Bronze", Boss: "easy", Verdict: &not, Matches: 20},
			"version 3 is in league Bronze; against its boss easy: not better (a new version tries again) (log-likelihood ratio 0.00 between 0.00 and 0.00, 20 matches)"},
		{api.LeagueProgress{Name: "Gold", Top: true, Promoted: []api.Promotion{{To: "Gold", At: at, Matches: 12}}},
			"version 3 is in league Gold (the top league); moved up to Gold at 2026-12-03T10:00:00Z after 12 matches with the boss below"},
		{api.LeagueProgress{Name: "Legend", Top: true, Boss: "hard", Verdict: &better, Matches: 9},
			"version 3 is in league Legend (the top league); against its boss hard: better (log-likelihood ratio 0.00 between 0.00 and 0.00, 9 matches)"},
	} {
		if got := leagueLine(3, c.l); got != c.want {
			t.Errorf("%+v:\n got %s\nwant %s", c.l, got, c.want)
		}
	}
}
