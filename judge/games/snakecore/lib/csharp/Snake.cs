// Snake.cs - the SnakeCore helper library for C# bots (namespace SnakeCore).
//
// The judge adds this file to every C# submission for SnakeCore as Snake.cs (replacing a
// submission's own Snake.cs) and compiles it with the bot's files, so a bot just uses it. The
// bot keeps its own Main and hands the library its name and a function:
//
//     using SnakeCore;
//
//     public static class MyBot
//     {
//         public static void Main()
//         {
//             Snake.Run("my bot", area => Snake.None);
//         }
//     }
//
// Run answers getName with the name (cut to the 32 bytes the page allows, control characters
// made spaces) and each getAction with what the function returns, flushing every answer, and
// returns at the end of the input (or when the judge closes the output). It throws a
// FormatException for a malformed request. A bot may also read the requests itself with
// Snake.ReadRequest, or ignore this file. C# 7 (Mono's mcs), standard library only.
//
// Coordinates are x (column) and y (row), from 0 at the top left; Up is y-1.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Text;

namespace SnakeCore
{
    // A cell.
    public struct Point : IEquatable<Point>
    {
        public readonly int X, Y;

        public Point(int x, int y) { X = x; Y = y; }

        // The cell next to this one in the direction of a move action (this one for any other).
        public Point Step(char action)
        {
            switch (action)
            {
                case Snake.Up: return new Point(X, Y - 1);
                case Snake.Down: return new Point(X, Y + 1);
                case Snake.Left: return new Point(X - 1, Y);
                case Snake.Right: return new Point(X + 1, Y);
            }
            return this;
        }

        // The Manhattan distance to q.
        public int Dist(Point q) { return Math.Abs(X - q.X) + Math.Abs(Y - q.Y); }

        public bool Equals(Point p) { return X == p.X && Y == p.Y; }
        public override bool Equals(object o) { return o is Point && Equals((Point)o); }
        public override int GetHashCode() { return X * 7919 + Y; }
        public static bool operator ==(Point a, Point b) { return a.Equals(b); }
        public static bool operator !=(Point a, Point b) { return !a.Equals(b); }
        public override string ToString() { return X + " " + Y; }
    }

    // A python: Parts[0] is the head, the last part the tail; never empty.
    public sealed class Python
    {
        // The number of the python's own moves its protection still lasts (0: not protected).
        public readonly int Protection;
        // The head and the body's blocks, from the head to the tail.
        public readonly Point[] Parts;

        public Python(int protection, Point[] parts) { Protection = protection; Parts = parts; }

        // The length, head included.
        public int Length { get { return Parts.Length; } }
        // The head's cell.
        public Point Head { get { return Parts[0]; } }
        // The last part's cell (the head's for a head alone).
        public Point Tail { get { return Parts[Parts.Length - 1]; } }

        // The body's blocks (all parts but the head), as a new array.
        public Point[] Body()
        {
            Point[] body = new Point[Parts.Length - 1];
            Array.Copy(Parts, 1, body, 0, body.Length);
            return body;
        }
    }

    // One getAction request: the field and the pythons.
    public sealed class AreaInfo
    {
        // The side of the square field.
        public readonly int Size;
        // The field's rows, top first: Rows[y][x] is the cell (x, y).
        public readonly string[] Rows;
        // All pythons: Pythons[0] is the bot's own, the others follow in the order of the ids.
        public readonly Python[] Pythons;
        // The getAction requests read so far, 1 for the first (set by Run).
        public int Turn { get; internal set; }

        readonly int[] owner, index;

        internal AreaInfo(int size, string[] rows, Python[] pythons, int[] owner, int[] index)
        {
            Size = size;
            Rows = rows;
            Pythons = pythons;
            this.owner = owner;
            this.index = index;
        }

        // The bot's own python.
        public Python Me { get { return Pythons[0]; } }

