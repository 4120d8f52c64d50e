// Red-team bot in C# for the script game: each line is a command, and each command answers
// one line. "echo X" answers itself; "alloc N" touches N MiB; "threads N" starts N threads;
// "spawn" runs another program (Process.Start); "write P" creates a file; "net" connects out;
// "env" lists the environment's names.
using System;
using System.Collections;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Net.Sockets;
using System.Threading;

public static class Hostile {
    static readonly List<byte[]> kept = new List<byte[]>();

    static string Handle(string line) {
        int sp = line.IndexOf(' ');
        string cmd = sp < 0 ? line : line.Substring(0, sp), arg = sp < 0 ? "" : line.Substring(sp + 1);
        switch (cmd) {
            case "echo":
                return line;
            case "alloc": {
                int n = int.Parse(arg);
                for (int i = 0; i < n; i++) {
                    byte[] b = new byte[1 << 20];
                    for (int j = 0; j < b.Length; j += 4096) b[j] = 1;
                    kept.Add(b);
                }
                return "allocated " + n;
            }
            case "threads": {
                int n = int.Parse(arg), started = 0;
                string why = "";
                try {
                    for (; started < n; started++) {
                        Thread t = new Thread(() => Thread.Sleep(Timeout.Infinite));
                        t.IsBackground = true;
                        t.Start();
                    }
                } catch (Exception e) {
                    why = " " + e.GetType().Name + ": " + e.Message;
                }
                return "threads " + started + why;
            }
            case "spawn":
                try {
                    Process p = Process.Start("/bot/bot.exe");
                    p.WaitForExit();
                    return "spawn " + p.ExitCode;
                } catch (Exception e) {
                    return "spawn " + e.GetType().Name + ": " + e.Message;
                }
            case "write":
                try {
                    File.Create(arg).Close();
                    return "write " + arg + " succeeded";
                } catch (Exception e) {
                    return "write " + e.GetType().Name + ": " + e.Message;
                }
            case "net":
                try {
                    using (UdpClient u = new UdpClient()) {
                        u.Connect("1.1.1.1", 53);
                    }
                    return "net connected";
                } catch (Exception e) {
                    return "net " + e.Message;
                }
            case "env": {
                List<string> names = new List<string>();
                foreach (DictionaryEntry kv in Environment.GetEnvironmentVariables()) names.Add((string)kv.Key);
                names.Sort(StringComparer.Ordinal);
                return "env " + string.Join(",", names);
            }
            default:
                return "unknown " + cmd;
        }
    }

    public static void Main() {
        string line;
        while ((line = Console.ReadLine()) != null) {
            Console.Out.Write(Handle(line) + "\n");
            Console.Out.Flush();
        }
    }
}
