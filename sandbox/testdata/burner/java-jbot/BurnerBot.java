// Start-up burner for the judge's tests, as a SnakeCore Java bot (SnakeCore's library runs a
// Jbot): its constructor burns 600 ms of CPU, which the library calls before it reads
// anything. SnakeCore must charge the burn to the first request (getName).
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

public class BurnerBot extends Jbot {
    static volatile long sink;

    public BurnerBot() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long end = mx.getCurrentThreadCpuTime() + 600 * 1_000_000L; // burn-ms
        while (mx.getCurrentThreadCpuTime() < end) {
            for (int i = 0; i < 100000; i++) sink += i;
        }
    }

    @Override
    public String getName() {
        return "burner";
    }

    @Override
    public char getAction(AreaInfo a) {
        return 'N';
    }
}
