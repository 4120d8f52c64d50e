// The referee of {{.Title}} (rules.md): the judge writes one line of JSON to its stdin, and it
// answers one line on its stdout, as docs/referee.md says. Its stderr is for you: the judge
// keeps the end of it when the referee fails.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Text;

public class Referee
{
    // A number's or a boolean's text, as the judge wrote it.
    sealed class Raw { public string Text; public Raw(string t) { Text = t; } }

    // A small JSON reader, enough for the judge's lines: a value is a Dictionary (object), a
    // List (array), a string, a Raw, or null.
    sealed class Reader
    {
        readonly string s;
        int i;
        public Reader(string s) { this.s = s; }

        char Peek()
        {
            while (i < s.Length && " \t\r\n".IndexOf(s[i]) >= 0) i++;
            return s[i];
        }

        void Expect(char c)
        {
            if (Peek() != c) throw new FormatException("expected " + c + " at " + i);
            i++;
        }

        string Str()
        {
            Expect('"');
            var sb = new StringBuilder();
            for (char c = s[i++]; c != '"'; c = s[i++])
            {
                if (c != '\\') { sb.Append(c); continue; }
                c = s[i++];
                switch (c)
                {
                    case 'n': sb.Append('\n'); break;
                    case 't': sb.Append('\t'); break;
                    case 'r': sb.Append('\r'); break;
                    case 'b': sb.Append('\b'); break;
                    case 'f': sb.Append('\f'); break;
                    case 'u': sb.Append((char)int.Parse(s.Substring(i, 4), NumberStyles.HexNumber)); i += 4; break;
                    default: sb.Append(c); break; // \" \\ and \/
                }
            }
            return sb.ToString();
        }

        public object Value()
        {
            char c = Peek();
            if (c == '{')
            {
                i++;
                var m = new SortedDictionary<string, object>(StringComparer.Ordinal);
                if (Peek() == '}') { i++; return m; }
                for (;;)
                {
                    string k = Str();
                    Expect(':');
                    m[k] = Value();
                    if (Peek() == ',') { i++; continue; }
                    Expect('}');
                    return m;
                }
            }
            if (c == '[')
            {
                i++;
                var l = new List<object>();
                if (Peek() == ']') { i++; return l; }
                for (;;)
                {
                    l.Add(Value());
                    if (Peek() == ',') { i++; continue; }
                    Expect(']');
                    return l;
                }
            }
            if (c == '"') return Str();
            int start = i;
            while (i < s.Length && ",]} \t\r\n".IndexOf(s[i]) < 0) i++;
            string t = s.Substring(start, i - start);
            return t == "null" ? null : new Raw(t);
        }
    }

    // Quote is s as a JSON string.
    static string Quote(string s)
    {
        var sb = new StringBuilder("\"");
        foreach (char c in s)
        {
            if (c == '"' || c == '\\') sb.Append('\\').Append(c);
            else if (c == '\n') sb.Append("\\n");
            else if (c < 0x20) sb.Append("\\u").Append(((int)c).ToString("x4"));
            else sb.Append(c);
        }
        return sb.Append('"').ToString();
    }

    ulong seed;
    int n, turns, turn = 1, asked = -1; // asked: the player whose answer is awaited this turn
    int[] scores;
    bool[] outs;
    readonly SortedDictionary<int, int> picks = new SortedDictionary<int, int>();

    // Every random choice comes from the seed: the same seed and answers give the same match,
    // which is how the judge re-judges a replay.
    int Bonus() { return (int)((seed % 9 + (ulong)turn) % 9) + 1; }

    static string List(int[] v) { return "[" + string.Join(",", v) + "]"; }

    string View() { return "{\"scores\":" + List(scores) + ",\"state\":{\"turn\":" + turn + "}}"; }

    // Next is what comes next: the request to the next player of the turn, or the end.
    string Next()
    {
        for (;;)
        {
            int p = asked + 1;
            while (p < n && outs[p]) p++;
            if (p < n)
            {
                asked = p;
                return "\"next\":[{\"player\":" + p + ",\"turn\":" + turn + ",\"send\":\"TURN " + turn +
                       "\\n\",\"expect\":1,\"limit_us\":1000000}]";
            }
            int best = picks.Count > 0 ? picks.Values.Max() : 0;
            foreach (var e in picks) scores[e.Key] += (e.Value == best ? 1 : 0) + (e.Value == Bonus() ? 1 : 0);
            picks.Clear();
            turn++;
            asked = -1;
            if (turn > turns || outs.All(o => o)) return "\"next\":[],\"done\":{\"scores\":" + List(scores) + "}";
        }
    }

    // Reply is the verdict on a player's answer: null, or the rule it broke.
    string Reply(IDictionary<string, object> m)
    {
        int p = int.Parse(((Raw)m["player"]).Text);
        if (m["fault"] != null) // a timeout or a crash the judge saw: the player is out
        {
            outs[p] = true;
            return "null";
        }
        string line = ((string)((List<object>)m["lines"])[0]).Trim(' ', '\t', '\r');
        if (line.Length != 1 || line[0] < '1' || line[0] > '9')
        {
            outs[p] = true;
            return "{\"kind\":\"illegal_move\",\"detail\":\"not a number from 1 to 9\"}";
        }
        picks[p] = line[0] - '0';
        return "null";
    }

    public static void Main()
    {
        var stdin = new StreamReader(Console.OpenStandardInput(), new UTF8Encoding(false));
        var stdout = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false));
        Referee match = null;
        for (string line; (line = stdin.ReadLine()) != null; )
        {
            var m = (IDictionary<string, object>)new Reader(line).Value();
            string answer;
            if ((string)m["type"] == "start")
            {
                var options = (IDictionary<string, object>)m["options"];
                match = new Referee();
                match.seed = ulong.Parse(((Raw)m["seed"]).Text);
                match.n = int.Parse(((Raw)m["players"]).Text);
                match.turns = int.Parse((string)options["turns"]);
                match.scores = new int[match.n];
                match.outs = new bool[match.n];
                long memory = long.Parse((string)options["memory"]) << 20;
                string opts = string.Join(",", options.Select(e => Quote(e.Key) + ":" + Quote((string)e.Value)));
                answer = "{\"type\":\"setup\",\"options\":{" + opts + "},\"memory\":" + memory;
            }
            else
            {
                answer = "{\"type\":\"judged\",\"fault\":" + match.Reply(m);
            }
            answer += "," + match.Next();
            answer += ",\"view\":" + match.View() + "}"; // the picture once the answer is judged
            stdout.Write(answer + "\n");
            stdout.Flush(); // the judge waits for the line
        }
    }
}
