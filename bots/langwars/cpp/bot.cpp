// Lang Wars sample bot (C++): propagates the languages with the best attention
// to competition ratio.
// It prints READY, reads the settings (turns, players, languages, attention
// degrees), then each turn reads the revealed believers, its own real
// believers and (on workdays) how often each language was propagated in the
// last holiday. It estimates every opponent's believers as the revealed ones
// plus an equal share of the holiday propagations that were not its own. Then,
// pick by pick (5 on a workday, 2 on a holiday), it takes the language with the
// highest attention / (1 + |best opponent's believers - its own|): languages
// it can just win or just keep, weighted by what they are worth (ties: the
// lowest language). It prints the picks on one line, and exits at end of input
// or after the last turn. Deterministic.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>

int main() {
    std::cout << "READY\n" << std::flush;
    int turns, players, langs;
    if (!(std::cin >> turns >> players >> langs)) return 0;
    if (players < 2 || langs < 1 || langs > 64) return 0;
    const int N = langs, P = players;
    double attention[64];
    long holidayTotal[64] = {0};  // all players' holiday propagations so far
    for (int l = 0; l < N; l++)
        if (!(std::cin >> attention[l])) return 0;
    for (int t = 1; t <= turns; t++) {
        int turn;
        std::string day;
        if (!(std::cin >> turn >> day)) return 0;
        long revealed[64][16], real[64], prop[64];
        for (int l = 0; l < N; l++)
            for (int j = 0; j < P && j < 16; j++)
                if (!(std::cin >> revealed[l][j])) return 0;
        for (int l = 0; l < N; l++)
            if (!(std::cin >> real[l])) return 0;
        bool workday = day == "W";
        if (workday) {
            for (int l = 0; l < N; l++) {
                if (!(std::cin >> prop[l])) return 0;
                holidayTotal[l] += prop[l];
            }
        }
        double mine[64], best[64];
        for (int l = 0; l < N; l++) {
            // Holiday believers of the others: all holiday picks minus its own.
            double hidden = holidayTotal[l] - (real[l] - revealed[l][0]);
            if (hidden < 0) hidden = 0;
            mine[l] = (double)real[l];
            best[l] = 0;
            for (int j = 1; j < P && j < 16; j++) {
                double other = revealed[l][j] + hidden / (P - 1);
                if (other > best[l]) best[l] = other;
            }
        }
        int picks = workday ? 5 : 2;
        std::string line;
        for (int k = 0; k < picks; k++) {
            int choice = 0;
            double top = -1;
            for (int l = 0; l < N; l++) {
                double v = attention[l] / (1.0 + std::fabs(best[l] - mine[l]));
                if (v > top) {
                    top = v;
                    choice = l;
                }
            }
            mine[choice] += 1;
            if (k > 0) line += ' ';
            line += std::to_string(choice);
        }
        // A note of its picks (listed by the viewer: docs/viewer.md, Drawing on the board).
        std::cerr << "@judge note layer=sample picked " << line << std::endl;
        std::cout << line << "\n" << std::flush;
    }
    return 0;
}
