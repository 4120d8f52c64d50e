// The reset's red team: a bot that, in one match, leaves behind everything it can in its
// container, and in the next looks for any of it. Commands, one answer line each:
//   look    "clean", or "found" and what it found
//   state   what it inherited: limits, priority, scheduler, affinity, umask, directory
//   leave   leaves what it can and answers what it managed
//   tamper  changes what it may of the launcher (its parent), answers what it managed
//   fork    tries to leave a process (the judge's filter kills it)
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <iostream>
#include <mqueue.h>
#include <sched.h>
#include <sstream>
#include <string>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static const key_t key = 0x4a554447;  // "JUDG"

static std::string entries(const char* dir) {
    std::string out;
    DIR* d = opendir(dir);
    if (!d) return out;
    while (dirent* e = readdir(d)) {
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) out += std::string(" ") + dir + "/" + e->d_name;
    }
    closedir(d);
    return out;
}

static int rows(const char* table) {  // the objects of a /proc/sysvipc table
    FILE* f = fopen(table, "r");
    if (!f) return 0;
    char line[512];
    int n = -1;  // the header
    while (fgets(line, sizeof line, f)) n++;
    fclose(f);
    return n < 0 ? 0 : n;
}

static std::string look(int fds_at_start, int sigs_at_start) {
    std::string found;
    for (const char* dir : {"/tmp", "/dev/shm", "/work", "/var/tmp", "/judge/io"}) {
        std::string e = entries(dir);
        if (std::string(dir) == "/judge/io") {  // its pipes, and nothing else
            for (const char* p : {" /judge/io/in", " /judge/io/out", " /judge/io/err"}) {
                size_t at = e.find(p);
                if (at != std::string::npos) e.erase(at, strlen(p));
            }
        }
        found += e;
    }
    for (const char* t : {"/proc/sysvipc/shm", "/proc/sysvipc/msg", "/proc/sysvipc/sem"})
        if (rows(t) > 0) found += std::string(" ") + t;
    if (shmget(key, 0, 0) >= 0) found += " shm-key";
    if (msgget(key, 0) >= 0) found += " msg-key";
    if (semget(key, 0, 0) >= 0) found += " sem-key";
    mqd_t q = mq_open("/leftover", O_RDONLY);
    if (q != (mqd_t)-1) found += " mqueue";
    // Processes: itself, and the launcher (it serves the bot under runc, relays its stdout
    // under gVisor), which runs /judge/init.
    DIR* d = opendir("/proc");
    while (dirent* e = d ? readdir(d) : nullptr) {
        int pid = atoi(e->d_name);
        if (pid <= 0 || pid == getpid()) continue;
        char cmd[16] = "";
        FILE* f = fopen(("/proc/" + std::string(e->d_name) + "/cmdline").c_str(), "r");
        if (f) {
            fread(cmd, 1, sizeof cmd - 1, f);
            fclose(f);
        }
        if (strcmp(cmd, "/judge/init") != 0) found += " process " + std::string(e->d_name);
    }
    if (d) closedir(d);
    if (fds_at_start > 3) found += " fds " + std::to_string(fds_at_start);
    if (sigs_at_start) found += " signal pending";
    if (getenv("LEFTOVER")) found += " environment";
    return found.empty() ? "clean" : "found" + found;
}

static int count_fds() {
    int n = 0;
    DIR* d = opendir("/proc/self/fd");
    while (dirent* e = d ? readdir(d) : nullptr)
        if (e->d_name[0] != '.') n++;
    if (d) closedir(d);
    return n - 1;  // the directory's own
}

static std::string state() {
    std::ostringstream o;
    for (int r = 0; r < RLIM_NLIMITS; r++) {
        rlimit l;
        getrlimit(r, &l);
        o << l.rlim_cur << "/" << l.rlim_max << " ";
    }
    errno = 0;
    o << "nice " << getpriority(PRIO_PROCESS, 0) << " policy " << sched_getscheduler(0);
    o << " ioprio " << syscall(SYS_ioprio_get, 1, 0);
    cpu_set_t cpus;
    sched_getaffinity(0, sizeof cpus, &cpus);
    o << " cpus " << CPU_COUNT(&cpus);
    mode_t m = umask(022);
    umask(m);
    char cwd[256] = "";
    o << " umask " << m << " cwd " << (getcwd(cwd, sizeof cwd) ? cwd : "?");
    o << " env " << (getenv("LEFTOVER") ? "changed" : "as given");
    return o.str();
}

