// Amazes sample bot (C++): a right-hand wall follower.
// Each turn it reads the four corridor lines (ahead, right, behind, left) and the
// squared distance, then takes the first open direction of right, ahead, left,
// behind (one turn in eight, chosen by a fixed-seed generator, it picks a random
// open side or ahead instead, so it cannot circle an island forever). While the
// step lands in a corridor it has just seen, it keeps following the right-hand
// rule along that corridor, so one line may hold several steps (never more than
// 25). It exits on "Quit", at end of input, and after its 150th turn.
using System;
using System.Text;

static class Bot {
static ulong rngState = 20100101UL;

// A small fixed-seed linear congruential generator: a number in 0..n-1.
static int nextRandom(int n) {
    rngState = unchecked(rngState * 1103515245UL + 12345UL) & 0x7FFFFFFFUL;
    return (int)((rngState >> 16) % (ulong)n);
}

// Reads one line without the trailing "\r" and surrounding spaces; false at end of file.
static bool readLine(ref string s) {
    if ((s = Console.In.ReadLine()) == null) return false;
    int a = s.Length - s.TrimStart(' ', '\t', '\r').Length;
    int b = s.TrimEnd(' ', '\t', '\r').Length - 1;
    s = (a == s.Length) ? "" : s.Substring(a, b - a + 1);
    return true;
}

static int Main() {
    char[] moveChar = {'F', 'R', 'T', 'L'};  // ahead, right, behind, left
    string line = "";
    for (int turn = 1; turn <= 150; turn++) {
        if (!readLine(ref line)) return 0;
        if (line == "Quit") return 0;
        if (line == "Start") {
            if (!readLine(ref line)) return 0;
            if (line == "Quit") return 0;
        }
        string[] corridor = new string[4];
        corridor[0] = line;
        for (int d = 1; d < 4; d++)
            if (!readLine(ref corridor[d])) return 0;
        string distance = "";
        if (!readLine(ref distance)) return 0;  // squared distance: not used
        bool[] open = new bool[4];
        for (int d = 0; d < 4; d++) {
            if (corridor[d].Length == 0 || corridor[d][corridor[d].Length - 1] != 'W') corridor[d] += 'W';
            open[d] = corridor[d][0] != 'W';
        }

        // First step: right-hand rule (right, ahead, left, behind), sometimes random.
        int[] order = {1, 0, 3, 2};
        int dir = -1;
        for (int k = 0; k < 4 && dir < 0; k++)
            if (open[order[k]]) dir = order[k];
        if (nextRandom(8) == 0) {
            int[] choices = new int[3]; int count = 0;
            for (int k = 0; k < 3; k++)
                if (open[order[k]]) choices[count++] = order[k];
            if (count > 0) dir = choices[nextRandom(count)];
        }
        string answer = "";
        if (dir < 0) {
            answer = "T";  // no open side seen at all: just turn around
        } else {
            answer += moveChar[dir];
            // Follow the corridor just entered while the next step is known.
            string c = corridor[dir];
            int i = 0;
            while (answer.Length < 25) {
                char here = c[i];
                bool right = here == 'R' || here == 'B';
                bool left = here == 'L' || here == 'B';
                bool ahead = i + 1 < c.Length && c[i + 1] != 'W';
                if (right) { answer += 'R'; break; }
                if (ahead) { answer += 'F'; i++; continue; }
                if (left) answer += 'L';
                break;  // a turn leaves the known corridor, or a dead end
            }
        }
        // A dot on its start square (drawn by the viewer: docs/viewer.md, Drawing on the board).
        Console.Error.WriteLine("@judge dot 0 0 layer=sample"); Console.Error.Flush();
        Console.Out.Write(answer + "\n"); Console.Out.Flush();
    }
    return 0;
}
}
