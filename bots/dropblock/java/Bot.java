// Drop the Block sample bot (Java). Prints READY, then answers every turn's input
// (id, T, 6 block rows, 4 player lines "R C D S", EOD) with one action:
//  - fallen, or waiting after an attack (S > 0): N;
//  - standing on a block that is about to fall: the quickest step off it onto a
//    standing block;
//  - an enemy on a standing block in line within 3 blocks: A when facing it,
//    otherwise a move toward it (which turns it; it steps only onto a standing block);
//  - otherwise a step toward the centre onto a standing block (never onto a
//    falling or fallen one), or N.
// Deterministic. Exits at end of input.
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

public class Bot {
    static final int SIZE = 18, SIDE = 3, BLOCKS = 6, PLAYERS = 4;
    static final String LETTERS = "URDL";
    static final int[] DR = {-1, 0, 1, 0}, DC = {0, 1, 0, -1};

    static int[][] blk = new int[BLOCKS][BLOCKS];
    static int[] pr = new int[PLAYERS], pc = new int[PLAYERS], pd = new int[PLAYERS], ps = new int[PLAYERS];
    static int id, turn;

    static int blockAt(int r, int c) { return blk[r / SIDE][c / SIDE]; }

    // legal: the move would step (on the board, not onto a fallen block, more than 3 from everyone).
    static boolean legal(int d) {
        int r = pr[id] + DR[d], c = pc[id] + DC[d];
        if (r < 0 || r >= SIZE || c < 0 || c >= SIZE || blockAt(r, c) < 0) return false;
        for (int j = 0; j < PLAYERS; j++)
            if (j != id && pr[j] >= 0 && Math.abs(r - pr[j]) + Math.abs(c - pc[j]) <= 3) return false;
        return true;
    }

    static boolean safe(int d) { return legal(d) && blockAt(pr[id] + DR[d], pc[id] + DC[d]) == 0; }

    static char decide() {
        int r = pr[id], c = pc[id];
        if (r < 0 || ps[id] > 0) return 'N';
        int br = r / SIDE, bc = c / SIDE;
        if (blk[br][bc] > 0) { // get off a falling block
            int best = -1, bestSteps = 0;
            for (int d = 0; d < 4; d++) {
                int nr = br + DR[d], nc = bc + DC[d];
                if (!legal(d) || nr < 0 || nr >= BLOCKS || nc < 0 || nc >= BLOCKS || blk[nr][nc] != 0) continue;
                int[] steps = {r % SIDE + 1, SIDE - c % SIDE, SIDE - r % SIDE, c % SIDE + 1};
                if (best < 0 || steps[d] < bestSteps) { best = d; bestSteps = steps[d]; }
            }
            if (best >= 0) return LETTERS.charAt(best);
        }
        for (int k = 0; k < 4; k++) { // an enemy in line: attack, or turn to it
            int d = (pd[id] + k) % 4;
            for (int j = 0; j < PLAYERS; j++) {
                if (j == id || pr[j] < 0) continue;
                int qr = pr[j] / SIDE, qc = pc[j] / SIDE;
                if (blk[qr][qc] != 0) continue;
                int n = (qr - br) * DR[d] + (qc - bc) * DC[d];
                boolean inLine = (DR[d] != 0 && qc == bc) || (DC[d] != 0 && qr == br);
                if (!inLine || n < 1 || n > 3) continue;
                if (k == 0) return 'A';
                if (safe(d) || !legal(d)) return LETTERS.charAt(d);
            }
        }
        int[] want = new int[2]; // toward the centre
        int nw = 0;
        if (r < SIZE / 2 - 1) want[nw++] = 2;
        else if (r > SIZE / 2) want[nw++] = 0;
        if (c < SIZE / 2 - 1) want[nw++] = 1;
        else if (c > SIZE / 2) want[nw++] = 3;
        for (int k = 0; k < nw; k++) {
            int d = want[(k + turn / PLAYERS) % nw];
            if (safe(d)) return LETTERS.charAt(d);
        }
        return 'N';
    }

    static int atoi(String s) {
        try {
            return Integer.parseInt(s.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        System.out.println("READY");
        System.out.flush();
        String line;
        while ((line = in.readLine()) != null) {
            id = atoi(line);
            if ((line = in.readLine()) == null) return;
            turn = atoi(line);
            for (int r = 0; r < BLOCKS; r++) {
                if ((line = in.readLine()) == null) return;
                String[] f = line.trim().split("\\s+");
                for (int c = 0; c < BLOCKS && c < f.length; c++) blk[r][c] = atoi(f[c]);
            }
            for (int p = 0; p < PLAYERS; p++) {
                if ((line = in.readLine()) == null) return;
                String[] f = line.trim().split("\\s+");
                pr[p] = -1; pc[p] = -1; pd[p] = 0; ps[p] = 0;
                if (f.length == 4) {
                    pr[p] = atoi(f[0]);
                    pc[p] = atoi(f[1]);
                    pd[p] = Math.max(LETTERS.indexOf(f[2]), 0);
                    ps[p] = atoi(f[3]);
                }
            }
            if (in.readLine() == null) return; // EOD
            if (id < 0 || id >= PLAYERS) id = 0;
            // A dot on its square, a note once fallen (drawn by the viewer: docs/viewer.md, Drawing on the board).
            if (pr[id] >= 0) System.err.println("@judge dot " + pc[id] + " " + pr[id] + " layer=sample");
            else System.err.println("@judge note layer=sample fallen");
            System.out.println(decide());
            System.out.flush();
        }
    }
}
