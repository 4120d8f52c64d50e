// Amazes broken bot (C++), for testing the judge. DELIBERATELY FAULTY.
// Turns 1-3: plays legally (one step per turn: the first open direction of
// right, ahead, left, behind). Turn 4: writes the line "FXQ" (characters other
// than F T L R), which is an illegal move: the judge must record a protocol
// fault for it on its 4th turn (final score 0) and move it with 'T' from then
// on. After that line it answers nothing more: it reads and ignores its input
// until "Quit" or end of file and then exits with code 0.
#include <iostream>
#include <string>

static bool readLine(std::string &s) {
    if (!std::getline(std::cin, s)) return false;
    while (!s.empty() && (s.back() == '\r' || s.back() == ' ')) s.pop_back();
    return true;
}

int main() {
    const char moveChar[4] = {'F', 'R', 'T', 'L'};  // ahead, right, behind, left
    const int order[4] = {1, 0, 3, 2};              // right, ahead, left, behind
    std::string line;
    for (int turn = 1; turn <= 3; turn++) {
        if (!readLine(line) || line == "Quit") return 0;
        if (line == "Start" && (!readLine(line) || line == "Quit")) return 0;
        std::string corridor[4];
        corridor[0] = line;
        for (int d = 1; d < 4; d++)
            if (!readLine(corridor[d])) return 0;
        std::string distance;
        if (!readLine(distance)) return 0;
        char move = 'T';
        for (int k = 3; k >= 0; k--)
            if (!corridor[order[k]].empty() && corridor[order[k]][0] != 'W') move = moveChar[order[k]];
        std::cout << move << "\n" << std::flush;
    }
    // Turn 4: wait for the turn's input (so the fault is clearly on turn 4), then the illegal line.
    for (int i = 0; i < 5; i++)
        if (!readLine(line) || line == "Quit") return 0;
    std::cout << "FXQ\n" << std::flush;
    while (readLine(line))
        if (line == "Quit") return 0;
    return 0;
}
