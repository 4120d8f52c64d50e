import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * AreaInfo - one getAction request of SnakeCore: the field and the pythons (the SnakeCore
 * helper library). Coordinates are x (column) and y (row), from 0 at the top left.
 */
public final class AreaInfo {
    /** Characters of the field. */
    public static final char WALL = 'W', REACTOR = 'R', EMPTY = '.', HEAD = 'p';
    /** A block, free or in a body: ordinary or energy. */
    public static final char BLOCK = 'b', ENERGY = 'e';

    /** A python: part 0 is the head, the last part the tail; never empty. */
    public static final class Python {
        private final int protection;
        private final int[] xs, ys;

        Python(int protection, int[] xs, int[] ys) {
            this.protection = protection;
            this.xs = xs;
            this.ys = ys;
        }

        /** Own moves of protection left (0: not protected). */
        public int getProtection() { return protection; }
        /** The length, head included. */
        public int getLength() { return xs.length; }
        /** The x of part i (0 is the head). */
        public int getX(int i) { return xs[i]; }
        /** The y of part i (0 is the head). */
        public int getY(int i) { return ys[i]; }
        public int getHeadX() { return xs[0]; }
        public int getHeadY() { return ys[0]; }
        public int getTailX() { return xs[xs.length - 1]; }
        public int getTailY() { return ys[ys.length - 1]; }
    }

    private final int size, turn;
    private final String[] rows;
    private final Python[] pythons;
    private final int[] owner, index;

    private AreaInfo(int size, int turn, String[] rows, Python[] pythons, int[] owner, int[] index) {
        this.size = size;
        this.turn = turn;
        this.rows = rows;
        this.pythons = pythons;
        this.owner = owner;
        this.index = index;
    }

    /** The side of the square field. */
    public int getSize() { return size; }
    /** getAction requests read so far, 1 for the first. */
    public int getTurn() { return turn; }
    public boolean isInside(int x, int y) { return x >= 0 && y >= 0 && x < size && y < size; }
    /** The character of (x, y); off the field a WALL. */
    public char getCell(int x, int y) { return isInside(x, y) ? rows[y].charAt(x) : WALL; }
    /** Row y of the field. */
    public String getRow(int y) { return rows[y]; }

    /** The number of pythons (players). */
    public int getPythonCount() { return pythons.length; }
    /** Python i: 0 is the bot's own, the others follow in the order of the players' ids. */
    public Python getPython(int i) { return pythons[i]; }
    public Python getMyPython() { return pythons[0]; }

    /** The index of the python with a part on (x, y), or -1. */
    public int getOwner(int x, int y) { return isInside(x, y) ? owner[y * size + x] : -1; }
    /** The index of that part in its python (0 for a head), or -1. */
    public int getPartIndex(int x, int y) { return isInside(x, y) ? index[y * size + x] : -1; }
    /** A block on (x, y) that belongs to no python. */
    public boolean isFreeBlock(int x, int y) {
        char c = getCell(x, y);
        return (c == BLOCK || c == ENERGY) && getOwner(x, y) < 0;
    }
    public boolean isEmpty(int x, int y) { return isInside(x, y) && getCell(x, y) == EMPTY; }

    /**
     * Reads the rest of a getAction request (after its first line). The number of python
     * lines is the number of heads on the field. Returns null at the end of the input;
     * throws IOException on a malformed request.
     */
    public static AreaInfo read(BufferedReader in, int turn) throws IOException {
        String line = in.readLine();
        if (line == null) return null;
        int n;
        try {
            n = Integer.parseInt(line.trim());
        } catch (NumberFormatException e) {
            throw new IOException("not a field size: " + line);
        }
        if (n <= 0) throw new IOException("not a field size: " + line);
        String[] rows = new String[n];
        int heads = 0;
        for (int y = 0; y < n; y++) {
            String r = in.readLine();
            if (r == null) return null;
            StringBuilder sb = new StringBuilder(r);
            while (sb.length() < n) sb.append(EMPTY);
            sb.setLength(n);
            rows[y] = sb.toString();
            for (int x = 0; x < n; x++) if (rows[y].charAt(x) == HEAD) heads++;
        }
        int[] owner = new int[n * n], index = new int[n * n];
        Arrays.fill(owner, -1);
        Arrays.fill(index, -1);
        List<Python> pythons = new ArrayList<>();
        for (int k = 0; k < heads; k++) {
            line = in.readLine();
            if (line == null) return null;
            String[] f = line.trim().split("\\s+");
            try {
                int prot = Integer.parseInt(f[0]);
                int len = Integer.parseInt(f[1]);
                if (len < 1 || f.length != 2 + 2 * len) throw new IOException("bad python line: " + line);
                int[] xs = new int[len], ys = new int[len];
                for (int i = 0; i < len; i++) {
                    xs[i] = Integer.parseInt(f[2 + 2 * i]);
                    ys[i] = Integer.parseInt(f[3 + 2 * i]);
                    if (xs[i] >= 0 && ys[i] >= 0 && xs[i] < n && ys[i] < n) {
                        owner[ys[i] * n + xs[i]] = k;
                        index[ys[i] * n + xs[i]] = i;
                    }
                }
                pythons.add(new Python(prot, xs, ys));
            } catch (RuntimeException e) {
                throw new IOException("bad python line: " + line);
            }
        }
        if (heads == 0) throw new IOException("no python on the field");
        return new AreaInfo(n, turn, rows, pythons.toArray(new Python[0]), owner, index);
    }
}
