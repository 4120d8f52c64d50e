# The referee of Higher (rules.md), a test game of the referee protocol (docs/referee.md).
import json
import sys


def send(o):
    sys.stdout.write(json.dumps(o) + "\n")
    sys.stdout.flush()


class Game:
    def __init__(self, m):
        self.opts = dict(m["options"])
        self.n = m["players"]
        self.turns = int(self.opts["turns"])
        self.turn = 1
        self.asked = -1  # the player whose answer is awaited
        self.scores = [0] * self.n
        self.out = [False] * self.n
        self.picks = {}

    def view(self):
        return {"scores": self.scores, "state": {"turn": self.turn, "picks": self.picks}}

    def next(self):
        while True:
            p = self.asked + 1
            while p < self.n and self.out[p]:
                p += 1
            if p < self.n:
                self.asked = p
                return {"next": [{"player": p, "turn": self.turn, "send": "TURN %d\n" % self.turn,
                                  "expect": 1, "limit_us": 1000000}]}
            if self.picks:
                best = max(self.picks.values())
                for q, v in self.picks.items():
                    if v == best:
                        self.scores[int(q)] += 1
            self.picks = {}
            self.turn += 1
            self.asked = -1
            if self.turn > self.turns or all(self.out):
                return {"next": [], "done": {"scores": self.scores}}

    def reply(self, m):
        p = m["player"]
        if m["fault"] is not None:
            self.out[p] = True
            return None
        line = m["lines"][0].strip()
        if line not in [str(d) for d in range(1, 10)]:
            self.out[p] = True
            return {"kind": "illegal_move", "detail": "%r is not a number from 1 to 9" % line}
        self.picks[str(p)] = int(line)
        return None


def main():
    g = None
    for line in sys.stdin:
        m = json.loads(line)
        if m["type"] == "start":
            g = Game(m)
            a = {"type": "setup", "options": g.opts, "memory": int(g.opts["memory"]) << 20, "view": g.view()}
        else:
            a = {"type": "judged", "fault": g.reply(m), "view": g.view()}
        a.update(g.next())
        send(a)


main()
