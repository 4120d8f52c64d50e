// Stderr bot for the match runner's tests: it writes "starting" to stderr as it starts and
// "bye" when its input ends. Each line read is a command: "err TEXT" writes TEXT to stderr
// and answers "ok"; any other line is answered with itself (the script game's echo).
//
// It writes stderr with write(2), not std::cerr: a stream that fails once stays failed, and
// everything after is dropped without a word. A write that fails is remembered and told in
// every answer after it ("ok" becomes "ok; stderr write failed: errno N"): a stderr missing
// from the replay is then the bot's own failed write, told apart from a judge that lost it.
#include <cerrno>
#include <iostream>
#include <string>
#include <unistd.h>

static int failed = 0;

static void err(const std::string& text) {
    std::string line = text + "\n";
    if (write(2, line.data(), line.size()) != static_cast<ssize_t>(line.size()) && failed == 0) {
        failed = errno != 0 ? errno : 99;
    }
}

int main() {
    err("starting");
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.rfind("err ", 0) == 0) {
            err(line.substr(4));
            std::cout << "ok";
            if (failed != 0) std::cout << "; stderr write failed: errno " << failed;
            std::cout << std::endl;
        } else {
            std::cout << line << std::endl;
        }
    }
    err("bye");
}
