// Amazes sample bot (C#): a right-hand wall follower.
// Each turn it reads the four corridor lines (ahead, right, behind, left) and the
// squared distance, then takes the first open direction of right, ahead, left,
// behind (one turn in eight, chosen by a fixed-seed generator, it picks a random
// open side or ahead instead, so it cannot circle an island forever). While the
// step lands in a corridor it has just seen, it keeps following the right-hand
// rule along that corridor, so one line may hold several steps (never more than
// 25). It exits on "Quit", at end of input, and after its 150th turn.
using System;
using System.Collections.Generic;
using System.IO;
using System.Text;

public static class Bot
{
    static ulong rngState = 20100101UL;

    // A small fixed-seed linear congruential generator: a number in 0..n-1.
    static int NextRandom(int n)
    {
        rngState = unchecked(rngState * 1103515245UL + 12345UL) & 0x7FFFFFFFUL;
        return (int)((rngState >> 16) % (ulong)n);
    }

    static readonly TextReader In = new StreamReader(Console.OpenStandardInput(), new UTF8Encoding(false));
    static readonly TextWriter Out = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false));

    // Reads one line without the trailing "\r" and surrounding spaces; null at end of file.
    static string ReadLine()
    {
        string s = In.ReadLine();
        return s == null ? null : s.Trim(' ', '\t', '\r', '\n');
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

    static void Play()
    {
        char[] moveChar = { 'F', 'R', 'T', 'L' }; // ahead, right, behind, left
        for (int turn = 1; turn <= 150; turn++)
        {
            string line = ReadLine();
            if (line == null || line == "Quit") return;
            if (line == "Start")
            {
                line = ReadLine();
                if (line == null || line == "Quit") return;
            }
            string[] corridor = new string[4];
            corridor[0] = line;
            for (int d = 1; d < 4; d++)
            {
                corridor[d] = ReadLine();
                if (corridor[d] == null) return;
            }
            if (ReadLine() == null) return; // squared distance: not used
            bool[] open = new bool[4];
            for (int d = 0; d < 4; d++)
            {
                if (!corridor[d].EndsWith("W", StringComparison.Ordinal)) corridor[d] += "W";
                open[d] = corridor[d][0] != 'W';
            }

            // First step: right-hand rule (right, ahead, left, behind), sometimes random.
            int[] order = { 1, 0, 3, 2 };
            int dir = -1;
            for (int k = 0; k < 4 && dir < 0; k++)
                if (open[order[k]]) dir = order[k];
            if (NextRandom(8) == 0)
            {
                List<int> choices = new List<int>();
                for (int k = 0; k < 3; k++)
                    if (open[order[k]]) choices.Add(order[k]);
                if (choices.Count > 0) dir = choices[NextRandom(choices.Count)];
            }
            StringBuilder answer = new StringBuilder();
            if (dir < 0)
            {
                answer.Append('T'); // no open side seen at all: just turn around
            }
            else
            {
                answer.Append(moveChar[dir]);
                // Follow the corridor just entered while the next step is known.
                string c = corridor[dir];
                int i = 0;
                while (answer.Length < 25)
                {
                    char here = c[i];
                    bool right = here == 'R' || here == 'B';
                    bool left = here == 'L' || here == 'B';
                    bool ahead = i + 1 < c.Length && c[i + 1] != 'W';
                    if (right) { answer.Append('R'); break; }
                    if (ahead) { answer.Append('F'); i++; continue; }
                    if (left) answer.Append('L');
                    break; // a turn leaves the known corridor, or a dead end
                }
            }
            // A dot on its start square (drawn by the viewer: docs/viewer.md, Drawing on the board).
            Console.Error.WriteLine("@judge dot 0 0 layer=sample");
            answer.Append('\n');
            Out.Write(answer.ToString());
            Out.Flush();
        }
    }
}
