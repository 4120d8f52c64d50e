// On The Run sample bot (Java). Reads the map from connect.txt, then plays the
// role named on its first input line.
// Fugitive: starts on the city farthest (fewest connections of any type) from
// the nearest detective; each turn takes the connection whose city is farthest
// from the detectives, never a detective's city unless every move is one.
// Detectives: start on the four cities with the most connections; they keep
// the set of cities where the fugitive can be (its announced city, widened
// each turn along connections of the type it used) and each detective steps to
// the neighbour nearest to that set, the four new cities made distinct by a
// small backtracking search. Exits on "Quit", at end of input, and after its
// 50th move. Deterministic. Kept lean (plain arrays, no lambdas, streams or
// string concatenation, which would load extra classes): the game allows 5 s
// CPU and 64 MiB in total.
import java.io.BufferedReader;
import java.io.FileReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
public class Bot
{
   static int n = 0;

   static int[] deg;        // deg[c]: number of connections of city c (1..n)

   static int[][] adjTo;    // adjTo[c][k]: the city at the other end of connection k of c

   static char[][] adjType; // adjType[c][k]: its type, C T or P

   static BufferedReader in =
         new BufferedReader(
               new InputStreamReader(System.in));

   static PrintStream out = System.out;
   // One trimmed line; exits (code 0) at end of file or on "Quit".
   static String readLineOrExit()
         throws IOException
   {
      String s = in.readLine();
      if (s == null)
         System.exit(0);
      s = s.trim();
      if (s.equals("Quit"))
         System.exit(0);
      return s;
   }
   // A dot on city c, one an answer (drawn by the viewer: docs/viewer.md, Drawing on the board).
   static void markCity(int c)
   {
      System.err.println("@judge dot "
            + c
            + " 0 layer=sample");
   }
   // The first integer in s (any non-digit before it is skipped), or -1.
   static int firstNumber(String s,
                          int from)
   {
      int i = from;
      while (i < s.length()
             && (s.charAt(i) < '0'
                 || s.charAt(i) > '9'))
         i++;
      if (i == s.length())
         return -1;
      int x = 0;
      while (i < s.length()
             && s.charAt(i) >= '0'
             && s.charAt(i) <= '9')
         x = x * 10
             + (s.charAt(i++) - '0');
      return x;
   }
   static void addLink(int a,
                       char type,
                       int b)
   {
      if (deg[a] == adjTo[a].length)
      {
         adjTo[a] = java.util.Arrays.copyOf(adjTo[a],
                                            deg[a] * 2 + 4);
         adjType[a] = java.util.Arrays.copyOf(adjType[a],
                                              deg[a] * 2 + 4);
      }
      adjTo[a][deg[a]] = b;
      adjType[a][deg[a]] = type;
      deg[a]++;
   }
   static void readMap()
         throws IOException
   {
      BufferedReader f =
            new BufferedReader(new FileReader("connect.txt"));
      String line;
      while (n <= 0
             && (line = f.readLine()) != null)
         n = firstNumber(line, 0);
      if (n < 0)
         n = 0;

      deg = new int[n + 1];
      adjTo = new int[n + 1][0];
      adjType = new char[n + 1][0];

      while ((line = f.readLine()) != null)
      {
         line = line.trim();
         if (line.equals("END"))
            break;
         if (line.isEmpty())
            continue;
         int a = firstNumber(line, 0);
         if (a < 0)
            continue;
         int dash = line.indexOf('-');
         int b = dash < 0
               ? -1
               : firstNumber(line, dash + 1);
         if (a < 1 || a > n
             || b < 1 || b > n
             || a == b)
            continue;
         addLink(a, line.charAt(0), b);
         addLink(b, line.charAt(0), a);
      }
      f.close();
   }
   // Breadth-first distances (connections of any type) from the cities marked in src.
   static int[] distances(boolean[] src)
   {
      int[] dist = new int[n + 1];
      int[] queue = new int[n + 1];
      int tail = 0;

      for (int c = 1; c <= n; c++)
      {
         dist[c] = 1 << 20;
         if (src[c])
         {
            dist[c] = 0;
            queue[tail++] = c;
         }
      }

      for (int q = 0; q < tail; q++)
      {
         int c = queue[q];
         for (int k = 0; k < deg[c]; k++)
         {
            int to = adjTo[c][k];
            if (dist[to] > dist[c] + 1)
            {
               dist[to] = dist[c] + 1;
               queue[tail++] = to;
            }
         }
      }

      return dist;
   }
   static int[] readFour()
         throws IOException
   {
      int[] det = new int[4];
      for (int i = 0; i < 4; i++)
         det[i] = firstNumber(readLineOrExit(), 0);
      return det;
   }
   static boolean[] detectiveMap(int[] det)
   {
      boolean[] m = new boolean[n + 1];
      for (int d : det)
         if (d >= 1 && d <= n)
            m[d] = true;
      return m;
   }
   static void playFugitive()
         throws IOException
   {
      int[] det = readFour();
      boolean[] isDet = detectiveMap(det);
      int[] dist = distances(isDet);
      int cur = 0;
      for (int c = 1; c <= n; c++)
         if (!isDet[c]
             && (cur == 0 || dist[c] > dist[cur]))
            cur = c;
      markCity(cur);
      out.print(new StringBuilder()
            .append(cur)
            .append('\n'));
      out.flush();
      for (int turn = 1; turn <= 50; turn++)
      {
         isDet = detectiveMap(det);
         dist = distances(isDet);

         int best = -1;
         for (int k = 0; k < deg[cur]; k++)
         {
            if (isDet[adjTo[cur][k]])
               continue;
            if (best < 0
                || dist[adjTo[cur][k]] > dist[adjTo[cur][best]])
               best = k;
         }
         if (best < 0)
            best = 0; // every move ends on a detective: caught anyway

         char type = adjType[cur][best];
         cur = adjTo[cur][best];
         markCity(cur);
         out.print(new StringBuilder()
               .append(type)
               .append(' ')
               .append(cur)
               .append('\n'));
         out.flush();

         if (turn == 50)
            break;
         det = readFour();
      }
   }
   // Gives detective i (and the following ones) a new city, trying the neighbours
   // in the order of choices[i]; false when no distinct assignment exists.
   static boolean assign(int i,
                         int[][] choices,
                         int[] target,
                         boolean[] used)
   {
      if (i == 4)
         return true;
      for (int c : choices[i])
      {
         if (used[c])
            continue;
         used[c] = true;
         target[i] = c;
         if (assign(i + 1, choices, target, used))
            return true;
         used[c] = false;
      }
      return false;
   }
   static void playDetectives()
         throws IOException
   {
      // Start on the four cities with the most connections (lowest number on ties).
      int[] det = new int[4];
      boolean[] taken = new boolean[n + 1];
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < 4; i++)
      {
         int best = 0;
         for (int c = 1; c <= n; c++)
            if (!taken[c]
                && (best == 0 || deg[c] > deg[best]))
               best = c;
         taken[best] = true;
         det[i] = best;
         sb.append(best)
           .append('\n');
      }
      markCity(det[0]);
      out.print(sb);
      out.flush();
      boolean[] cand = new boolean[n + 1]; // where the fugitive may be
      int start = firstNumber(readLineOrExit(), 0);
      if (start >= 1 && start <= n)
         cand[start] = true;
      for (int turn = 1; turn <= 50; turn++)
      {
         String line = readLineOrExit();
         char type = line.isEmpty()
               ? 'C'
               : line.charAt(0);
         int city = firstNumber(line, 0);
         boolean[] isDet = detectiveMap(det);
         boolean[] next = new boolean[n + 1];
         boolean any = false;

         if (city >= 1 && city <= n)
         { // announcement turn
            next[city] = true;
            any = true;
         }
         else
         {
            for (int c = 1; c <= n; c++)
            {
               if (!cand[c])
                  continue;
               for (int k = 0; k < deg[c]; k++)
                  if (adjType[c][k] == type
                      && !isDet[adjTo[c][k]])
                  {
                     next[adjTo[c][k]] = true;
                     any = true;
                  }
            }
         }

         if (!any) // lost track: the fugitive may be anywhere
            for (int c = 1; c <= n; c++)
               next[c] = !isDet[c];
         cand = next;
         // Each detective prefers the neighbours nearest to the possible cities.
         int[] dist = distances(cand);
         int[][] choices = new int[4][];
         for (int i = 0; i < 4; i++)
         {
            int[] ch = java.util.Arrays.copyOf(adjTo[det[i]],
                                               deg[det[i]]);
            for (int a = 1; a < ch.length; a++)
            { // stable insertion sort by distance
               int x = ch[a],
                   b = a - 1;
               while (b >= 0
                      && dist[ch[b]] > dist[x])
               {
                  ch[b + 1] = ch[b];
                  b--;
               }
               ch[b + 1] = x;
            }
            choices[i] = ch;
         }

         int[] target = new int[4];
         if (!assign(0, choices, target,
                     new boolean[n + 1]))
            for (int i = 0; i < 4; i++)
               target[i] = deg[det[i]] > 0
                     ? adjTo[det[i]][0]
                     : det[i];
         sb.setLength(0);
         for (int i = 0; i < 4; i++)
         {
            det[i] = target[i];
            cand[det[i]] = false;
            sb.append(det[i])
              .append('\n');
         }
         markCity(det[0]);
         out.print(sb);
         out.flush();
      }
   }
   public static void main(String[] args)
         throws IOException
   {
      readMap();
      if (readLineOrExit().equals("Fugitive"))
         playFugitive();
      else
         playDetectives();
   }
}
