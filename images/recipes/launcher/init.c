/*
 * /judge/init: the first program of every bot container. It connects the bot's stdin, stdout
 * and stderr to the judge's named pipes, mounted at /judge/io, and then becomes the bot
 * (execv), so the judge talks to the bot through a plain kernel pipe rather than through the
 * engine. Stderr has a pipe of its own so that the judge knows what the bot wrote during each
 * move: what a frozen bot wrote is in that pipe, where the engine's stream might still carry it.
 * Usage: /judge/init [--trap] [--serve|--relay] PROGRAM [ARG]...
 *
 * Before the exec it waits for one byte on stdin: the judge sends it once it has found the
 * container's process and read the CPU it used so far (the container runtime's start and
 * this launcher's), so that every CPU cycle from the bot's first instruction on is the bot's.
 *
 * Just before that exec it installs a seccomp filter of its own, which stays with the bot:
 * execve is allowed only with the exact filename pointer this exec passes (an address in the
 * launcher's randomised stack that the bot cannot read back), execveat never, and only the
 * native x86-64 system call ABI. So the exec that starts the bot is the last one: a bot that
 * tries to run any program, itself included, is killed with SIGSYS.
 *
 * The same filter kills a bot that creates a process (fork, vfork, clone without
 * CLONE_THREAD; clone3 says ENOSYS so that libc uses clone). The judge's seccomp profile
 * does this too, but gVisor applies an OCI profile's kills to the calling thread only; a
 * filter the bot's own process installs kills the whole process under either runtime.
 *
 * --trap (used under gVisor) turns every kill into SECCOMP_RET_TRAP: gVisor treats
 * SECCOMP_RET_KILL_PROCESS as killing the calling thread only, so a JVM or Go bot would lose
 * one thread and carry on, or hang; a trap raises SIGSYS, whose default action ends the whole
 * process. The banned call never runs either way; a bot that catches SIGSYS merely survives
 * without it. POSIX message queues are refused (EPERM): one would outlive the bot in its
 * container, and nothing in the container can list them to remove it.
 *
 * --serve (under runc) keeps the container for later matches of the same bot: this process
 * stays the container's first process and runs the bot in a child, one match after another.
 * After each child it prints "exit STATUS" (the wait status) on its stdout, the engine's
 * attach stream, which only the judge reads, and waits on its stdin, the same stream, for
 * "r": it then resets the container - every file in /tmp removed, every System V IPC object
 * removed, its own limits, priorities and CPU affinity checked against what they were at its
 * start - and starts the next child. A bot runs as the same user as this process, so this
 * process makes itself undumpable: no ptrace, /proc/1/mem or /proc/1/fd for the bot, and as
 * the namespace's init it gets no signal from it. What the bot could change and this process
 * cannot undo (a limit lowered with prlimit, a nice value raised) ends the container: it
 * prints "dirty WHAT" and exits, and the judge starts the next match in a new one. EOF on
 * stdin ends it too.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/sched.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int fail(const char *what) {
    fprintf(stderr, "judge/init: %s: %s\n", what, strerror(errno));
    return 127;
}

#define ARG0 offsetof(struct seccomp_data, args[0])

static int exec_once(const char *path, uint32_t deny) {
    uint64_t p = (uint64_t)(uintptr_t)path;
    struct sock_filter filter[] = {
        /* 0 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        /* 1 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
        /* 2 */ BPF_STMT(BPF_RET | BPF_K, deny),
        /* 3 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        /* 4 */ BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1), /* the x32 ABI */
        /* 5 */ BPF_STMT(BPF_RET | BPF_K, deny),
        /* 6 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_mq_open, 0, 1),
        /* 7 */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
        /* 8 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_execveat, 3, 0),
        /* 9 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_fork, 2, 0),
        /*10 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_vfork, 1, 0),
        /*11 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone3, 1, 2),
        /*12 */ BPF_STMT(BPF_RET | BPF_K, deny),
        /*13 */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS), /* libc falls back to clone */
        /*14 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone, 0, 4),
        /*15 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG0), /* the flags' low half */
        /*16 */ BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 0, 1),
        /*17 */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        /*18 */ BPF_STMT(BPF_RET | BPF_K, deny),
        /*19 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_execve, 1, 0),
        /*20 */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        /*21 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG0), /* little-endian: the low half first */
        /*22 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)p, 0, 3),
        /*23 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG0 + 4),
        /*24 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)(p >> 32), 0, 1),
        /*25 */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        /*26 */ BPF_STMT(BPF_RET | BPF_K, deny),
    };
    struct sock_fprog prog = {.len = sizeof filter / sizeof filter[0], .filter = filter};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

/* spawn is fork as the judge's seccomp profile lets it through, with CLONE_PARENT_SETTID: the
   one form of process creation it allows (the bot's own filter forbids any). */
static pid_t spawn(void) {
    pid_t tid;
    return syscall(SYS_clone, CLONE_PARENT_SETTID | SIGCHLD, 0, &tid, 0, 0);
}

