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
using System;
using System.IO;
using System.Text;

public class Bot {
    static int n = 0;
    static int[] deg;        // deg[c]: number of connections of city c (1..n)
    static int[][] adjTo;    // adjTo[c][k]: the city at the other end of connection k of c
    static char[][] adjType; // adjType[c][k]: its type, C T or P
    static TextReader @in = Console.In;
    static TextWriter @out = Console.Out;

    // One trimmed line; exits (code 0) at end of file or on "Quit".
    static string readLineOrExit() {
        string s = @in.ReadLine();
        if (s == null) Environment.Exit(0);
        s = s.Trim();
        if (s.Equals("Quit")) Environment.Exit(0);
        return s;
    }

    // A dot on city c, one an answer (drawn by the viewer: docs/viewer.md, Drawing on the board).
    static void markCity(int c) {
        Console.Error.WriteLine("@judge dot " + c + " 0 layer=sample");
    }

    // The first integer in s (any non-digit before it is skipped), or -1.
    static int firstNumber(string s, int from) {
        int i = from;
        while (i < s.Length && (s[i] < '0' || s[i] > '9')) i++;
        if (i == s.Length) return -1;
        int x = 0;
        while (i < s.Length && s[i] >= '0' && s[i] <= '9') x = x * 10 + (s[i++] - '0');
        return x;
    }

    static void addLink(int a, char type, int b) {
        if (deg[a] == adjTo[a].Length) {
            Array.Resize(ref adjTo[a], deg[a] * 2 + 4);
            Array.Resize(ref adjType[a], deg[a] * 2 + 4);
        }
        adjTo[a][deg[a]] = b;
        adjType[a][deg[a]] = type;
        deg[a]++;
    }

    static void readMap() {
        StreamReader f = new StreamReader("connect.txt");
        string line;
        while (n <= 0 && (line = f.ReadLine()) != null) n = firstNumber(line, 0);
        if (n < 0) n = 0;
        deg = new int[n + 1];
        adjTo = new int[n + 1][]; for (int c = 0; c <= n; c++) adjTo[c] = new int[0];
        adjType = new char[n + 1][]; for (int c = 0; c <= n; c++) adjType[c] = new char[0];
        while ((line = f.ReadLine()) != null) {
            line = line.Trim();
            if (line.Equals("END")) break;
            if (line.Length == 0) continue;
            int a = firstNumber(line, 0);
            if (a < 0) continue;
            int dash = line.IndexOf('-');
            int b = dash < 0 ? -1 : firstNumber(line, dash + 1);
            if (a < 1 || a > n || b < 1 || b > n || a == b) continue;
            addLink(a, line[0], b);
            addLink(b, line[0], a);
        }
        f.Close();
    }

    // Breadth-first distances (connections of any type) from the cities marked in src.
    static int[] distances(bool[] src) {
        int[] dist = new int[n + 1];
        int[] queue = new int[n + 1];
        int tail = 0;
        for (int c = 1; c <= n; c++) {
            dist[c] = 1 << 20;
            if (src[c]) { dist[c] = 0; queue[tail++] = c; }
        }
        for (int q = 0; q < tail; q++) {
            int c = queue[q];
            for (int k = 0; k < deg[c]; k++) {
                int to = adjTo[c][k];
                if (dist[to] > dist[c] + 1) { dist[to] = dist[c] + 1; queue[tail++] = to; }
            }
        }
        return dist;
    }

    static int[] readFour() {
        int[] det = new int[4];
        for (int i = 0; i < 4; i++) det[i] = firstNumber(readLineOrExit(), 0);
        return det;
    }

    static bool[] detectiveMap(int[] det) {
        bool[] m = new bool[n + 1];
        foreach (int d in det) if (d >= 1 && d <= n) m[d] = true;
        return m;
    }

