// Probe bot for the sandbox tests: each line read is a command; each command answers one line.
// It tries the things the sandbox must stop and reports what happened.
#include <arpa/inet.h>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <fstream>
#include <functional>
#include <pthread.h>
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
#include <dirent.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <cstddef>

extern char** environ;

// attempt reports how a system call the sandbox should refuse ended.
static std::string attempt(const std::string& what) {
    long r = -1;
    if (what == "unshare") r = unshare(CLONE_NEWUSER | CLONE_NEWNS);
    else if (what == "mount") r = mount("none", "/work", "tmpfs", 0, nullptr);
    else if (what == "bpf") { union bpf_attr a{}; r = syscall(SYS_bpf, BPF_MAP_CREATE, &a, sizeof a); }
    else if (what == "io_uring") { char p[120] = {}; r = syscall(425 /* io_uring_setup */, 8, p); }
    else if (what == "userfaultfd") r = syscall(SYS_userfaultfd, 0);
    else if (what == "perf") { perf_event_attr a{}; a.size = sizeof a; r = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0); }
    else if (what == "keyctl") r = syscall(SYS_keyctl, 0 /* KEYCTL_GET_KEYRING_ID */, -3, 0);
    else if (what == "vsock") r = socket(40 /* AF_VSOCK */, SOCK_STREAM, 0);
    else if (what == "ptrace") r = ptrace(PTRACE_TRACEME, 0, nullptr, nullptr);
    else if (what == "process_vm_readv" || what == "process_vm_writev") {  // on its own memory
        char a[8] = "x", b[8];
        iovec local{b, sizeof b}, remote{a, sizeof a};
        r = what == "process_vm_readv" ? process_vm_readv(getpid(), &local, 1, &remote, 1, 0)
                                       : process_vm_writev(getpid(), &local, 1, &remote, 1, 0);
    }
    else if (what == "setuid") r = setuid(0);
    else if (what == "chroot") r = chroot("/work");
    else if (what == "memfd") r = syscall(SYS_memfd_create, "x", 0);
    else return "unknown";
    return r < 0 ? strerror(errno) : "succeeded";
}

