// Drop the Block broken bot (C++), for testing the judge. DELIBERATELY FAULTY.
// It prints READY and answers its first two turns with N (legal). At its third
// turn (global turn 8 + its id) it reads the input and then spins in an endless
// loop without answering: the judge must record a "timeout" fault at that turn
// (after 1 s of CPU with the default options), stop the program, and keep its
// player on the board doing N for the rest of the game.
#include <iostream>
#include <string>

int main() {
    std::cout << "READY\n" << std::flush;
    std::string line;
    for (int turn = 1;; turn++) {
        // One turn's input: id, T, 6 block rows, 4 player lines, EOD.
        for (int i = 0; i < 13; i++)
            if (!std::getline(std::cin, line)) return 0;
        if (turn == 3) {
            volatile unsigned long spin = 0;
            for (;;) spin++;
        }
        std::cout << "N\n" << std::flush;
    }
}
