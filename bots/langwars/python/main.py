# Lang Wars sample bot (Python): propagates the languages with the best attention
# to competition ratio.
# It prints READY, reads the settings (turns, players, languages, attention
# degrees), then each turn reads the revealed believers, its own real
# believers and (on workdays) how often each language was propagated in the
# last holiday. It estimates every opponent's believers as the revealed ones
# plus an equal share of the holiday propagations that were not its own. Then,
# pick by pick (5 on a workday, 2 on a holiday), it takes the language with the
# highest attention / (1 + |best opponent's believers - its own|): languages
# it can just win or just keep, weighted by what they are worth (ties: the
# lowest language). It prints the picks on one line, and exits at end of input
# or after the last turn. Deterministic.
import re
import sys


def words():
    """The whitespace-separated words of the input, read line by line as they are needed
    (never beyond the line that holds the word asked for)."""
    while True:
        line = sys.stdin.readline()
        if line == "":
            return
        yield from line.split()


def main():
    sys.stdout.write("READY\n")
    sys.stdout.flush()
    src = words()

    def token():
        """The next word; None at end of input."""
        return next(src, None)

    def number():
        """The next word as an integer; None at end of input or on a non-number."""
        s = token()
        if s is None or not re.fullmatch(r"[+-]?[0-9]+", s):
            return None
        return int(s)

    turns, players, langs = number(), number(), number()
    if turns is None or players is None or langs is None or players < 2 or langs < 1:
        return
    attention = []
    holiday_total = [0] * langs  # all players' holiday propagations so far
    for _ in range(langs):
        a = number()
        if a is None:
            return
        attention.append(float(a))
    for _t in range(turns):
        if number() is None:  # the turn number
            return
        day = token()
        if day is None:
            return
        revealed = []
        for _ in range(langs):
            row = []
            for _ in range(players):
                v = number()
                if v is None:
                    return
                row.append(v)
            revealed.append(row)
        real = []
        for _ in range(langs):
            v = number()
            if v is None:
                return
            real.append(v)
        workday = day == "W"
        if workday:
            for l in range(langs):
                p = number()
                if p is None:
                    return
                holiday_total[l] += p
        mine = [0.0] * langs
        best = [0.0] * langs
        for l in range(langs):
            # Holiday believers of the others: all holiday picks minus its own.
            hidden = float(holiday_total[l] - (real[l] - revealed[l][0]))
            if hidden < 0:
                hidden = 0.0
            mine[l] = float(real[l])
            for j in range(1, players):
                other = float(revealed[l][j]) + hidden / float(players - 1)
                if other > best[l]:
                    best[l] = other
        picks = 5 if workday else 2
        chosen = []
        for _ in range(picks):
            choice, top = 0, -1.0
            for l in range(langs):
                v = attention[l] / (1 + abs(best[l] - mine[l]))
                if v > top:
                    top, choice = v, l
            mine[choice] += 1
            chosen.append(str(choice))
        # A note of its picks (listed by the viewer: docs/viewer.md, Drawing on the board).
        print("@judge note layer=sample picked " + " ".join(chosen), file=sys.stderr, flush=True)
        sys.stdout.write(" ".join(chosen) + "\n")
        sys.stdout.flush()


main()
