// One top-level bot (package-private, with a private constructor) beside an abstract base
// and a nested static subclass: JbotRunner picks the top-level concrete class.
abstract class Base extends Jbot {
    public char getAction(AreaInfo a) { return UP; }
}

class Nested extends Base {
    private Nested() {}

    public String getName() { return "nested"; }

    static class Inner extends Base {
        public String getName() { return "inner"; }
    }
}
