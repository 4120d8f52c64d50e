// Lang Wars sample bot (C#): propagates the languages with the best attention
// to competition ratio.
// It prints READY, reads the settings (turns, players, languages, attention
// degrees), then each turn reads the revealed believers, its own real
// believers and (on workdays) how often each language was propagated in the
// last holiday. It estimates every opponent's believers as the revealed ones
// plus an equal share of the holiday propagations that were not its own. Then,
// pick by pick (5 on a workday, 2 on a holiday), it takes the language with the
// highest attention / (1 + |best opponent's believers - its own|): languages
// it can just win or just keep, weighted by what they are worth (ties: the
// lowest language). It prints the picks on one line, and exits at end of input
// or after the last turn. Deterministic.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Text;

public static class Bot
{
    static readonly TextReader In = new StreamReader(Console.OpenStandardInput(), new UTF8Encoding(false));
    static readonly TextWriter Out = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false));
    static readonly char[] Space = { ' ', '\t', '\r', '\n', '\v', '\f' };

    // The words of the line being read, and the next one to hand out.
    static string[] words = new string[0];
    static int nextWord;

    // The next whitespace-separated word; null at end of input. Reads a line at a time, so a
    // word is available as soon as its line is.
    static string Word()
    {
        while (nextWord >= words.Length)
        {
            string line = In.ReadLine();
            if (line == null) return null;
            words = line.Split(Space, StringSplitOptions.RemoveEmptyEntries);
            nextWord = 0;
        }
        return words[nextWord++];
    }

    // The next word as an integer; false at end of input or on a non-number.
    static bool Number(out long v)
    {
        v = 0;
        string w = Word();
        return w != null && long.TryParse(w, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out v);
    }

    // Plays the whole game; returns when the input ends (or is not understood).
    static void Play()
    {
        Out.Write("READY\n");
        Out.Flush();
        long turns, players, langs;
        if (!Number(out turns) || !Number(out players) || !Number(out langs)) return;
        // The game has 4 players and 8 languages; anything absurd is not played.
        if (players < 2 || players > 1000 || langs < 1 || langs > 1000) return;
        int P = (int)players, N = (int)langs;
        double[] attention = new double[N];
        long[] holidayTotal = new long[N]; // all players' holiday propagations so far
        for (int l = 0; l < N; l++)
        {
            long a;
            if (!Number(out a)) return;
            attention[l] = a;
        }
        for (long t = 1; t <= turns; t++)
        {
            long turn;
            if (!Number(out turn)) return;
            string day = Word();
            if (day == null) return;
            long[,] revealed = new long[N, P];
            for (int l = 0; l < N; l++)
                for (int j = 0; j < P; j++)
                    if (!Number(out revealed[l, j])) return;
            long[] real = new long[N];
            for (int l = 0; l < N; l++)
                if (!Number(out real[l])) return;
            bool workday = day == "W";
            if (workday)
            {
                for (int l = 0; l < N; l++)
                {
                    long p;
                    if (!Number(out p)) return;
                    holidayTotal[l] += p;
                }
            }
            double[] mine = new double[N], best = new double[N];
            for (int l = 0; l < N; l++)
            {
                // Holiday believers of the others: all holiday picks minus its own.
                double hidden = holidayTotal[l] - (real[l] - revealed[l, 0]);
                if (hidden < 0) hidden = 0;
                mine[l] = real[l];
                for (int j = 1; j < P; j++)
                {
                    double other = revealed[l, j] + hidden / (P - 1);
                    if (other > best[l]) best[l] = other;
                }
            }
            int picks = workday ? 5 : 2;
            List<string> chosen = new List<string>(picks);
            for (int k = 0; k < picks; k++)
            {
                int choice = 0;
                double top = -1;
                for (int l = 0; l < N; l++)
                {
                    double v = attention[l] / (1 + Math.Abs(best[l] - mine[l]));
                    if (v > top)
                    {
                        top = v;
                        choice = l;
                    }
                }
                mine[choice]++;
                chosen.Add(choice.ToString(CultureInfo.InvariantCulture));
            }
            // A note of its picks (listed by the viewer: docs/viewer.md, Drawing on the board).
            Console.Error.WriteLine("@judge note layer=sample picked " + string.Join(" ", chosen));
            Out.Write(string.Join(" ", chosen) + "\n");
            Out.Flush();
        }
    }

    public static void Main()
    {
        try
        {
            Play();
        }
        catch (IOException)
        {
            // The judge closed the pipes: the game is over.
        }
    }
}
