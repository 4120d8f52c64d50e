// Test bot for the judge's bot-lifecycle tests (Java version).
//
// Before reading stdin it runs each line of ./start.txt, if that file
// exists, as a command ("burn 500" then "echo READY", say). Then it runs every stdin line as a command and exits
// with status 0 at end of input. Commands:
//   echo ...   print the whole line back        exit N     exit with status N
//   burn MS    burn MS ms of CPU, say "burned"  sleep MS   sleep MS ms, say "slept"
//   signal N   raise signal N, then say "alive" if still running
//   close      close stdout, then spin forever  hang       block forever
//   other      say "unknown"
// Answers are flushed at once; start.txt commands answer only "echo".
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

public class Bot {
    static final PrintStream out =
            new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);

    static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    static String signalName(int n) {
        switch (n) {
            case 2: return "INT";
            case 6: return "ABRT";
            case 8: return "FPE";
            case 9: return "KILL";
            case 11: return "SEGV";
            case 15: return "TERM";
            default: return null;
        }
    }

    static void sleepMillis(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static void run(String line, boolean fromStdin) {
        if (line.endsWith("\r")) line = line.substring(0, line.length() - 1);
        String[] f = line.trim().split("\\s+");
        String cmd = f[0];
        int n = 0;
        if (f.length > 1) {
            try {
                n = Integer.parseInt(f[1]);
            } catch (NumberFormatException e) {
                n = 0;
            }
        }
        switch (cmd) {
            case "echo":
                out.println(line);
                break;
            case "exit":
                out.flush();
                Runtime.getRuntime().halt(n);
                break;
            case "burn": {
                long end = cpuNanos() + n * 1_000_000L;
                while (cpuNanos() < end) {
                }
                if (fromStdin) out.println("burned");
                break;
            }
            case "sleep":
                sleepMillis(n);
                if (fromStdin) out.println("slept");
                break;
            case "signal":
                try {
                    sun.misc.Signal.raise(new sun.misc.Signal(signalName(n)));
                } catch (Throwable t) { // unknown or VM-reserved signal
                    Runtime.getRuntime().halt(128 + n);
                }
                sleepMillis(1000);
                out.println("alive");
                break;
            case "close":
                System.out.close();
                for (long i = 0; ; i++) {
                }
            case "hang":
                for (;;) sleepMillis(1_000_000);
            default:
                out.println("unknown");
        }
    }

    public static void main(String[] args) throws IOException {
        System.setOut(out);
        Path start = Paths.get("start.txt");
        if (Files.exists(start)) {
            List<String> lines = Files.readAllLines(start, StandardCharsets.UTF_8);
            for (String l : lines) run(l, false);
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) run(line, true);
        out.flush();
    }
}