// inet_connect reads "ADDR PORT", connects a socket of the type there and reports
// "ADDR:PORT result" (ok when connected). With loopback_only, any other address is EINVAL.
static std::string inet_connect(std::istringstream& in, int type, bool loopback_only, const char* ok) {
    std::string addr;
    int port = 0;
    in >> addr >> port;
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    int s = -1, r = -1;
    if (inet_pton(AF_INET, addr.c_str(), &a.sin_addr) != 1 || (loopback_only && ntohl(a.sin_addr.s_addr) >> 24 != 127)) errno = EINVAL;
    else if ((s = socket(AF_INET, type, 0)) >= 0) r = connect(s, (sockaddr*)&a, sizeof a);
    std::string out = addr + ":" + std::to_string(port) + " " + (r < 0 ? strerror(errno) : ok);
    if (s >= 0) close(s);
    return out;
}

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
    bool linger = false;
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
        } else if (cmd == "lines") {  // the number of lines of a file
            std::string path, l;
            in >> path;
            std::ifstream f(path);
            int n = 0;
            while (std::getline(f, l)) n++;
            std::cout << "lines " << (f.bad() || !f.eof() ? strerror(errno) : std::to_string(n)) << std::endl;
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
        } else if (cmd == "try") {  // a system call of the kernel surface
            std::string what;
            in >> what;
            std::cout << "try " << what << " " << attempt(what) << std::endl;
        } else if (cmd == "threads") {  // create N threads that wait, report how many started
            int n, ok = 0;
            in >> n;
            for (int i = 0; i < n; i++) {
                pthread_t t;
                if (pthread_create(&t, nullptr, [](void*) -> void* { pause(); return nullptr; }, nullptr) != 0) break;
                ok++;
            }
            std::cout << "threads " << ok << std::endl;
        } else if (cmd == "files") {  // open files until refused
            int n = 0;
            while (open("/proc/self/status", O_RDONLY) >= 0) n++;
            std::cout << "files " << n << std::endl;
        } else if (cmd == "ls") {  // the entries of a directory
            std::string path, out;
            in >> path;
            DIR* d = opendir(path.c_str());
            for (dirent* e; d && (e = readdir(d));) {
                if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) out += std::string(e->d_name) + ",";
            }
            if (d) closedir(d);
            std::cout << "ls " << (d ? out : strerror(errno)) << std::endl;
        } else if (cmd == "env") {
            std::string out;
            for (char** e = environ; *e; e++) out += std::string(*e) + ",";
            std::cout << "env " << out << std::endl;
        } else if (cmd == "caps") {  // effective capabilities and user
            std::string l, eff;
            std::ifstream f("/proc/self/status");
            while (std::getline(f, l)) if (l.rfind("CapEff:", 0) == 0) eff = l.substr(7);
            std::istringstream e(eff);
            e >> eff;
            std::cout << "caps " << eff << " uid " << getuid() << std::endl;
        } else if (cmd == "burnmt") {  // N threads burn CPU for MS ms of wall time
            int n, ms;
            in >> n >> ms;
            std::vector<std::thread> ts;
            auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
            for (int i = 0; i < n; i++) ts.emplace_back([end] { while (std::chrono::steady_clock::now() < end) sink++; });
            for (auto& t : ts) t.join();
            std::cout << "burned" << std::endl;
        } else if (cmd == "burnwith") {  // burn N ms of this process's CPU clock with H helper threads burning beside, answer the clock
            int ms, h;
            in >> ms >> h;
            std::atomic<bool> stop{false};
            std::vector<std::thread> ts;
            double before = cpu_seconds();
            for (int i = 0; i < h; i++) ts.emplace_back([&stop] { while (!stop) sink++; });
            while (cpu_seconds() - before < ms / 1000.0) {
                for (int i = 0; i < 100000; i++) sink += i;
            }
            stop = true;
            for (auto& t : ts) t.join();
            std::cout << "burned " << (long)((cpu_seconds() - before) * 1e6) << std::endl;
        } else if (cmd == "syscalls") {  // burn N ms of this process's CPU clock in system calls, answer the clock
            int ms;
            in >> ms;
            double before = cpu_seconds();
            while (cpu_seconds() - before < ms / 1000.0) {
                for (int i = 0; i < 100; i++) syscall(SYS_getppid);
            }
            std::cout << "burned " << (long)((cpu_seconds() - before) * 1e6) << std::endl;
        } else if (cmd == "recurse") {  // unbounded recursion
            std::function<int(int)> f = [&](int d) { volatile char pad[4096]; pad[0] = d; return f(d + 1) + pad[0]; };
            std::cout << "recurse " << f(0) << std::endl;
        } else if (cmd == "noline") {  // an answer without its newline, then silence
            std::cout << "no newline" << std::flush;
            sleep(60);
        } else if (cmd == "nul") {  // a line with a NUL byte and invalid UTF-8
            std::cout << std::string("a\0b\xff\xfe", 5) << std::endl;
        } else if (cmd == "deaf") {  // stops reading stdin for good
            sleep(3600);
        } else if (cmd == "selfstop") {  // SIGSTOP to itself
            kill(getpid(), SIGSTOP);
            std::cout << "selfstop survived" << std::endl;
        } else if (cmd == "fileless") {  // copy itself into a memfd and execute that
            signal(SIGXFSZ, SIG_IGN);  // gVisor applies RLIMIT_FSIZE to a memfd: go on to the exec
            int fd = syscall(SYS_memfd_create, "x", 0), self = open("/proc/self/exe", O_RDONLY);
            char buf[65536];
            for (ssize_t n; fd >= 0 && self >= 0 && (n = read(self, buf, sizeof buf)) > 0;) write(fd, buf, n);
            char* argv[] = {(char*)"x", nullptr};
            if (fd >= 0) fexecve(fd, argv, environ);
            std::cout << "fileless " << strerror(errno) << std::endl;
        } else if (cmd == "int80") {  // a system call through the 32-bit ABI (getpid)
            long r;
            __asm__ volatile("int $0x80" : "=a"(r) : "a"(20L) : "memory");
            std::cout << "int80 " << r << std::endl;
        } else if (cmd == "listen") {  // bind an abstract unix socket and wait for a peer
            std::string name;
            in >> name;
            int s = socket(AF_UNIX, SOCK_STREAM, 0);
            sockaddr_un a{};
            a.sun_family = AF_UNIX;
            memcpy(a.sun_path + 1, name.data(), name.size());
            socklen_t len = offsetof(sockaddr_un, sun_path) + 1 + name.size();
            int r = bind(s, (sockaddr*)&a, len) == 0 ? listen(s, 1) : -1;
            std::cout << "listen " << (r < 0 ? strerror(errno) : "ok") << std::endl;
        } else if (cmd == "dial") {  // connect to another's abstract unix socket
            std::string name;
            in >> name;
            int s = socket(AF_UNIX, SOCK_STREAM, 0);
            sockaddr_un a{};
            a.sun_family = AF_UNIX;
            memcpy(a.sun_path + 1, name.data(), name.size());
            socklen_t len = offsetof(sockaddr_un, sun_path) + 1 + name.size();
            std::cout << "dial " << (connect(s, (sockaddr*)&a, len) < 0 ? strerror(errno) : "connected") << std::endl;
        } else if (cmd == "cpus") {  // the cores it may run on (its affinity)
            cpu_set_t set;
            std::string cpus;
            if (sched_getaffinity(0, sizeof set, &set) == 0) {
                for (int i = 0; i < CPU_SETSIZE; i++) {
                    if (CPU_ISSET(i, &set)) cpus += (cpus.empty() ? "" : ",") + std::to_string(i);
                }
            }
            std::cout << "cpus " << cpus << std::endl;
        } else if (cmd == "bigline") {  // one line of N MiB
            int mib;
            in >> mib;
            std::string chunk(1 << 20, 'x');
            for (int i = 0; i < mib; i++) std::cout << chunk;
            std::cout << std::endl;
        } else if (cmd == "linger") {  // stay when the input ends, instead of exiting
            linger = true;
            std::cout << "lingering" << std::endl;
        } else if (cmd == "route") {  // a UDP connect: the kernel looks up a route and sends nothing
            std::cout << "route " << inet_connect(in, SOCK_DGRAM, false, "found") << std::endl;
        } else if (cmd == "tcp") {  // a TCP connect, to loopback only: tests reach nothing else
            std::cout << "tcp " << inet_connect(in, SOCK_STREAM, true, "connected") << std::endl;
        } else if (cmd == "fill") {  // write 1 MiB chunks to a new file in DIR, up to MIB
            std::string dir;
            int mib, n = 0, err = 0;
            in >> dir >> mib;
            signal(SIGXFSZ, SIG_IGN);  // past the file size limit: an error, not death
            std::string chunk(1 << 20, 'f');
            int fd = open((dir + "/fill").c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
            if (fd < 0) err = errno;
            for (; fd >= 0 && n < mib; n++) {
                if (write(fd, chunk.data(), chunk.size()) != (ssize_t)chunk.size()) {
                    err = errno;
                    break;
                }
            }
            std::cout << "fill " << n << " " << (err ? strerror(err) : "ok") << std::endl;
            if (fd >= 0) close(fd);
        } else if (cmd == "shm") {  // a System V shared memory segment of N MiB, touched
            int mib;
            in >> mib;
            size_t size = (size_t)mib << 20;
            int id = shmget(IPC_PRIVATE, size, IPC_CREAT | 0600);
            char* m = id < 0 ? (char*)-1 : (char*)shmat(id, nullptr, 0);
            if (m != (char*)-1) memset(m, 1, size);
            std::cout << "shm " << (m == (char*)-1 ? strerror(errno) : "touched") << std::endl;
        } else if (cmd == "pid") {
            std::cout << "pid " << getpid() << std::endl;
        } else if (cmd == "silent") {  // a notice: no answer
        } else {
            std::cout << "unknown " << cmd << std::endl;
        }
    }
    while (linger) pause();
}
