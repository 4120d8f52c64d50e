// On The Run sample bot (Java). Reads the map from connect.txt, then plays the
// role named on its first input line.
// Fugitive: starts on the city farthest (fewest connections of any type) from
// the nearest detective; each turn takes the connection whose city is farthest
// from the detectives, never a detective's city unless every move is one.
// Detectives: start on the four cities with the most connections; they keep
// the set of cities where the fugitive can be (its announced city, widened
// each turn along connections of the type it used) and each detective steps to
// the neighbour nearest to that set, the four new cities made distinct by a
// small backtracking search. Exits on "Quit", at end of input, and after its
// 50th move. Deterministic. Kept lean (plain arrays, no lambdas, streams or
// string concatenation, which would load extra classes): the game allows 5 s
// CPU and 64 MiB in total.
import java.io.BufferedReader;
import java.io.FileReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;

public class Chaser {
    static int cities = 0;
    static int[] degree;        // deg[c]: number of connections of city c (1..n)
    static int[][] links;    // adjTo[c][k]: the city at the other end of connection k of c
    static char[][] kinds; // adjType[c][k]: its type, C T or P
    static BufferedReader input = new BufferedReader(new InputStreamReader(System.in));
    static PrintStream output = System.out;

    // One trimmed line; exits (code 0) at end of file or on "Quit".
    static String nextRow() throws IOException {
        String str = input.readLine();
        if (str == null) System.exit(0);
        str = str.trim();
        if (str.equals("Quit")) System.exit(0);
        return str;
    }

    // A dot on city c, one an answer (drawn by the viewer: docs/viewer.md, Drawing on the board).
    static void dot(int node) {
        System.err.println("@judge dot " + node + " 0 layer=sample");
    }

    // The first integer in s (any non-digit before it is skipped), or -1.
    static int parseNum(String str, int begin) {
        int idx = begin;
        while (idx < str.length() && (str.charAt(idx) < '0' || str.charAt(idx) > '9')) idx++;
        if (idx == str.length()) return -1;
        int val = 0;
        while (idx < str.length() && str.charAt(idx) >= '0' && str.charAt(idx) <= '9') val = val * 10 + (str.charAt(idx++) - '0');
        return val;
    }

    static void connect(int u, char kind, int v) {
        if (degree[u] == links[u].length) {
            links[u] = java.util.Arrays.copyOf(links[u], degree[u] * 2 + 4);
            kinds[u] = java.util.Arrays.copyOf(kinds[u], degree[u] * 2 + 4);
        }
        links[u][degree[u]] = v;
        kinds[u][degree[u]] = kind;
        degree[u]++;
    }

    static void loadGraph() throws IOException {
        BufferedReader reader = new BufferedReader(new FileReader("connect.txt"));
        String row;
        while (cities <= 0 && (row = reader.readLine()) != null) cities = parseNum(row, 0);
        if (cities < 0) cities = 0;
        degree = new int[cities + 1];
        links = new int[cities + 1][0];
        kinds = new char[cities + 1][0];
        while ((row = reader.readLine()) != null) {
            row = row.trim();
            if (row.equals("END")) break;
            if (row.isEmpty()) continue;
            int u = parseNum(row, 0);
            if (u < 0) continue;
            int hyphen = row.indexOf('-');
            int v = hyphen < 0 ? -1 : parseNum(row, hyphen + 1);
            if (u < 1 || u > cities || v < 1 || v > cities || u == v) continue;
            connect(u, row.charAt(0), v);
            connect(v, row.charAt(0), u);
        }
        reader.close();
    }

    // Breadth-first distances (connections of any type) from the cities marked in src.
    static int[] bfs(boolean[] roots) {
        int[] far = new int[cities + 1];
        int[] fifo = new int[cities + 1];
        int qlen = 0;
        for (int node = 1; node <= cities; node++) {
            far[node] = 1 << 20;
            if (roots[node]) { far[node] = 0; fifo[qlen++] = node; }
        }
        for (int head = 0; head < qlen; head++) {
            int node = fifo[head];
            for (int e = 0; e < degree[node]; e++) {
                int to = links[node][e];
                if (far[to] > far[node] + 1) { far[to] = far[node] + 1; fifo[qlen++] = to; }
            }
        }
        return far;
    }

    static int[] readCops() throws IOException {
        int[] cops = new int[4];
        for (int idx = 0; idx < 4; idx++) cops[idx] = parseNum(nextRow(), 0);
        return cops;
    }

    static boolean[] copMask(int[] cops) {
        boolean[] mask = new boolean[cities + 1];
        for (int w : cops) if (w >= 1 && w <= cities) mask[w] = true;
        return mask;
    }

