// Amazes bot for judge play --stderr's test: it turns round every turn (T, always legal) and
// writes to stderr: "starting" as it starts, "debug: turn N" on turns 2 and 3, just before
// it answers.
#include <iostream>
#include <string>

int main() {
    std::cerr << "starting" << std::endl;
    std::string line;
    int turn = 0, lines = 0;
    while (std::getline(std::cin, line)) {
        if (line == "Quit") break;
        if (line == "Start") continue;
        if (++lines < 5) continue;  // four corridors and the distance make a turn
        lines = 0;
        turn++;
        if (turn == 2 || turn == 3) {
            std::cerr << "debug: turn " << turn << std::endl;
        }
        std::cout << "T" << std::endl;
    }
}
