// Counts word frequencies in text files (or standard input) and prints the
// most common words as a table with a small bar chart.
//
//   word_frequency [-n TOP] [-min LENGTH] [--stop] [FILE...]
//
// --stop leaves out common English stop words.
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text;

class WordFrequency
{
    static readonly HashSet<string> StopWords = new HashSet<string>
    {
        "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "from", "had", "has",
        "have", "he", "her", "his", "i", "in", "is", "it", "its", "of", "on", "or", "she",
        "that", "the", "their", "they", "this", "to", "was", "were", "with", "you",
    };

    static IEnumerable<string> Words(TextReader reader)
    {
        var word = new StringBuilder();
        int c;
        while ((c = reader.Read()) != -1)
        {
            char ch = (char)c;
            if (char.IsLetter(ch) || (ch == '\'' && word.Length > 0))
            {
                word.Append(char.ToLowerInvariant(ch));
                continue;
            }
            if (word.Length > 0)
            {
                yield return word.ToString().TrimEnd('\'');
                word.Clear();
            }
        }
        if (word.Length > 0)
            yield return word.ToString().TrimEnd('\'');
    }

    static int Main(string[] args)
    {
        int top = 20, minLength = 1;
        bool skipStop = false;
        var files = new List<string>();
        for (int i = 0; i < args.Length; i++)
        {
            switch (args[i])
            {
                case "-n":
                    top = int.Parse(args[++i]);
                    break;
                case "-min":
                    minLength = int.Parse(args[++i]);
                    break;
                case "--stop":
                    skipStop = true;
                    break;
                default:
                    files.Add(args[i]);
                    break;
            }
        }

        var counts = new Dictionary<string, int>();
        long total = 0;
        var readers = files.Count == 0
            ? new List<TextReader> { Console.In }
            : files.Select(f => (TextReader)new StreamReader(f)).ToList();
        foreach (var reader in readers)
        {
            foreach (var w in Words(reader))
            {
                if (w.Length < minLength || (skipStop && StopWords.Contains(w)))
                    continue;
                counts.TryGetValue(w, out int n);
                counts[w] = n + 1;
                total++;
            }
            reader.Dispose();
        }

        if (counts.Count == 0)
        {
            Console.Error.WriteLine("no words found");
            return 1;
        }

        var ranking = counts
            .OrderByDescending(kv => kv.Value)
            .ThenBy(kv => kv.Key, StringComparer.Ordinal)
            .Take(top)
            .ToList();
        int widest = ranking.Max(kv => kv.Key.Length);
        int most = ranking[0].Value;
        Console.WriteLine("{0} words, {1} distinct", total, counts.Count);
        int rank = 0;
        foreach (var kv in ranking)
        {
            rank++;
            int bar = (int)Math.Round(30.0 * kv.Value / most);
            double share = 100.0 * kv.Value / total;
            Console.WriteLine("{0,3}. {1} {2,6} {3,5:F1}%  {4}",
                rank, kv.Key.PadRight(widest), kv.Value, share, new string('*', Math.Max(bar, 1)));
        }
        return 0;
    }
}
