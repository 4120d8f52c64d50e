// Probe bot for the sandbox tests: each line read is a command; each command answers one line.
// It tries the things the sandbox must stop and reports what happened.
#include <arpa/inet.h>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <iostream>
#include <netinet/in.h>
#include <signal.h>
#include <sstream>
#include <string>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

static double cpu_seconds() {
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static volatile unsigned long sink;

static void burn(double seconds) {
    double end = cpu_seconds() + seconds;
    while (cpu_seconds() < end) {
        for (int i = 0; i < 100000; i++) sink += i;
    }
}

int main() {
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        std::string cmd;
        in >> cmd;
        if (cmd == "echo") {
            std::string rest;
            std::getline(in, rest);
            std::cout << "echo" << rest << std::endl;
        } else if (cmd == "burn") {  // burn N ms of CPU, answer the CPU time this process measured
            int ms;
            in >> ms;
            double before = cpu_seconds();
            burn(ms / 1000.0);
            std::cout << "burned " << (long)((cpu_seconds() - before) * 1e6) << std::endl;
        } else if (cmd == "spin") {  // a thread that burns CPU forever, behind the judge's back
            std::thread([] { for (;;) sink++; }).detach();
            std::cout << "spinning" << std::endl;
        } else if (cmd == "sleep") {
            int ms;
            in >> ms;
            usleep(ms * 1000);
            std::cout << "slept" << std::endl;
        } else if (cmd == "fork") {
            pid_t pid = fork();
            if (pid == 0) _exit(0);
            std::cout << "fork " << (pid < 0 ? strerror(errno) : "succeeded") << std::endl;
        } else if (cmd == "thread") {  // threads must work
            int v = 0;
            std::thread t([&] { v = 42; });
            t.join();
            std::cout << "thread " << v << std::endl;
        } else if (cmd == "alloc") {  // touch N MiB
            int mib;
            in >> mib;
            std::vector<char*> blocks;
            for (int i = 0; i < mib; i++) {
                char* b = (char*)malloc(1 << 20);
                if (!b) break;
                memset(b, 1, 1 << 20);
                blocks.push_back(b);
            }
            std::cout << "allocated " << blocks.size() << std::endl;
        } else if (cmd == "write") {  // create a file at the path
            std::string path;
            in >> path;
            int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            std::cout << "write " << path << " " << (fd < 0 ? strerror(errno) : "succeeded") << std::endl;
            if (fd >= 0) close(fd);
        } else if (cmd == "net") {  // report interfaces other than lo, then try a TCP connect
            FILE* f = fopen("/proc/net/dev", "r");
            std::string ifaces;
            char buf[512];
            while (f && fgets(buf, sizeof buf, f)) {
                char* colon = strchr(buf, ':');
                if (!colon) continue;
                *colon = 0;
                char* name = buf;
                while (*name == ' ') name++;
                if (strcmp(name, "lo") != 0) ifaces += std::string(name) + ",";
            }
            if (f) fclose(f);
            int s = socket(AF_INET, SOCK_STREAM, 0);
            sockaddr_in a{};
            a.sin_family = AF_INET;
            a.sin_port = htons(80);
            inet_pton(AF_INET, "192.0.2.1", &a.sin_addr);  // TEST-NET-1: never routed anywhere
            int r = s < 0 ? -1 : connect(s, (sockaddr*)&a, sizeof a);
            std::cout << "net ifaces=[" << ifaces << "] connect=" << (r < 0 ? strerror(errno) : "succeeded") << std::endl;
        } else if (cmd == "cat") {  // the first line of a file
            std::string path, first;
            in >> path;
            FILE* f = fopen(path.c_str(), "r");
            char buf[256] = "";
            if (f && fgets(buf, sizeof buf, f)) first = buf;
            if (!first.empty() && first.back() == '\n') first.pop_back();
            std::cout << "cat " << (f ? first : strerror(errno)) << std::endl;
            if (f) fclose(f);
        } else if (cmd == "flood") {  // stdout without end
            std::string chunk(65536, 'x');
            for (;;) std::cout << chunk << '\n';
        } else if (cmd == "errflood") {  // stderr without end, then an answer
            std::string chunk(65536, 'e');
            for (int i = 0; i < 256; i++) std::cerr << chunk;
            std::cout << "done" << std::endl;
        } else if (cmd == "segv") {
            std::cout.flush();
            *(volatile int*)nullptr = 1;
        } else if (cmd == "exit") {
            int code;
            in >> code;
            exit(code);
        } else if (cmd == "close") {  // close stdout and keep running
            close(1);
            sleep(60);
        } else if (cmd == "exec") {  // run another program in place of this one
            std::string path;
            in >> path;
            execl(path.c_str(), path.c_str(), (char*)nullptr);
            std::cout << "exec " << strerror(errno) << std::endl;
        } else if (cmd == "silent") {  // a notice: no answer
        } else {
            std::cout << "unknown " << cmd << std::endl;
        }
    }
}
