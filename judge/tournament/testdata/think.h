// The round benchmark's thinking (make bench-round, judge/tournament/round.sh): an entrant is
// Lang Wars' C++ sample bot with think() before READY and before every answer.
#include <ctime>

static volatile unsigned long think_sink;

// think burns 20 ms of this process's CPU time.
static void think() {
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    double end = ts.tv_sec + ts.tv_nsec / 1e9 + 0.020;
    for (;;) {
        for (int i = 0; i < 20000; i++) think_sink += i;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
        if (ts.tv_sec + ts.tv_nsec / 1e9 >= end) return;
    }
}
