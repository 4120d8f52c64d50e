// The referee of {{.Title}} (rules.md): the judge writes one line of JSON to its stdin, and it
// answers one line on its stdout, as docs/referee.md says. Its stderr is for you: the judge
// keeps the end of it when the referee fails.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

public class Referee {
    // A small JSON reader, enough for the judge's lines: a value is a Map (object), a List
    // (array), a String, a Number's text (as a Raw), a Boolean's text, or null.
    record Raw(String text) {}

    static final class Reader {
        private final String s;
        private int i;

        Reader(String s) { this.s = s; }

        private char peek() {
            while (i < s.length() && " \t\r\n".indexOf(s.charAt(i)) >= 0) i++;
            return s.charAt(i);
        }

        private void expect(char c) {
            if (peek() != c) throw new IllegalArgumentException("expected " + c + " at " + i);
            i++;
        }

        private String str() {
            expect('"');
            StringBuilder out = new StringBuilder();
            for (char c = s.charAt(i++); c != '"'; c = s.charAt(i++)) {
                if (c != '\\') { out.append(c); continue; }
                c = s.charAt(i++);
                switch (c) {
                    case 'n' -> out.append('\n');
                    case 't' -> out.append('\t');
                    case 'r' -> out.append('\r');
                    case 'b' -> out.append('\b');
                    case 'f' -> out.append('\f');
                    case 'u' -> { out.append((char) Integer.parseInt(s.substring(i, i + 4), 16)); i += 4; }
                    default -> out.append(c); // \" \\ and \/
                }
            }
            return out.toString();
        }

        Object value() {
            char c = peek();
            if (c == '{') {
                i++;
                Map<String, Object> m = new TreeMap<>();
                if (peek() == '}') { i++; return m; }
                for (;;) {
                    String k = str();
                    expect(':');
                    m.put(k, value());
                    if (peek() == ',') { i++; continue; }
                    expect('}');
                    return m;
                }
            }
            if (c == '[') {
                i++;
                List<Object> l = new ArrayList<>();
                if (peek() == ']') { i++; return l; }
                for (;;) {
                    l.add(value());
                    if (peek() == ',') { i++; continue; }
                    expect(']');
                    return l;
                }
            }
            if (c == '"') return str();
            int start = i;
            while (i < s.length() && ",]} \t\r\n".indexOf(s.charAt(i)) < 0) i++;
            String t = s.substring(start, i);
            return t.equals("null") ? null : new Raw(t);
        }
    }

    // quote is s as a JSON string.
    static String quote(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') out.append('\\').append(c);
            else if (c == '\n') out.append("\\n");
            else if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
            else out.append(c);
        }
        return out.append('"').toString();
    }

    final Map<String, String> options = new TreeMap<>(); // every option, the defaults applied
    long seed; // unsigned
    int n, turns, turn = 1, asked = -1; // asked: the player whose answer is awaited this turn
    int[] scores;
    boolean[] out;
    final Map<Integer, Integer> picks = new TreeMap<>();

    // Every random choice comes from the seed: the same seed and answers give the same match,
    // which is how the judge re-judges a replay.
    int bonus() { return (int) ((Long.remainderUnsigned(seed, 9) + turn) % 9) + 1; }

    static String list(int[] v) {
        StringBuilder s = new StringBuilder("[");
        for (int k = 0; k < v.length; k++) s.append(k > 0 ? "," : "").append(v[k]);
        return s.append(']').toString();
    }

    String view() { return "{\"scores\":" + list(scores) + ",\"state\":{\"turn\":" + turn + "}}"; }

    // next is what comes next: the request to the next player of the turn, or the end.
    String next() {
        for (;;) {
            int p = asked + 1;
            while (p < n && out[p]) p++;
            if (p < n) {
                asked = p;
                return "\"next\":[{\"player\":" + p + ",\"turn\":" + turn + ",\"send\":\"TURN " + turn
                        + "\\n\",\"expect\":1,\"limit_us\":1000000}]";
            }
            int best = 0;
            for (int v : picks.values()) best = Math.max(best, v);
            for (Map.Entry<Integer, Integer> e : picks.entrySet()) {
                int v = e.getValue();
                scores[e.getKey()] += (v == best ? 1 : 0) + (v == bonus() ? 1 : 0);
            }
            picks.clear();
            turn++;
            asked = -1;
            boolean allOut = true;
            for (boolean o : out) allOut = allOut && o;
            if (turn > turns || allOut) return "\"next\":[],\"done\":{\"scores\":" + list(scores) + "}";
        }
    }

    // reply is the verdict on a player's answer: null, or the rule it broke.
    String reply(Map<?, ?> m) {
        int p = Integer.parseInt(((Raw) m.get("player")).text());
        if (m.get("fault") != null) { // a timeout or a crash the judge saw: the player is out
            out[p] = true;
            return "null";
        }
        String line = ((String) ((List<?>) m.get("lines")).get(0)).replaceAll("^[ \t\r]+|[ \t\r]+$", "");
        if (!line.matches("[1-9]")) {
            out[p] = true;
            return "{\"kind\":\"illegal_move\",\"detail\":\"not a number from 1 to 9\"}";
        }
        picks.put(p, line.charAt(0) - '0');
        return "null";
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream stdout = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        Referee match = null;
        for (String line; (line = in.readLine()) != null; ) {
            Map<?, ?> m = (Map<?, ?>) new Reader(line).value();
            String answer;
            if (m.get("type").equals("start")) {
                match = new Referee();
                StringBuilder opts = new StringBuilder();
                for (Map.Entry<?, ?> e : ((Map<?, ?>) m.get("options")).entrySet()) {
                    match.options.put((String) e.getKey(), (String) e.getValue());
                    opts.append(opts.length() > 0 ? "," : "").append(quote((String) e.getKey())).append(':').append(quote((String) e.getValue()));
                }
                match.seed = Long.parseUnsignedLong(((Raw) m.get("seed")).text());
                match.n = Integer.parseInt(((Raw) m.get("players")).text());
                match.turns = Integer.parseInt(match.options.get("turns"));
                match.scores = new int[match.n];
                match.out = new boolean[match.n];
                long memory = Long.parseLong(match.options.get("memory")) << 20;
                answer = "{\"type\":\"setup\",\"options\":{" + opts + "},\"memory\":" + memory;
            } else {
                answer = "{\"type\":\"judged\",\"fault\":" + match.reply(m);
            }
            answer += "," + match.next();
            answer += ",\"view\":" + match.view() + "}"; // the picture once the answer is judged
            stdout.print(answer + "\n");
            stdout.flush(); // the judge waits for the line
        }
    }
}
