// Drop the Block sample bot (C#). Prints READY, then answers every turn's input
// (id, T, 6 block rows, 4 player lines "R C D S", EOD) with one action:
//   - fallen, or waiting after an attack (S > 0): N;
//   - standing on a block that is about to fall: the quickest step off it onto a
//     standing block;
//   - an enemy on a standing block in line within 3 blocks: A when facing it,
//     otherwise a move toward it (which turns it; it steps only onto a standing block);
//   - otherwise a step toward the centre onto a standing block (never onto a
//     falling or fallen one), or N.
//
// Deterministic. Exits at end of input.
using System;
using System.Collections.Generic;
using System.IO;
using System.Text;

public static class Bot
{
    const int Size = 18, Side = 3, Blocks = 6, Players = 4;
    const string Letters = "URDL";
    static readonly int[] DR = { -1, 0, 1, 0 };
    static readonly int[] DC = { 0, 1, 0, -1 };

    static readonly int[,] blk = new int[Blocks, Blocks];
    static readonly int[] pr = new int[Players], pc = new int[Players], pd = new int[Players], ps = new int[Players];
    static int id, turn;

    static readonly char[] Space = { ' ', '\t', '\r', '\n', '\v', '\f' };

    static int BlockAt(int r, int c) { return blk[r / Side, c / Side]; }

    // The move would step (on the board, not onto a fallen block, more than 3 from everyone).
    static bool Legal(int d)
    {
        int r = pr[id] + DR[d], c = pc[id] + DC[d];
        if (r < 0 || r >= Size || c < 0 || c >= Size || BlockAt(r, c) < 0) return false;
        for (int j = 0; j < Players; j++)
            if (j != id && pr[j] >= 0 && Math.Abs(r - pr[j]) + Math.Abs(c - pc[j]) <= 3) return false;
        return true;
    }

    // The move would step onto a standing block.
    static bool Safe(int d) { return Legal(d) && BlockAt(pr[id] + DR[d], pc[id] + DC[d]) == 0; }

    static char Decide()
    {
        int r = pr[id], c = pc[id];
        if (r < 0 || ps[id] > 0) return 'N';
        int br = r / Side, bc = c / Side;
        if (blk[br, bc] > 0)
        { // get off a falling block
            int best = -1, bestSteps = 0;
            for (int d = 0; d < 4; d++)
            {
                int nr = br + DR[d], nc = bc + DC[d];
                if (!Legal(d) || nr < 0 || nr >= Blocks || nc < 0 || nc >= Blocks || blk[nr, nc] != 0) continue;
                int[] steps = { r % Side + 1, Side - c % Side, Side - r % Side, c % Side + 1 };
                if (best < 0 || steps[d] < bestSteps) { best = d; bestSteps = steps[d]; }
            }
            if (best >= 0) return Letters[best];
        }
        for (int k = 0; k < 4; k++)
        { // an enemy in line: attack, or turn to it
            int d = (pd[id] + k) % 4;
            for (int j = 0; j < Players; j++)
            {
                if (j == id || pr[j] < 0) continue;
                int qr = pr[j] / Side, qc = pc[j] / Side;
                if (blk[qr, qc] != 0) continue;
                int n = (qr - br) * DR[d] + (qc - bc) * DC[d];
                bool inLine = (DR[d] != 0 && qc == bc) || (DC[d] != 0 && qr == br);
                if (!inLine || n < 1 || n > 3) continue;
                if (k == 0) return 'A';
                if (Safe(d) || !Legal(d)) return Letters[d];
            }
        }
        List<int> want = new List<int>(); // toward the centre
        if (r < Size / 2 - 1) want.Add(2);
        else if (r > Size / 2) want.Add(0);
        if (c < Size / 2 - 1) want.Add(1);
        else if (c > Size / 2) want.Add(3);
        for (int k = 0; k < want.Count; k++)
        {
            int i = (k + turn / Players) % want.Count;
            int d = want[i < 0 ? i + want.Count : i];
            if (Safe(d)) return Letters[d];
        }
        return 'N';
    }

    // A number, 0 when it is none.
    static int Atoi(string s)
    {
        int v;
        return int.TryParse(s.Trim(Space), out v) ? v : 0;
    }

    static string[] Fields(string line)
    {
        return line.Split(Space, StringSplitOptions.RemoveEmptyEntries);
    }

    static readonly TextReader In = new StreamReader(Console.OpenStandardInput(), new UTF8Encoding(false));
    static readonly TextWriter Out = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false));

    // Reads one turn's input; false at end of input.
    static bool ReadState()
    {
        string line = In.ReadLine();
        if (line == null) return false;
        int newId = Atoi(line);
        if ((line = In.ReadLine()) == null) return false;
        turn = Atoi(line);
        for (int r = 0; r < Blocks; r++)
        {
            if ((line = In.ReadLine()) == null) return false;
            string[] f = Fields(line);
            for (int c = 0; c < Blocks && c < f.Length; c++) blk[r, c] = Atoi(f[c]);
        }
        for (int p = 0; p < Players; p++)
        {
            if ((line = In.ReadLine()) == null) return false;
            string[] f = Fields(line);
            pr[p] = -1; pc[p] = -1; pd[p] = 0; ps[p] = 0;
            if (f.Length == 4)
            {
                int r = Atoi(f[0]), c = Atoi(f[1]);
                if (r >= 0 && r < Size && c >= 0 && c < Size) { pr[p] = r; pc[p] = c; }
                ps[p] = Atoi(f[3]);
                pd[p] = f[2].Length == 1 ? Math.Max(Letters.IndexOf(f[2][0]), 0) : 0;
            }
        }
        if (In.ReadLine() == null) return false; // EOD
        id = newId >= 0 && newId < Players ? newId : 0;
        return true;
    }

    public static void Main()
    {
        try
        {
            Out.Write("READY\n");
            Out.Flush();
            while (ReadState())
            {
                // A dot on its square, a note once fallen (drawn by the viewer: docs/viewer.md, Drawing on the board).
                if (pr[id] >= 0) Console.Error.WriteLine($"@judge dot {pc[id]} {pr[id]} layer=sample");
                else Console.Error.WriteLine("@judge note layer=sample fallen");
                Out.Write(Decide());
                Out.Write('\n');
                Out.Flush();
            }
        }
        catch (IOException)
        {
            // The judge closed the pipes: the game is over.
        }
    }
}