/* relay_filter lets the relay read, write, sleep, wait for the bot and end, nothing else: it
   runs as the bot's user, without the exec-once filter. */
static int relay_filter(void) {
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_read, 10, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_write, 9, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_nanosleep, 8, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clock_nanosleep, 7, 0), /* glibc's nanosleep */
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_close, 6, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_wait4, 5, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_rt_sigreturn, 4, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_restart_syscall, 3, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_exit, 2, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_exit_group, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {.len = sizeof filter / sizeof filter[0], .filter = filter};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

/* relay copies the bot's stdout, a pipe of the sandbox's own kernel (from), to the judge's
   pipe (to), and is --relay's (under gVisor). gVisor's write into a host pipe that is full is
   never woken when the judge empties it: a bot that wrote a long line at once stopped for good
   at the pipe's size. The relay writes without blocking and, while the judge's pipe is full,
   tries again every 100 microseconds. It is the container's first process, the bot its child:
   a first process that ends takes the others with it, and the relay, as the bot, would lose
   what a bot wrote just before it exited. At the end of the bot's stdout it closes the judge's
   pipe, which the judge reads as the end of the bot's output, waits for the bot and ends as it
   did: its exit status, or 128 + the signal that killed it, as the engine reports a signal. */
static int relay(int from, int to, pid_t bot) {
    static char buf[1 << 16];
    const struct timespec again = {0, 100 * 1000};
    for (;;) {
        ssize_t n = read(from, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        for (ssize_t off = 0; off < n;) {
            ssize_t w = write(to, buf + off, n - off);
            if (w > 0) {
                off += w;
            } else if (w < 0 && (errno == EAGAIN || errno == EINTR)) {
                nanosleep(&again, NULL);
            } else {
                goto end; /* the judge is gone */
            }
        }
    }
end:
    close(to);
    int ws;
    while (waitpid(bot, &ws, 0) < 0) {
        if (errno != EINTR) return 127;
    }
    return WIFSIGNALED(ws) ? 128 + WTERMSIG(ws) : WEXITSTATUS(ws);
}

/* bot connects to the judge's pipes, waits for the go and becomes the bot. With relaying, the
   bot's stdout is a pipe to a relay process instead (relay). */
static int bot(char **argv, uint32_t deny, int relaying) {
    /* The judge holds the write end of "in" open before the container starts, so this open
       returns at once; opening "out" waits until the judge reads it. */
    int in = open("/judge/io/in", O_RDONLY | O_CLOEXEC);
    if (in < 0) return fail("/judge/io/in");
    /* The judge holds the read end of "err" open before the container starts too; "err" is
       opened before "out", so that the judge, once "out" is open, knows "err" is. */
    int err = open("/judge/io/err", O_WRONLY | O_CLOEXEC);
    if (err < 0) return fail("/judge/io/err");
    int out = open("/judge/io/out", O_WRONLY | O_CLOEXEC);
    if (out < 0) return fail("/judge/io/out");
    if (relaying) {
        int p[2];
        if (pipe2(p, O_CLOEXEC) != 0) return fail("relay pipe");
        pid_t child = spawn();
        if (child < 0) return fail("relay");
        if (child > 0) { /* the relay; the child goes on to become the bot */
            close(p[1]);
            close(in);
            prctl(PR_SET_DUMPABLE, 0, 0, 0, 0); /* no ptrace, no /proc/1/mem for the bot */
            if (fcntl(out, F_SETFL, fcntl(out, F_GETFL) | O_NONBLOCK) != 0 || relay_filter() != 0) {
                int rc = fail("the relay");
                kill(child, SIGKILL);
                return rc;
            }
            close(err);
            return relay(p[0], out, child);
        }
        close(p[0]);
        close(out);
        out = p[1];
    }
    if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) return fail("dup2");
    close(in);
    close(out);
    close(err);
    char go;
    ssize_t n;
    while ((n = read(0, &go, 1)) < 0 && errno == EINTR) {
    }
    if (n != 1) return fail("waiting for the judge");
    if (exec_once(argv[0], deny) != 0) return fail("seccomp");
    execv(argv[0], argv);
    return fail(argv[0]);
}

/* What a bot of the same user could change of this process, and every child inherits. */
struct state {
    struct rlimit lim[RLIM_NLIMITS];
    int nice, policy, ioprio;
    struct sched_param param;
    cpu_set_t cpus;
};

static void record(struct state *s) {
    memset(s, 0, sizeof *s);
    for (int r = 0; r < RLIM_NLIMITS; r++) getrlimit(r, &s->lim[r]);
    errno = 0;
    s->nice = getpriority(PRIO_PROCESS, 0);
    s->policy = sched_getscheduler(0);
    sched_getparam(0, &s->param);
    s->ioprio = syscall(SYS_ioprio_get, 1 /* IOPRIO_WHO_PROCESS */, 0);
    sched_getaffinity(0, sizeof s->cpus, &s->cpus);
}

/* tampered names what differs from start; the CPU affinity, which this process may set
   back, is set back. */
