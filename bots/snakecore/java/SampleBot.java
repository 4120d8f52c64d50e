// SnakeCore sample bot (Java), written with the judge's helper library: it extends Jbot and
// has no main method (the library's JbotRunner finds this class and plays it).
// Each move: deliver to an adjacent reactor once the body has 8 blocks; otherwise walk
// (breadth-first search over empty cells, free blocks and the own tail) toward the nearest
// free block, or toward a cell next to a reactor when the body is long enough or no free
// block is reachable; spends an energy block on protection whenever it carries one and is
// not protected while the body has 5 blocks or more. Deterministic; exits at the end of
// the input (JbotRunner's loop).
import java.util.ArrayDeque;

public class SampleBot extends Jbot {
    private static final int DELIVER_AT = 8;

    @Override
    public String getName() {
        return "sample-java";
    }

    @Override
    public char getAction(AreaInfo a) {
        AreaInfo.Python me = a.getMyPython();
        int body = me.getLength() - 1;
        int hx = me.getHeadX(), hy = me.getHeadY();
        // A dot on its head (drawn by the viewer: docs/viewer.md, Drawing on the board).
        System.err.println("@judge dot " + hx + " " + hy + " layer=sample");
        if (body >= DELIVER_AT) {
            for (char d : MOVES) {
                if (a.getCell(stepX(hx, d), stepY(hy, d)) == AreaInfo.REACTOR) return d;
            }
        }
        if (body >= 5 && me.getProtection() == 0) {
            for (int i = 1; i < me.getLength(); i++) {
                if (a.getCell(me.getX(i), me.getY(i)) == AreaInfo.ENERGY) return PROTECT;
            }
        }
        char d = toward(a, body >= DELIVER_AT);
        if (d == NONE && body > 0) {
            for (char r : MOVES) {
                if (a.getCell(stepX(hx, r), stepY(hy, r)) == AreaInfo.REACTOR) return r;
            }
            d = toward(a, true);
        }
        if (d != NONE) return d;
        for (char m : MOVES) {
            if (passable(a, stepX(hx, m), stepY(hy, m))) return m;
        }
        return NONE;
    }

    /** A cell the head may step on without a fight: empty, a free block, the own tail. */
    private static boolean passable(AreaInfo a, int x, int y) {
        if (a.isEmpty(x, y) || a.isFreeBlock(x, y)) return true;
        AreaInfo.Python me = a.getMyPython();
        return me.getLength() > 1 && x == me.getTailX() && y == me.getTailY();
    }

    private static boolean goal(AreaInfo a, int x, int y, boolean reactor) {
        if (!reactor) return a.isFreeBlock(x, y);
        for (char d : MOVES) {
            if (a.getCell(stepX(x, d), stepY(y, d)) == AreaInfo.REACTOR) return true;
        }
        return false;
    }

    /** The first move of a shortest path to a goal cell, or NONE. */
    private static char toward(AreaInfo a, boolean reactor) {
        int n = a.getSize();
        char[] first = new char[n * n];
        ArrayDeque<int[]> queue = new ArrayDeque<>();
        AreaInfo.Python me = a.getMyPython();
        int hx = me.getHeadX(), hy = me.getHeadY();
        for (char d : MOVES) {
            int x = stepX(hx, d), y = stepY(hy, d);
            if (!passable(a, x, y) || first[y * n + x] != 0) continue;
            if (goal(a, x, y, reactor)) return d;
            first[y * n + x] = d;
            queue.add(new int[] {x, y});
        }
        while (!queue.isEmpty()) {
            int[] c = queue.poll();
            char via = first[c[1] * n + c[0]];
            for (char d : MOVES) {
                int x = stepX(c[0], d), y = stepY(c[1], d);
                if (!passable(a, x, y) || first[y * n + x] != 0 || (x == hx && y == hy)) continue;
                if (goal(a, x, y, reactor)) return via;
                first[y * n + x] = via;
                queue.add(new int[] {x, y});
            }
        }
        return NONE;
    }
}
