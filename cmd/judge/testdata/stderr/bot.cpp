// Amazes bot for judge play --stderr's test: it turns round every turn (T, always legal) and
// writes to stderr: "starting" as it starts, "debug: turn N" on turns 2 and 3. It waits 50 ms
// after writing before it answers, so that the engine has passed stderr on (it comes through
// the engine, the answer through the judge's own pipe) when the judge takes it.
#include <chrono>
#include <iostream>
#include <string>
#include <thread>

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
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        std::cout << "T" << std::endl;
    }
}
