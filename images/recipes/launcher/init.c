/*
 * /judge/init: the first program of every bot container. It connects the bot's stdin and
 * stdout to the judge's named pipes, mounted at /judge/io, and then becomes the bot (execv),
 * so the judge talks to the bot through a plain kernel pipe rather than through the engine.
 * Usage: /judge/init PROGRAM [ARG]...
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int fail(const char *what) {
    fprintf(stderr, "judge/init: %s: %s\n", what, strerror(errno));
    return 127;
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
    execv(argv[1], argv + 1);
    return fail(argv[1]);
}