    static void runRole() throws IOException {
        int[] cops = readCops();
        boolean[] copAt = copMask(cops);
        int[] far = bfs(copAt);
        int here = 0;
        for (int node = 1; node <= cities; node++)
            if (!copAt[node] && (here == 0 || far[node] > far[here])) here = node;
        dot(here);
        output.print(new StringBuilder().append(here).append('\n'));
        output.flush();

        for (int move = 1; move <= 50; move++) {
            copAt = copMask(cops);
            far = bfs(copAt);
            int pick = -1;
            for (int e = 0; e < degree[here]; e++) {
                if (copAt[links[here][e]]) continue;
                if (pick < 0 || far[links[here][e]] > far[links[here][pick]]) pick = e;
            }
            if (pick < 0) pick = 0; // every move ends on a detective: caught anyway
            char kind = kinds[here][pick];
            here = links[here][pick];
            dot(here);
            output.print(new StringBuilder().append(kind).append(' ').append(here).append('\n'));
            output.flush();
            if (move == 50) break;
            cops = readCops();
        }
    }

    // Gives detective i (and the following ones) a new city, trying the neighbours
    // in the order of choices[i]; false when no distinct assignment exists.
    static boolean placeAll(int idx, int[][] prefs, int[] dest, boolean[] busy) {
        if (idx == 4) return true;
        for (int node : prefs[idx]) {
            if (busy[node]) continue;
            busy[node] = true;
            dest[idx] = node;
            if (placeAll(idx + 1, prefs, dest, busy)) return true;
            busy[node] = false;
        }
        return false;
    }

    static void huntRole() throws IOException {
        // Start on the four cities with the most connections (lowest number on ties).
        int[] cops = new int[4];
        boolean[] occupied = new boolean[cities + 1];
        StringBuilder buf = new StringBuilder();
        for (int idx = 0; idx < 4; idx++) {
            int pick = 0;
            for (int node = 1; node <= cities; node++)
                if (!occupied[node] && (pick == 0 || degree[node] > degree[pick])) pick = node;
            occupied[pick] = true;
            cops[idx] = pick;
            buf.append(pick).append('\n');
        }
        dot(cops[0]);
        output.print(buf);
        output.flush();

        boolean[] maybe = new boolean[cities + 1]; // where the fugitive may be
        int origin = parseNum(nextRow(), 0);
        if (origin >= 1 && origin <= cities) maybe[origin] = true;

        for (int move = 1; move <= 50; move++) {
            String row = nextRow();
            char kind = row.isEmpty() ? 'C' : row.charAt(0);
            int town = parseNum(row, 0);
            boolean[] copAt = copMask(cops);
            boolean[] widened = new boolean[cities + 1];
            boolean found = false;
            if (town >= 1 && town <= cities) { // announcement turn
                widened[town] = true;
                found = true;
            } else {
                for (int node = 1; node <= cities; node++) {
                    if (!maybe[node]) continue;
                    for (int e = 0; e < degree[node]; e++)
                        if (kinds[node][e] == kind && !copAt[links[node][e]]) { widened[links[node][e]] = true; found = true; }
                }
            }
            if (!found) // lost track: the fugitive may be anywhere
                for (int node = 1; node <= cities; node++) widened[node] = !copAt[node];
            maybe = widened;

            // Each detective prefers the neighbours nearest to the possible cities.
            int[] far = bfs(maybe);
            int[][] prefs = new int[4][];
            for (int idx = 0; idx < 4; idx++) {
                int[] opts = java.util.Arrays.copyOf(links[cops[idx]], degree[cops[idx]]);
                for (int u = 1; u < opts.length; u++) { // stable insertion sort by distance
                    int val = opts[u], v = u - 1;
                    while (v >= 0 && far[opts[v]] > far[val]) { opts[v + 1] = opts[v]; v--; }
                    opts[v + 1] = val;
                }
                prefs[idx] = opts;
            }
            int[] dest = new int[4];
            if (!placeAll(0, prefs, dest, new boolean[cities + 1]))
                for (int idx = 0; idx < 4; idx++) dest[idx] = degree[cops[idx]] > 0 ? links[cops[idx]][0] : cops[idx];
            buf.setLength(0);
            for (int idx = 0; idx < 4; idx++) {
                cops[idx] = dest[idx];
                maybe[cops[idx]] = false;
                buf.append(cops[idx]).append('\n');
            }
            dot(cops[0]);
            output.print(buf);
            output.flush();
        }
    }

    public static void main(String[] argv) throws IOException {
        loadGraph();
        if (nextRow().equals("Fugitive")) runRole();
        else huntRole();
    }
}