    static void playFugitive() {
        int[] det = readFour();
        bool[] isDet = detectiveMap(det);
        int[] dist = distances(isDet);
        int cur = 0;
        for (int c = 1; c <= n; c++)
            if (!isDet[c] && (cur == 0 || dist[c] > dist[cur])) cur = c;
        markCity(cur);
        @out.Write(new StringBuilder().Append(cur).Append('\n'));
        @out.Flush();

        for (int turn = 1; turn <= 50; turn++) {
            isDet = detectiveMap(det);
            dist = distances(isDet);
            int best = -1;
            for (int k = 0; k < deg[cur]; k++) {
                if (isDet[adjTo[cur][k]]) continue;
                if (best < 0 || dist[adjTo[cur][k]] > dist[adjTo[cur][best]]) best = k;
            }
            if (best < 0) best = 0; // every move ends on a detective: caught anyway
            char type = adjType[cur][best];
            cur = adjTo[cur][best];
            markCity(cur);
            @out.Write(new StringBuilder().Append(type).Append(' ').Append(cur).Append('\n'));
            @out.Flush();
            if (turn == 50) break;
            det = readFour();
        }
    }

    // Gives detective i (and the following ones) a new city, trying the neighbours
    // in the order of choices[i]; false when no distinct assignment exists.
    static bool assign(int i, int[][] choices, int[] target, bool[] used) {
        if (i == 4) return true;
        foreach (int c in choices[i]) {
            if (used[c]) continue;
            used[c] = true;
            target[i] = c;
            if (assign(i + 1, choices, target, used)) return true;
            used[c] = false;
        }
        return false;
    }

    static void playDetectives() {
        // Start on the four cities with the most connections (lowest number on ties).
        int[] det = new int[4];
        bool[] taken = new bool[n + 1];
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 4; i++) {
            int best = 0;
            for (int c = 1; c <= n; c++)
                if (!taken[c] && (best == 0 || deg[c] > deg[best])) best = c;
            taken[best] = true;
            det[i] = best;
            sb.Append(best).Append('\n');
        }
        markCity(det[0]);
        @out.Write(sb);
        @out.Flush();

        bool[] cand = new bool[n + 1]; // where the fugitive may be
        int start = firstNumber(readLineOrExit(), 0);
        if (start >= 1 && start <= n) cand[start] = true;

        for (int turn = 1; turn <= 50; turn++) {
            string line = readLineOrExit();
            char type = line.Length == 0 ? 'C' : line[0];
            int city = firstNumber(line, 0);
            bool[] isDet = detectiveMap(det);
            bool[] next = new bool[n + 1];
            bool any = false;
            if (city >= 1 && city <= n) { // announcement turn
                next[city] = true;
                any = true;
            } else {
                for (int c = 1; c <= n; c++) {
                    if (!cand[c]) continue;
                    for (int k = 0; k < deg[c]; k++)
                        if (adjType[c][k] == type && !isDet[adjTo[c][k]]) { next[adjTo[c][k]] = true; any = true; }
                }
            }
            if (!any) // lost track: the fugitive may be anywhere
                for (int c = 1; c <= n; c++) next[c] = !isDet[c];
            cand = next;

            // Each detective prefers the neighbours nearest to the possible cities.
            int[] dist = distances(cand);
            int[][] choices = new int[4][];
            for (int i = 0; i < 4; i++) {
                int[] ch = new int[deg[det[i]]]; Array.Copy(adjTo[det[i]], ch, deg[det[i]]);
                for (int a = 1; a < ch.Length; a++) { // stable insertion sort by distance
                    int x = ch[a], b = a - 1;
                    while (b >= 0 && dist[ch[b]] > dist[x]) { ch[b + 1] = ch[b]; b--; }
                    ch[b + 1] = x;
                }
                choices[i] = ch;
            }
            int[] target = new int[4];
            if (!assign(0, choices, target, new bool[n + 1]))
                for (int i = 0; i < 4; i++) target[i] = deg[det[i]] > 0 ? adjTo[det[i]][0] : det[i];
            sb.Length = 0;
            for (int i = 0; i < 4; i++) {
                det[i] = target[i];
                cand[det[i]] = false;
                sb.Append(det[i]).Append('\n');
            }
            markCity(det[0]);
            @out.Write(sb);
            @out.Flush();
        }
    }

    public static void Main(string[] args) {
        readMap();
        if (readLineOrExit().Equals("Fugitive")) playFugitive();
        else playDetectives();
    }
}
