// A sample bot of {{.Title}}: it answers 7 every turn.
import java.io.BufferedReader;
import java.io.InputStreamReader;

public class Bot {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        while (in.readLine() != null) {
            System.out.println(7);
            System.out.flush();
        }
    }
}