static const char *tampered(const struct state *start) {
    struct state now;
    record(&now);
    if (memcmp(now.lim, start->lim, sizeof now.lim) != 0) return "limits";
    if (now.nice != start->nice) return "nice";
    if (now.policy != start->policy || now.param.sched_priority != start->param.sched_priority) return "scheduler";
    if (now.ioprio != start->ioprio) return "ioprio";
    if (!CPU_EQUAL(&now.cpus, &start->cpus) && sched_setaffinity(0, sizeof start->cpus, &start->cpus) != 0)
        return "affinity";
    return NULL;
}

/* wipe removes everything in the directory dirfd, and closes it: a bot may have taken its
   own permissions away from a directory, which its owner gives back. Deeper than 64 it
   gives up. */
static int wipe(int dirfd, int depth) {
    DIR *d = depth > 64 ? NULL : fdopendir(dirfd);
    if (d == NULL) {
        close(dirfd);
        return -1;
    }
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        if (unlinkat(dirfd, e->d_name, 0) == 0) continue;
        struct stat st;
        if (fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode)) {
            rc = -1;
            continue;
        }
        fchmodat(dirfd, e->d_name, 0700, 0);
        int sub = openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub < 0 || wipe(sub, depth + 1) != 0 || unlinkat(dirfd, e->d_name, AT_REMOVEDIR) != 0) rc = -1;
    }
    closedir(d);
    return rc;
}

/* empty reports whether the directory path has no entries (or does not exist). */
static int empty(const char *path) {
    DIR *d = opendir(path);
    if (d == NULL) return errno == ENOENT;
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) n++;
    closedir(d);
    return n == 0;
}

/* ipc removes every System V IPC object of the container's IPC namespace, and reports
   whether none is left. */
static int ipc(void) {
    static const char *tables[] = {"/proc/sysvipc/shm", "/proc/sysvipc/msg", "/proc/sysvipc/sem"};
    for (int pass = 0; pass < 2; pass++) {
        int left = 0;
        for (int t = 0; t < 3; t++) {
            FILE *f = fopen(tables[t], "re");
            if (f == NULL) return 0;
            char line[512];
            if (fgets(line, sizeof line, f) == NULL) { /* the header */
                fclose(f);
                return 0;
            }
            while (fgets(line, sizeof line, f) != NULL) {
                long key, id;
                if (sscanf(line, "%ld %ld", &key, &id) != 2) continue;
                left++;
                if (pass == 0) {
                    if (t == 0) shmctl(id, IPC_RMID, NULL);
                    if (t == 1) msgctl(id, IPC_RMID, NULL);
                    if (t == 2) semctl(id, 0, IPC_RMID);
                }
            }
            fclose(f);
        }
        if (pass == 1) return left == 0;
    }
    return 0;
}

/* reset makes the container as it was for the next child, or names what it could not. */
static const char *reset(const struct state *start) {
    /* Twice: a directory read while its entries go may skip some. */
    for (int i = 0; i < 2 && !empty("/tmp"); i++) {
        int tmp = open("/tmp", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (tmp >= 0) wipe(tmp, 0);
    }
    if (!empty("/tmp")) return "/tmp";
    if (!ipc()) return "ipc";
    return tampered(start);
}

static int serve(char **argv, uint32_t deny) {
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) return fail("prctl");
    signal(SIGPIPE, SIG_IGN);
    struct state start;
    record(&start);
    for (;;) {
        pid_t child = spawn();
        if (child < 0) return fail("clone");
        if (child == 0) {
            signal(SIGPIPE, SIG_DFL); /* an ignored signal stays ignored across exec */
            _exit(bot(argv, deny, 0));
        }
        int status;
        while (waitpid(child, &status, 0) < 0) {
            if (errno != EINTR) return fail("waitpid");
        }
        printf("exit %d\n", status);
        fflush(stdout);
        char c;
        ssize_t n;
        while ((n = read(0, &c, 1)) < 0 && errno == EINTR) {
        }
        if (n != 1 || c != 'r') return 0;
        const char *dirty = reset(&start);
        if (dirty != NULL) {
            printf("dirty %s\n", dirty);
            fflush(stdout);
            return 3;
        }
    }
}

int main(int argc, char **argv) {
    uint32_t deny = SECCOMP_RET_KILL_PROCESS;
    int serving = 0, relaying = 0;
    for (; argc > 1 && strncmp(argv[1], "--", 2) == 0; argv++, argc--) {
        if (strcmp(argv[1], "--trap") == 0) deny = SECCOMP_RET_TRAP;
        else if (strcmp(argv[1], "--serve") == 0) serving = 1;
        else if (strcmp(argv[1], "--relay") == 0) relaying = 1;
        else break;
    }
    if (argc < 2 || (serving && relaying)) {
        fputs("usage: /judge/init [--trap] [--serve|--relay] PROGRAM [ARG]...\n", stderr);
        return 127;
    }
    return serving ? serve(argv + 1, deny) : bot(argv + 1, deny, relaying);
}
