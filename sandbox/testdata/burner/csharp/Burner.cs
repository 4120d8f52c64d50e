// Start-up burner for the judge's tests: burns 600 ms of CPU before it reads anything, then
// sleeps for good without a word. Every game must charge the burn to its first request.
using System.Diagnostics;
using System.Threading;

public static class Burner {
    static long sink;

    public static void Main() {
        Process me = Process.GetCurrentProcess();
        double end = me.TotalProcessorTime.TotalMilliseconds + 600; // burn-ms
        for (;;) {
            me.Refresh();
            if (me.TotalProcessorTime.TotalMilliseconds >= end) break;
            for (int i = 0; i < 100000; i++) sink += i;
        }
        for (;;) Thread.Sleep(3600000);
    }
}
