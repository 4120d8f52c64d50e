// Hello bot: answers every line with the same line.
using System;

public static class Hello {
    public static void Main() {
        string line;
        while ((line = Console.ReadLine()) != null) {
            Console.WriteLine(line);
            Console.Out.Flush();
        }
    }
}