        // The other pythons, as a new array.
        public Python[] Others()
        {
            Python[] others = new Python[Pythons.Length - 1];
            Array.Copy(Pythons, 1, others, 0, others.Length);
            return others;
        }

        // Whether (x, y) is on the field.
        public bool Inside(int x, int y) { return x >= 0 && y >= 0 && x < Size && y < Size; }

        // The character of (x, y); off the field a Wall.
        public char Cell(int x, int y) { return Inside(x, y) ? Rows[y][x] : Snake.Wall; }

        // Cell for a Point.
        public char At(Point p) { return Cell(p.X, p.Y); }

        // The index in Pythons of the python with a part on (x, y), or -1.
        public int Owner(int x, int y) { return Inside(x, y) ? owner[y * Size + x] : -1; }

        // The index in its python's Parts of the part on (x, y) (0 for a head), or -1.
        public int PartIndex(int x, int y) { return Inside(x, y) ? index[y * Size + x] : -1; }

        // Whether (x, y) holds a block that belongs to no python.
        public bool IsFreeBlock(int x, int y)
        {
            char c = Cell(x, y);
            return (c == Snake.Block || c == Snake.Energy) && Owner(x, y) < 0;
        }

        // Whether (x, y) is an empty cell.
        public bool IsEmpty(int x, int y) { return Inside(x, y) && Cell(x, y) == Snake.Empty; }
    }

    // The constants and the request loop.
    public static class Snake
    {
        // The actions a bot may answer.
        public const char Up = 'U';
        public const char Left = 'L';
        public const char Down = 'D';
        public const char Right = 'R';
        public const char None = 'N';    // skip the move
        public const char Protect = 'A'; // spend an energy block for 10 moves of protection

        // The four moving actions (do not change the array).
        public static readonly char[] Moves = { Up, Left, Down, Right };

        // The characters of the field.
        public const char Wall = 'W';
        public const char Reactor = 'R';
        public const char Block = 'b';  // an ordinary block, free or in a body
        public const char Energy = 'e'; // an energy block, free or in a body
        public const char Head = 'p';   // a python's head
        public const char Empty = '.';

        // The requests ReadRequest returns.
        public const string GetName = "getName";
        public const string GetAction = "getAction";

        static readonly char[] Space = { ' ', '\t', '\r', '\n', '\v', '\f' };

        // Thrown inside the library when the input ends in the middle of a request.
        sealed class EndOfInput : Exception { }

        // Reads one line without its end ("\n" or "\r\n"). A last line without its "\n" is a
        // request the judge never finished: the end of the input too. (Read char by char, as
        // TextReader.ReadLine cannot tell, and Peek could wait for the judge's next request.)
        static string ReadRaw(TextReader r)
        {
            StringBuilder sb = new StringBuilder();
            for (;;)
            {
                int c = r.Read();
                if (c < 0) throw new EndOfInput();
                if (c == '\n') break;
                sb.Append((char)c);
            }
            if (sb.Length > 0 && sb[sb.Length - 1] == '\r') sb.Length--;
            return sb.ToString();
        }

        // Reads one line without its end and surrounding spaces.
        static string ReadLine(TextReader r) { return ReadRaw(r).Trim(Space); }

        // An integer in decimal digits with an optional sign, as the judge writes them.
        static bool ParseInt(string s, out int v)
        {
            return int.TryParse(s, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out v);
        }

        // Reads the next request: GetName (area is null) or GetAction with its area. Unknown
        // lines are skipped. Returns null at the end of the input, also when it ends inside a
        // request; throws a FormatException for a malformed request.
        public static string ReadRequest(TextReader r, out AreaInfo area)
        {
            area = null;
            try
            {
                for (;;)
                {
                    string line = ReadLine(r);
                    if (line == GetName) return GetName;
                    if (line == GetAction)
                    {
                        area = ReadArea(r);
                        return GetAction;
                    }
                }
            }
            catch (EndOfInput)
            {
                area = null;
                return null;
            }
        }

