// Test bot for the judge's bot-lifecycle tests (C# version).
//
// Before reading stdin it runs each line of ./start.txt, if that file exists, as a command
// ("burn 500" then "echo READY", say). Then it runs every stdin line as a command and exits
// with status 0 at end of input. Commands:
//   echo ...   print the whole line back        exit N     exit with status N
//   burn MS    burn MS ms of CPU, say "burned"  sleep MS   sleep MS ms, say "slept"
//   signal N   send signal N to itself (its default action restored first), then say "alive"
//   close      close stdout, then spin forever  hang       block forever
//   other      say "unknown"
// Answers are flushed at once; start.txt commands answer only "echo".
using System;
using System.Diagnostics;
using System.IO;
using System.Runtime.InteropServices;
using System.Threading;

public static class Bot {
    [DllImport("libc", SetLastError = true)] static extern int kill(int pid, int sig);
    [DllImport("libc")] static extern int getpid();
    [DllImport("libc")] static extern IntPtr signal(int sig, IntPtr handler);
    [DllImport("libc")] static extern int close(int fd);

    static void Say(string s) {
        Console.Out.Write(s + "\n");
        Console.Out.Flush();
    }

    static double CpuMs() {
        return Process.GetCurrentProcess().TotalProcessorTime.TotalMilliseconds;
    }

    static void Run(string line, bool fromStdin) {
        line = line.TrimEnd('\r');
        string[] f = line.Split(new[] { ' ', '\t' }, StringSplitOptions.RemoveEmptyEntries);
        string cmd = f.Length > 0 ? f[0] : "";
        int n = 0;
        if (f.Length > 1) int.TryParse(f[1], out n);
        switch (cmd) {
            case "echo":
                Say(line);
                break;
            case "exit":
                Console.Out.Flush();
                Environment.Exit(n);
                break;
            case "burn": {
                double end = CpuMs() + n;
                while (CpuMs() < end) { }
                if (fromStdin) Say("burned");
                break;
            }
            case "sleep":
                Thread.Sleep(n);
                if (fromStdin) Say("slept");
                break;
            case "signal":
                // The default action first: Mono handles SIGSEGV, SIGFPE and SIGABRT (and
                // reports a native crash on stdout).
                signal(n, IntPtr.Zero); // SIG_DFL
                kill(getpid(), n);
                Thread.Sleep(1000);
                Say("alive");
                break;
            case "close":
                close(1);
                for (;;) { }
            case "hang":
                for (;;) Thread.Sleep(3600000);
            default:
                Say("unknown");
                break;
        }
    }

    public static void Main() {
        if (File.Exists("start.txt")) {
            foreach (string l in File.ReadAllLines("start.txt")) Run(l, false);
        }
        string line;
        while ((line = Console.ReadLine()) != null) Run(line, true);
    }
}
