// Lang Wars broken bot (C++), for testing the judge. DELIBERATELY FAULTY.
// - Before its ready message it prints a junk line, and the ready message is
//   "  ready" (lower case, surrounding spaces): the judge ignores lines before
//   READY and compares it case-insensitively, so this is accepted.
// - Turn 1 (workday): "0 1 x 9": x is not an integer and 9 is no language,
//   and the fifth pick is missing; they all count as language 0, so its picks
//   are 0 1 0 0 0 (no fault).
// - Turn 2 (holiday): "7 7 7 7 7": only two picks count (7 7), the extra ones
//   are ignored (no fault).
// - Turn 3 (workday): "6<TAB>5": picks 6 5 0 0 0 (no fault).
// - Turn 4 (holiday): it never answers and spins the CPU forever, so the
//   judge must stop it for exceeding the time limit (a timeout fault on turn
//   4); from then on its picks are language 0.
// It reads every turn's input in full before answering, as a real bot would.
#include <cstdlib>
#include <iostream>
#include <string>

static void readTurn() {
    std::string day;
    int turn, x;
    if (!(std::cin >> turn >> day)) std::exit(0);
    int count = 8 * 4 + 8 + (day == "W" ? 8 : 0);
    for (int i = 0; i < count; i++)
        if (!(std::cin >> x)) std::exit(0);
}

int main() {
    std::cout << "hello, judge\n  ready  \n" << std::flush;
    int x;
    for (int i = 0; i < 3 + 8; i++)  // T P N and the attention degrees
        if (!(std::cin >> x)) return 0;
    readTurn();
    std::cout << "0 1 x 9\n" << std::flush;
    readTurn();
    std::cout << "7 7 7 7 7\n" << std::flush;
    readTurn();
    std::cout << "6\t5\n" << std::flush;
    readTurn();
    volatile unsigned long spin = 0;
    for (;;) spin++;
}