static void note(std::string& out, const char* what, bool ok) {
    if (ok) out += std::string(" ") + what;
}

static std::string leave() {
    std::string out;
    for (const char* f : {"/tmp/file", "/leftover", "/work/leftover", "/bot/leftover", "/dev/shm/leftover",
                          "/dev/leftover", "/judge/io/leftover", "/var/tmp/leftover", "/root/leftover"}) {
        int fd = open(f, O_CREAT | O_WRONLY, 0644);  // left open on purpose, not close-on-exec
        note(out, f, fd >= 0);
    }
    note(out, "/tmp/dir", mkdir("/tmp/dir", 0700) == 0 && close(open("/tmp/dir/inner", O_CREAT | O_WRONLY, 0600)) == 0 &&
                              chmod("/tmp/dir", 0) == 0);
    note(out, "/tmp/.hidden", close(open("/tmp/.hidden", O_CREAT | O_WRONLY, 0)) == 0);
    note(out, "/tmp/link", symlink("/judge/io/in", "/tmp/link") == 0);
    std::string deep = "/tmp/deep";
    bool ok = true;
    for (int i = 0; i < 30 && ok; i++, deep += "/d") ok = mkdir(deep.c_str(), 0700) == 0;
    note(out, "/tmp/deep", ok);
    note(out, "fifo", mkfifo("/tmp/fifo", 0600) == 0);
    int shm = shmget(key, 4096, IPC_CREAT | 0600);
    note(out, "shm", shm >= 0 && shmat(shm, nullptr, 0) != (void*)-1);
    note(out, "shm-private", shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600) >= 0);
    note(out, "msg", msgget(key, IPC_CREAT | 0600) >= 0);
    note(out, "sem", semget(key, 1, IPC_CREAT | 0600) >= 0);
    mq_attr a{};
    a.mq_maxmsg = 1;
    a.mq_msgsize = 8;
    note(out, "mqueue", mq_open("/leftover", O_CREAT | O_RDWR, 0600, &a) != (mqd_t)-1);
    note(out, "environment", setenv("LEFTOVER", "1", 1) == 0);
    timer_t t;
    sigevent ev{};
    ev.sigev_notify = SIGEV_SIGNAL;
    ev.sigev_signo = SIGUSR1;
    itimerspec its{};
    its.it_value.tv_nsec = 1;
    its.it_interval.tv_sec = 1;
    signal(SIGUSR1, SIG_IGN);
    note(out, "timer", timer_create(CLOCK_MONOTONIC, &ev, &t) == 0 && timer_settime(t, 0, &its, nullptr) == 0);
    note(out, "pipe-mode", chmod("/judge/io/in", 0) == 0);
    umask(0777);
    note(out, "cwd", chdir("/tmp") == 0);
    return out.empty() ? "left nothing" : "left" + out;
}

static std::string tamper() {
    std::string out;
    rlimit l{64, 64};
    note(out, "prlimit", prlimit(1, RLIMIT_NOFILE, &l, nullptr) == 0);
    note(out, "nice", setpriority(PRIO_PROCESS, 1, 19) == 0);
    sched_param sp{};
    note(out, "scheduler", sched_setscheduler(1, SCHED_IDLE, &sp) == 0);
    note(out, "ioprio", syscall(SYS_ioprio_set, 1, 1, (3 << 13) | 0) == 0);
    note(out, "kill", kill(1, SIGKILL) == 0);
    note(out, "term", kill(1, SIGTERM) == 0);
    note(out, "stop", kill(1, SIGSTOP) == 0);
    note(out, "ptrace", ptrace(PTRACE_ATTACH, 1, nullptr, nullptr) == 0);
    note(out, "mem", open("/proc/1/mem", O_RDWR) >= 0);
    note(out, "fd", open("/proc/1/fd/0", O_RDWR) >= 0);
    note(out, "environ", open("/proc/1/environ", O_RDONLY) >= 0);
    return out.empty() ? "tampered nothing" : "tampered" + out;
}

int main() {
    int fds = count_fds();
    sigset_t pending;
    sigpending(&pending);
    int sigs = !sigisemptyset(&pending);
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line == "look") std::cout << look(fds, sigs) << std::endl;
        else if (line == "state") std::cout << state() << std::endl;
        else if (line == "leave") std::cout << leave() << std::endl;
        else if (line == "tamper") std::cout << tamper() << std::endl;
        else if (line == "fork") {
            std::cout << "forking" << std::endl;
            if (fork() == 0) pause();
        } else std::cout << "unknown " << line << std::endl;
    }
}
