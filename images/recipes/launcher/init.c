/*
 * /judge/init: the first program of every bot container. It connects the bot's stdin and
 * stdout to the judge's named pipes, mounted at /judge/io, and then becomes the bot (execv),
 * so the judge talks to the bot through a plain kernel pipe rather than through the engine.
 * Usage: /judge/init PROGRAM [ARG]...
 *
 * Just before that exec it installs a seccomp filter of its own, which stays with the bot:
 * execve is allowed only with the exact filename pointer this exec passes (an address in the
 * launcher's randomised stack that the bot cannot read back), execveat never, and only the
 * native x86-64 system call ABI. So the exec that starts the bot is the last one: a bot that
 * tries to run any program, itself included, is killed with SIGSYS.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
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

static int exec_once(const char *path) {
    uint64_t p = (uint64_t)(uintptr_t)path;
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1), /* the x32 ABI */
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_execveat, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_execve, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG0), /* little-endian: the low half first */
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)p, 0, 3),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG0 + 4),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)(p >> 32), 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
    };
    struct sock_fprog prog = {.len = sizeof filter / sizeof filter[0], .filter = filter};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fputs("usage: /judge/init PROGRAM [ARG]...\n", stderr);
        return 127;
    }
    /* The judge holds the write end of "in" open before the container starts, so this open
       returns at once; opening "out" waits until the judge reads it. */
    int in = open("/judge/io/in", O_RDONLY | O_CLOEXEC);
    if (in < 0) return fail("/judge/io/in");
    int out = open("/judge/io/out", O_WRONLY | O_CLOEXEC);
    if (out < 0) return fail("/judge/io/out");
    if (dup2(in, 0) < 0 || dup2(out, 1) < 0) return fail("dup2");
    close(in);
    close(out);
    if (exec_once(argv[1]) != 0) return fail("seccomp");
    execv(argv[1], argv + 1);
    return fail(argv[1]);
}
