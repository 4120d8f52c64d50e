// A sample bot of {{.Title}}: it answers 7 every turn.
using System;

public class Bot
{
    public static void Main()
    {
        while (Console.ReadLine() != null)
        {
            Console.WriteLine(7);
            Console.Out.Flush();
        }
    }
}
