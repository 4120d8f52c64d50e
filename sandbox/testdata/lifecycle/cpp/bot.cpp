// Test bot for the judge's bot-lifecycle tests (C++ version).
//
// Before reading stdin it runs each line of ./start.txt, if that file
// exists, as a command ("burn 500" then "echo READY", say). Then it runs every stdin line as a command and exits
// with status 0 at end of input. Commands:
//   echo ...   print the whole line back        exit N     exit with status N
//   burn MS    burn MS ms of CPU, say "burned"  sleep MS   sleep MS ms, say "slept"
//   signal N   raise signal N, then say "alive" if still running
//   close      close stdout, then spin forever  hang       block forever
//   other      say "unknown"
// Answers are flushed at once; start.txt commands answer only "echo".
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <unistd.h>

static double cpuMillis() {
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void answer(const std::string &s) { std::cout << s << std::endl; }

static void run(std::string line, bool fromStdin) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::istringstream in(line);
    std::string cmd;
    long n = 0;
    in >> cmd >> n;
    if (cmd == "echo") {
        answer(line);
    } else if (cmd == "exit") {
        std::cout.flush();
        _exit(static_cast<int>(n));
    } else if (cmd == "burn") {
        double end = cpuMillis() + n;
        while (cpuMillis() < end) {
        }
        if (fromStdin) answer("burned");
    } else if (cmd == "sleep") {
        usleep(static_cast<useconds_t>(n) * 1000);
        if (fromStdin) answer("slept");
    } else if (cmd == "signal") {
        raise(static_cast<int>(n));
        answer("alive");
    } else if (cmd == "close") {
        close(1);
        for (volatile unsigned long i = 0;; i++) {
        }
    } else if (cmd == "hang") {
        for (;;) sleep(1000);
    } else {
        answer("unknown");
    }
}

int main() {
    std::ifstream start("start.txt");
    std::string line;
    while (start && std::getline(start, line)) run(line, false);
    while (std::getline(std::cin, line)) run(line, true);
    return 0;
}
