// Chaos bot for the soak (judge/daemon TestSoak): it picks one fault at random when it starts
// and commits it at its first request, whatever the game: crash (abort), timeout (spins),
// sleep (blocks past the wall clock), flood (a line of 20 MiB), garbage (an answer no game
// takes) or exit (ends before reading anything).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>
#include <thread>

int main() {
    std::random_device rd;
    int fault = rd() % 6;
    if (fault == 5) return 0;  // exit
    std::string line;
    if (!std::getline(std::cin, line)) return 0;
    switch (fault) {
    case 0: std::abort();
    case 1: for (volatile unsigned long i = 0;; i++) {}
    case 2: std::this_thread::sleep_for(std::chrono::hours(1)); return 0;
    case 3: {
        std::string chunk(1 << 20, 'x');
        for (int i = 0; i < 20; i++) fwrite(chunk.data(), 1, chunk.size(), stdout);
        fflush(stdout);
        return 0;
    }
    default:
        for (;;) {
            std::cout << "!! garbage ??" << std::endl;
            if (!std::getline(std::cin, line)) return 0;
        }
    }
}