        // Reads the rest of a getAction request (after its first line). The number of python
        // lines is the number of heads on the field.
        static AreaInfo ReadArea(TextReader r)
        {
            string line = ReadLine(r);
            int n;
            // The game allows sizes 10..100.
            if (!ParseInt(line, out n) || n <= 0 || n > 1000)
                throw new FormatException("snake: malformed request: \"" + line + "\" is not the field size");
            string[] rows = new string[n];
            int heads = 0;
            for (int y = 0; y < n; y++)
            {
                string row = ReadRaw(r);
                if (row.Length < n) row = row.PadRight(n, Empty);
                rows[y] = row.Substring(0, n);
                foreach (char c in rows[y])
                    if (c == Head) heads++;
            }
            int[] owner = new int[n * n], index = new int[n * n];
            for (int i = 0; i < n * n; i++) owner[i] = index[i] = -1;
            List<Python> pythons = new List<Python>();
            for (int k = 0; k < heads; k++)
            {
                line = ReadLine(r);
                string[] f = line.Split(Space, StringSplitOptions.RemoveEmptyEntries);
                int[] v = new int[f.Length];
                for (int i = 0; i < f.Length; i++)
                    if (!ParseInt(f[i], out v[i]))
                        throw new FormatException("snake: malformed request: python line \"" + line + "\"");
                if (v.Length < 2 || v[1] < 1 || v.Length != 2 + 2L * v[1])
                    throw new FormatException("snake: malformed request: python line \"" + line + "\"");
                Point[] parts = new Point[v[1]];
                for (int i = 0; i < parts.Length; i++)
                {
                    int x = v[2 + 2 * i], y = v[3 + 2 * i];
                    parts[i] = new Point(x, y);
                    if (x >= 0 && y >= 0 && x < n && y < n)
                    {
                        owner[y * n + x] = k;
                        index[y * n + x] = i;
                    }
                }
                pythons.Add(new Python(v[0], parts));
            }
            if (heads == 0) throw new FormatException("snake: malformed request: no python on the field");
            return new AreaInfo(n, rows, pythons.ToArray(), owner, index);
        }

        // The name as the page allows it: at most 32 bytes of UTF-8 (cut at a character
        // boundary), characters below 0x20 made spaces.
        public static string CleanName(string name)
        {
            StringBuilder sb = new StringBuilder();
            int bytes = 0;
            for (int i = 0; i < (name ?? "").Length; i++)
            {
                // A surrogate pair is one character of 4 bytes.
                int len = char.IsHighSurrogate(name[i]) && i + 1 < name.Length ? 2 : 1;
                int size = Encoding.UTF8.GetByteCount(name.Substring(i, len));
                if (bytes + size > 32) break;
                bytes += size;
                if (name[i] < 0x20) sb.Append(' ');
                else sb.Append(name, i, len);
                i += len - 1;
            }
            return sb.ToString();
        }

        // Plays on standard input and output: answers getName with name and each getAction
        // with action's answer, flushing each answer. Returns at the end of the input, or when
        // the output is closed; throws a FormatException for a malformed request.
        public static void Run(string name, Func<AreaInfo, char> action)
        {
            Encoding utf8 = new UTF8Encoding(false);
            RunIO(new StreamReader(Console.OpenStandardInput(), utf8),
                  new StreamWriter(Console.OpenStandardOutput(), utf8), name, action);
        }

        // Run on other streams.
        public static void RunIO(TextReader input, TextWriter output, string name, Func<AreaInfo, char> action)
        {
            int turn = 0;
            for (;;)
            {
                AreaInfo area;
                string kind = ReadRequest(input, out area);
                if (kind == null) return;
                string answer;
                if (kind == GetName)
                {
                    answer = CleanName(name);
                }
                else
                {
                    area.Turn = ++turn;
                    answer = action(area).ToString();
                }
                try
                {
                    output.Write(answer + "\n");
                    output.Flush();
                }
                catch (IOException)
                {
                    return; // the judge closed the bot's output: the game is over
                }
            }
        }
    }
}
