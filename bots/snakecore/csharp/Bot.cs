// SnakeCore sample bot (C#), written with the judge's helper library (Snake.cs, namespace
// SnakeCore, which the judge adds to the submission).
// Each move: bite an adjacent unprotected body block of another python when that cuts off
// at least 2 blocks; deliver to an adjacent reactor once the body has 7 blocks; otherwise
// walk (breadth-first search over empty cells, free blocks and the own tail) toward the
// nearest free block, or toward a cell next to a reactor when the body is long enough or no
// free block is reachable. Deterministic; exits at the end of the input (Snake.Run).
using System;
using System.Collections.Generic;
using SnakeCore;

public static class SampleBot
{
    const int DeliverAt = 7;

    public static void Main()
    {
        try
        {
            Snake.Run("sample-csharp", Action);
        }
        catch (FormatException e)
        {
            // A malformed request: say so (one line) and stop.
            Console.Error.WriteLine(e.Message);
            Environment.Exit(1);
        }
    }

    static char Action(AreaInfo a)
    {
        Python me = a.Me;
        int body = me.Length - 1;
        Point h = me.Head;
        // A dot on its head (drawn by the viewer: docs/viewer.md, Drawing on the board).
        Console.Error.WriteLine($"@judge dot {h.X} {h.Y} layer=sample");
        foreach (char d in Snake.Moves)
        {
            Point t = h.Step(d);
            int o = a.Owner(t.X, t.Y), i = a.PartIndex(t.X, t.Y);
            if (o > 0 && i > 0 && a.Pythons[o].Protection == 0 && i < a.Pythons[o].Length - 1 &&
                a.Pythons[o].Length - i >= 2)
                return d;
        }
        if (body >= DeliverAt)
        {
            char d = NextReactor(a, h);
            if (d != Snake.None) return d;
        }
        Func<AreaInfo, Point, bool> goal = FreeBlock;
        if (body >= DeliverAt) goal = NextToReactor;
        char go = Toward(a, goal);
        if (go != Snake.None) return go;
        if (body > 0)
        {
            go = NextReactor(a, h);
            if (go != Snake.None) return go;
            go = Toward(a, NextToReactor);
            if (go != Snake.None) return go;
        }
        foreach (char d in Snake.Moves)
            if (Passable(a, h.Step(d))) return d;
        return Snake.None;
    }

    // The move toward a reactor next to p, or None.
    static char NextReactor(AreaInfo a, Point p)
    {
        foreach (char d in Snake.Moves)
            if (a.At(p.Step(d)) == Snake.Reactor) return d;
        return Snake.None;
    }

    // A cell the head may step on without a fight: empty, a free block, the own tail.
    static bool Passable(AreaInfo a, Point p)
    {
        if (a.IsEmpty(p.X, p.Y) || a.IsFreeBlock(p.X, p.Y)) return true;
        Python me = a.Me;
        return me.Length > 1 && p == me.Tail;
    }

    static bool FreeBlock(AreaInfo a, Point p) { return a.IsFreeBlock(p.X, p.Y); }

    static bool NextToReactor(AreaInfo a, Point p) { return NextReactor(a, p) != Snake.None; }

    // The first move of a shortest path to a goal cell, or None.
    static char Toward(AreaInfo a, Func<AreaInfo, Point, bool> goal)
    {
        int n = a.Size;
        char[] first = new char[n * n]; // the first move toward each cell reached, '\0': not reached
        Queue<Point> queue = new Queue<Point>();
        Point h = a.Me.Head;
        foreach (char d in Snake.Moves)
        {
            Point t = h.Step(d);
            if (!Passable(a, t)) continue;
            if (goal(a, t)) return d;
            if (first[t.Y * n + t.X] == '\0')
            {
                first[t.Y * n + t.X] = d;
                queue.Enqueue(t);
            }
        }
        while (queue.Count > 0)
        {
            Point c = queue.Dequeue();
            foreach (char d in Snake.Moves)
            {
                Point t = c.Step(d);
                if (t == h || !Passable(a, t) || first[t.Y * n + t.X] != '\0') continue;
                if (goal(a, t)) return first[c.Y * n + c.X];
                first[t.Y * n + t.X] = first[c.Y * n + c.X];
                queue.Enqueue(t);
            }
        }
        return Snake.None;
    }
}
