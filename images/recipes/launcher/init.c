/*
 * /judge/init: the first program of every bot container. It connects the bot's stdin, stdout
 * and stderr to the judge's named pipes, mounted at /judge/io, and then becomes the bot
 * (execv), so the judge talks to the bot through a plain kernel pipe rather than through the
 * engine. Stderr has a pipe of its own so that the judge knows what the bot wrote during each
 * move: what a frozen bot wrote is in that pipe, where the engine's stream might still carry it.
 * Usage: /judge/init [--trap] PROGRAM [ARG]...
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
 * without it.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/sched.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
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
        /* 6 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_execveat, 3, 0),
        /* 7 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_fork, 2, 0),
        /* 8 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_vfork, 1, 0),
        /* 9 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone3, 1, 2),
        /*10 */ BPF_STMT(BPF_RET | BPF_K, deny),
        /*11 */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS), /* libc falls back to clone */
        /*12 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone, 0, 4),
        /*13 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG0), /* the flags' low half */
        /*14 */ BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 0, 1),
        /*15 */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        /*16 */ BPF_STMT(BPF_RET | BPF_K, deny),
        /*17 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_execve, 1, 0),
        /*18 */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        /*19 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG0), /* little-endian: the low half first */
        /*20 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)p, 0, 3),
        /*21 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG0 + 4),
        /*22 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)(p >> 32), 0, 1),
        /*23 */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        /*24 */ BPF_STMT(BPF_RET | BPF_K, deny),
    };
    struct sock_fprog prog = {.len = sizeof filter / sizeof filter[0], .filter = filter};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

int main(int argc, char **argv) {
    uint32_t deny = SECCOMP_RET_KILL_PROCESS;
    if (argc > 1 && strcmp(argv[1], "--trap") == 0) {
        deny = SECCOMP_RET_TRAP;
        argv++;
        argc--;
    }
    if (argc < 2) {
        fputs("usage: /judge/init [--trap] PROGRAM [ARG]...\n", stderr);
        return 127;
    }
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
    if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) return fail("dup2");
    close(in);
    close(out);
    close(err);
    char go;
    ssize_t n;
    while ((n = read(0, &go, 1)) < 0 && errno == EINTR) {
    }
    if (n != 1) return fail("waiting for the judge");
    if (exec_once(argv[1], deny) != 0) return fail("seccomp");
    execv(argv[1], argv + 1);
    return fail(argv[1]);
}
