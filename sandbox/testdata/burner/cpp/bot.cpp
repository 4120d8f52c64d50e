// Start-up burner for the judge's tests: burns 600 ms of CPU before it reads anything, then
// sleeps for good without a word. Every game must charge the burn to its first request.
#include <ctime>
#include <unistd.h>

static double cpu() {
    timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static volatile unsigned long sink;

int main() {
    double end = cpu() + 600 / 1e3; // burn-ms
    while (cpu() < end)
        for (int i = 0; i < 100000; i++) sink += i;
    for (;;) pause();
}
