// Red-team bot in Java for the script game: each line is a command, and each command answers
// one line. "echo X" answers itself; "alloc N" touches N MiB; "threads N" starts N threads;
// "spawn" runs another program; "write P" creates a file.
import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

public class Hostile {
    static final List<byte[]> kept = new ArrayList<>();

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        for (String line; (line = in.readLine()) != null; System.out.flush()) {
            String[] w = line.split(" ", 2);
            String arg = w.length > 1 ? w[1] : "";
            switch (w[0]) {
                case "echo":
                    System.out.println(line);
                    break;
                case "alloc": {
                    int n = Integer.parseInt(arg);
                    for (int i = 0; i < n; i++) {
                        byte[] b = new byte[1 << 20];
                        Arrays.fill(b, (byte) 1);
                        kept.add(b);
                    }
                    System.out.println("allocated " + n);
                    break;
                }
                case "threads": {
                    int n = Integer.parseInt(arg), started = 0;
                    String why = "";
                    try {
                        for (; started < n; started++) {
                            Thread t = new Thread(() -> {
                                try {
                                    Thread.sleep(Long.MAX_VALUE);
                                } catch (InterruptedException e) {
                                }
                            });
                            t.setDaemon(true);
                            t.start();
                        }
                    } catch (Throwable e) {
                        why = " " + e;
                    }
                    System.out.println("threads " + started + why);
                    break;
                }
                case "spawn":
                    try {
                        System.out.println("spawn " + Runtime.getRuntime().exec(new String[] {"/bot/bot.jar"}).waitFor());
                    } catch (Exception e) {
                        System.out.println("spawn " + e);
                    }
                    break;
                case "write":
                    try (FileOutputStream f = new FileOutputStream(arg)) {
                        System.out.println("write " + arg + " succeeded");
                    } catch (Exception e) {
                        System.out.println("write " + e);
                    }
                    break;
                default:
                    System.out.println("unknown " + w[0]);
            }
        }
    }
}
