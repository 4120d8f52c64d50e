// Amazes sample bot (Java): a right-hand wall follower.
// Each turn it reads the four corridor lines (ahead, right, behind, left) and the
// squared distance, then takes the first open direction of right, ahead, left,
// behind (one turn in eight, chosen by a fixed-seed generator, it picks a random
// open side or ahead instead, so it cannot circle an island forever). While the
// step lands in a corridor it has just seen, it keeps following the right-hand
// rule along that corridor, so one line may hold several steps (never more than
// 25). It exits on "Quit", at end of input, and after its 150th turn.
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;

public class Bot {
    static long rngState = 20100101L;

    // A small fixed-seed linear congruential generator: a number in 0..n-1.
    static int nextRandom(int n) {
        rngState = (rngState * 1103515245L + 12345L) & 0x7FFFFFFFL;
        return (int) ((rngState >> 16) % n);
    }

    static BufferedReader in = new BufferedReader(new InputStreamReader(System.in));

    // One line without surrounding spaces (and "\r"); null at end of file.
    static String readLine() throws IOException {
        String s = in.readLine();
        return s == null ? null : s.trim();
    }

    public static void main(String[] args) throws IOException {
        PrintStream out = System.out;
        char[] moveChar = {'F', 'R', 'T', 'L'}; // ahead, right, behind, left
        for (int turn = 1; turn <= 150; turn++) {
            String line = readLine();
            if (line == null || line.equals("Quit")) return;
            if (line.equals("Start")) {
                line = readLine();
                if (line == null || line.equals("Quit")) return;
            }
            String[] corridor = new String[4];
            corridor[0] = line;
            for (int d = 1; d < 4; d++) {
                corridor[d] = readLine();
                if (corridor[d] == null) return;
            }
            if (readLine() == null) return; // squared distance: not used
            boolean[] open = new boolean[4];
            for (int d = 0; d < 4; d++) {
                if (!corridor[d].endsWith("W")) corridor[d] = corridor[d].concat("W");
                open[d] = corridor[d].charAt(0) != 'W';
            }

            // First step: right-hand rule (right, ahead, left, behind), sometimes random.
            int[] order = {1, 0, 3, 2};
            int dir = -1;
            for (int k = 0; k < 4 && dir < 0; k++)
                if (open[order[k]]) dir = order[k];
            if (nextRandom(8) == 0) {
                int[] choices = new int[3];
                int count = 0;
                for (int k = 0; k < 3; k++)
                    if (open[order[k]]) choices[count++] = order[k];
                if (count > 0) dir = choices[nextRandom(count)];
            }
            StringBuilder answer = new StringBuilder();
            if (dir < 0) {
                answer.append('T'); // no open side seen at all: just turn around
            } else {
                answer.append(moveChar[dir]);
                // Follow the corridor just entered while the next step is known.
                String c = corridor[dir];
                int i = 0;
                while (answer.length() < 25) {
                    char here = c.charAt(i);
                    boolean right = here == 'R' || here == 'B';
                    boolean left = here == 'L' || here == 'B';
                    boolean ahead = i + 1 < c.length() && c.charAt(i + 1) != 'W';
                    if (right) { answer.append('R'); break; }
                    if (ahead) { answer.append('F'); i++; continue; }
                    if (left) answer.append('L');
                    break; // a turn leaves the known corridor, or a dead end
                }
            }
            // A dot on its start square (drawn by the viewer: docs/viewer.md, Drawing on the board).
            System.err.println("@judge dot 0 0 layer=sample");
            out.print(answer);
            out.print('\n');
            out.flush();
        }
    }
}
