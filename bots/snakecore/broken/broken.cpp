// SnakeCore broken bot (C++), for testing the judge. DELIBERATELY FAULTY.
// It answers getName ("broken-cpp") and its first two getAction requests legally (N, a
// skip), written with the helper library Snake.h; at its third getAction (turn 3) it
// answers "JUMP", which is no action (one of U L D R N A): a protocol fault at turn 3, which
// disqualifies it (its python stays on the field and never moves again). It then reads and
// ignores its input until the end and exits with code 0.
#include <iostream>
#include <string>

#include "Snake.h"

int main() {
    snake::AreaInfo area;
    int actions = 0;
    for (;;) {
        snake::Request r = snake::readRequest(std::cin, area, actions + 1);
        if (r == snake::REQUEST_END) return 0;
        if (r == snake::REQUEST_NAME) {
            std::cout << "broken-cpp" << std::endl;
            continue;
        }
        actions++;
        std::cout << (actions == 3 ? "JUMP" : "N") << std::endl;
    }
}
