// Two concrete subclasses of Jbot: JbotRunner must refuse to guess.
public class Two extends Jbot {
    public String getName() { return "one"; }
    public char getAction(AreaInfo a) { return NONE; }
}

class Other extends Jbot {
    public String getName() { return "other"; }
    public char getAction(AreaInfo a) { return NONE; }
}
