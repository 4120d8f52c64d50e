/**
 * Jbot - the base class of a SnakeCore bot in Java (the SnakeCore helper library).
 *
 * A submission is one class extending Jbot, in the default package (no package line: Jbot
 * itself is in the default package), with a no-argument constructor (the default one will
 * do) and NO main method; it may have other classes of its own:
 *
 *     public class MyBot extends Jbot {
 *         public String getName() { return "my bot"; }
 *         public char getAction(AreaInfo area) { return NONE; }
 *     }
 *
 * The judge adds Jbot, AreaInfo and JbotRunner to the submission; JbotRunner's main finds
 * the one concrete subclass of Jbot in the program and plays it: it answers getName with
 * getName() (cut to the 32 bytes the page allows, control characters made spaces) and
 * each getAction with getAction(area), flushing every answer, and exits at the end of the
 * input.
 *
 * Coordinates are x (column) and y (row), from 0 at the top left; UP is y-1.
 */
public abstract class Jbot {
    /** Actions a bot may answer. */
    public static final char UP = 'U', LEFT = 'L', DOWN = 'D', RIGHT = 'R';
    /** Skip the move. */
    public static final char NONE = 'N';
    /** Spend an energy block for 10 moves of protection. */
    public static final char PROTECT = 'A';
    /** The four moving actions. */
    public static final char[] MOVES = {UP, LEFT, DOWN, RIGHT};

    /** The player's name: at most 32 bytes. */
    public abstract String getName();

    /** The action for one getAction request: one of U L D R N A. */
    public abstract char getAction(AreaInfo area);

    /** The x of the cell next to column x in the direction of a move action. */
    public static int stepX(int x, char action) {
        return action == LEFT ? x - 1 : action == RIGHT ? x + 1 : x;
    }

    /** The y of the cell next to row y in the direction of a move action. */
    public static int stepY(int y, char action) {
        return action == UP ? y - 1 : action == DOWN ? y + 1 : y;
    }
}
