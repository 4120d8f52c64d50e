// No subclass of Jbot at all: JbotRunner has nothing to play.
public class Helper {
    static int twice(int x) { return 2 * x; }
}
