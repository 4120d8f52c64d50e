// On The Run sample bot (C#). Reads the map from connect.txt, then plays the
// role named on its first input line.
// Fugitive: starts on the city farthest (fewest connections of any type) from
// the nearest detective; each turn takes the connection whose city is farthest
// from the detectives, never a detective's city unless every move is one.
// Detectives: start on the four cities with the most connections; they keep
// the set of cities where the fugitive can be (its announced city, widened
// each turn along connections of the type it used) and each detective steps to
// the neighbour nearest to that set, the four new cities made distinct by a
// small backtracking search. Exits on "Quit", at end of input, and after its
// 50th move. Deterministic.
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text;

public static class Bot
{
    // One connection of a city: its type letter and the city at the other end.
    struct Link
    {
        public char Type;
        public int To;
        public Link(char type, int to) { Type = type; To = to; }
    }

    static int n;
    static List<Link>[] adj; // adj[c]: connections of city c (1..n)

    static readonly TextReader In = new StreamReader(Console.OpenStandardInput(), new UTF8Encoding(false));
    static readonly TextWriter Out = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false));

    // Reads one trimmed line; exits (code 0) at end of file or on "Quit".
    static string ReadLineOrExit()
    {
        string s = In.ReadLine();
        if (s == null) Environment.Exit(0);
        s = s.Trim();
        if (s == "Quit") Environment.Exit(0);
        return s;
    }

    // Writes the lines of one answer and flushes them.
    static void Answer(string text)
    {
        Out.Write(text);
        Out.Flush();
    }

    // A dot on city c, one an answer (drawn by the viewer: docs/viewer.md, Drawing on the board).
    static void MarkCity(int c) { Console.Error.WriteLine($"@judge dot {c} 0 layer=sample"); }

    // The integers of s in order (any non-digit separates them).
    static List<long> Numbers(string s)
    {
        List<long> v = new List<long>();
        for (int i = 0; i < s.Length;)
        {
            if (s[i] >= '0' && s[i] <= '9')
            {
                long x = 0;
                while (i < s.Length && s[i] >= '0' && s[i] <= '9')
                {
                    if (x < 1000000000000L) x = x * 10 + (s[i] - '0');
                    i++;
                }
                v.Add(x);
            }
            else
            {
                i++;
            }
        }
        return v;
    }

    static void ReadMap()
    {
        string[] lines;
        try
        {
            lines = File.ReadAllText("connect.txt").Split('\n');
        }
        catch (Exception)
        {
            lines = new string[0];
        }
        int k = 0;
        for (; k < lines.Length && n == 0; k++)
        {
            List<long> v = Numbers(lines[k]);
            if (v.Count > 0) n = (int)Math.Min(v[0], 100000);
        }
        adj = new List<Link>[n + 1];
        for (int c = 0; c <= n; c++) adj[c] = new List<Link>();
        for (; k < lines.Length; k++)
        {
            string line = lines[k].Trim();
            if (line == "END") break;
            List<long> v = Numbers(line);
            if (line.Length == 0 || v.Count < 2) continue;
            long a = v[0], b = v[1];
            if (a < 1 || a > n || b < 1 || b > n || a == b) continue;
            adj[a].Add(new Link(line[0], (int)b));
            adj[b].Add(new Link(line[0], (int)a));
        }
    }

    // Breadth-first distances (connections of any type) from the cities marked in src.
    static int[] Distances(bool[] src)
    {
        int[] dist = new int[n + 1];
        List<int> queue = new List<int>();
        for (int c = 1; c <= n; c++)
        {
            dist[c] = 1 << 20;
            if (src[c])
            {
                dist[c] = 0;
                queue.Add(c);
            }
        }
        for (int q = 0; q < queue.Count; q++)
        {
            int c = queue[q];
            foreach (Link l in adj[c])
            {
                if (dist[l.To] > dist[c] + 1)
                {
                    dist[l.To] = dist[c] + 1;
                    queue.Add(l.To);
                }
            }
        }
        return dist;
    }

    // Reads the four detectives' cities (0 for a line without a number, or a number past n).
    static int[] ReadFour()
    {
        int[] det = new int[4];
        for (int i = 0; i < 4; i++)
        {
            List<long> v = Numbers(ReadLineOrExit());
            if (v.Count > 0 && v[0] <= n) det[i] = (int)v[0];
        }
        return det;
    }

    static bool[] DetectiveMap(int[] det)
    {
        bool[] m = new bool[n + 1];
        foreach (int d in det)
            if (d >= 1 && d <= n) m[d] = true;
        return m;
    }

    static void PlayFugitive()
    {
        int[] det = ReadFour();
        bool[] isDet = DetectiveMap(det);
        int[] dist = Distances(isDet);
        int cur = 0;
        for (int c = 1; c <= n; c++)
            if (!isDet[c] && (cur == 0 || dist[c] > dist[cur])) cur = c;
        MarkCity(cur);
        Answer(cur + "\n");

        for (int turn = 1; turn <= 50; turn++)
        {
            isDet = DetectiveMap(det);
            dist = Distances(isDet);
            List<Link> moves = adj[cur];
            int best = -1;
            for (int k = 0; k < moves.Count; k++)
            {
                if (isDet[moves[k].To]) continue;
                if (best < 0 || dist[moves[k].To] > dist[moves[best].To]) best = k;
            }
            if (best < 0) best = 0; // every move ends on a detective: caught anyway
            if (best >= moves.Count) return; // no map: nothing sensible to answer
            Link move = moves[best];
            cur = move.To;
            MarkCity(cur);
            Answer(move.Type + " " + cur + "\n");
            if (turn == 50) break;
            det = ReadFour();
        }
    }

    // Gives detective i (and the following ones) a new city, trying the
    // neighbours in the order of choices[i]; false when no distinct assignment exists.
    static bool Assign(int i, List<int>[] choices, int[] target, bool[] used)
    {
        if (i == 4) return true;
        foreach (int c in choices[i])
        {
            if (used[c]) continue;
            used[c] = true;
            target[i] = c;
            if (Assign(i + 1, choices, target, used)) return true;
            used[c] = false;
        }
        return false;
    }

    static void PlayDetectives()
    {
        // Start on the four cities with the most connections (lowest number on ties).
        int[] det = new int[4];
        bool[] taken = new bool[n + 1];
        StringBuilder start = new StringBuilder();
        for (int i = 0; i < 4; i++)
        {
            int best = 0;
            for (int c = 1; c <= n; c++)
                if (!taken[c] && (best == 0 || adj[c].Count > adj[best].Count)) best = c;
            taken[best] = true;
            det[i] = best;
            start.Append(best).Append('\n');
        }
        MarkCity(det[0]);
        Answer(start.ToString());

        bool[] cand = new bool[n + 1]; // where the fugitive may be
        List<long> v = Numbers(ReadLineOrExit());
        if (v.Count > 0 && v[0] >= 1 && v[0] <= n) cand[v[0]] = true;

        for (int turn = 1; turn <= 50; turn++)
        {
            string line = ReadLineOrExit();
            char type = line.Length > 0 ? line[0] : 'C';
            v = Numbers(line);
            bool[] isDet = DetectiveMap(det);
            bool[] next = new bool[n + 1];
            bool any = false;
            if (v.Count > 0 && v[0] >= 1 && v[0] <= n)
            { // announcement turn
                next[v[0]] = true;
                any = true;
            }
            else
            {
                for (int c = 1; c <= n; c++)
                {
                    if (!cand[c]) continue;
                    foreach (Link l in adj[c])
                    {
                        if (l.Type == type && !isDet[l.To])
                        {
                            next[l.To] = true;
                            any = true;
                        }
                    }
                }
            }
            if (!any) // lost track: the fugitive may be anywhere
                for (int c = 1; c <= n; c++) next[c] = !isDet[c];
            cand = next;

            // Each detective prefers the neighbours nearest to the possible cities
            // (OrderBy is a stable sort, as the other samples' sorts).
            int[] dist = Distances(cand);
            List<int>[] choices = new List<int>[4];
            for (int i = 0; i < 4; i++)
                choices[i] = adj[det[i]].Select(l => l.To).OrderBy(c => dist[c]).ToList();
            int[] target = new int[4];
            if (!Assign(0, choices, target, new bool[n + 1]))
            {
                for (int i = 0; i < 4; i++)
                    target[i] = adj[det[i]].Count > 0 ? adj[det[i]][0].To : det[i];
            }
            StringBuilder answer = new StringBuilder();
            for (int i = 0; i < 4; i++)
            {
                det[i] = target[i];
                cand[det[i]] = false;
                answer.Append(det[i]).Append('\n');
            }
            MarkCity(det[0]);
            Answer(answer.ToString());
        }
    }

    public static void Main()
    {
        try
        {
            ReadMap();
            if (ReadLineOrExit() == "Fugitive") PlayFugitive();
            else PlayDetectives();
        }
        catch (IOException)
        {
            // The judge closed the pipes: the game is over.
        }
    }
}
