// Stderr bot for the match runner's tests: it writes "starting" to stderr as it starts and
// "bye" when its input ends. Each line read is a command: "err TEXT" writes TEXT to stderr
// and answers "ok"; any other line is answered with itself (the script game's echo).
#include <iostream>
#include <string>

int main() {
    std::cerr << "starting" << std::endl;
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.rfind("err ", 0) == 0) {
            std::cerr << line.substr(4) << std::endl;
            std::cout << "ok" << std::endl;
        } else {
            std::cout << line << std::endl;
        }
    }
    std::cerr << "bye" << std::endl;
}
