# The referee of {{.Title}} (rules.md): the judge writes one line of JSON to its stdin, and it
# answers one line on its stdout, as docs/referee.md says. Its stderr is for you: the judge
# keeps the end of it when the referee fails.
import json
import sys


class Match:
    def __init__(self, start):
        self.options = start["options"]  # every option, the defaults applied, as strings
        self.seed = start["seed"]
        self.n = start["players"]
        self.turns = int(self.options["turns"])
        self.turn = 1
        self.asked = -1  # the player whose answer is awaited this turn
        self.scores = [0] * self.n
        self.out = [False] * self.n
        self.picks = {}

    def bonus(self):
        # Every random choice comes from the seed: the same seed and answers give the same
        # match, which is how the judge re-judges a replay.
        return (self.seed % 9 + self.turn) % 9 + 1

    def view(self):
        return {"scores": self.scores, "state": {"turn": self.turn}}

    def next(self):
        """What comes next: the request to the next player of the turn, or the end."""
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
                    self.scores[q] += (v == best) + (v == self.bonus())
            self.picks = {}
            self.turn += 1
            self.asked = -1
            if self.turn > self.turns or all(self.out):
                return {"next": [], "done": {"scores": self.scores}}

    def reply(self, m):
        """The verdict on a player's answer: None, or the rule it broke."""
        p = m["player"]
        if m["fault"] is not None:  # a timeout or a crash the judge saw: the player is out
            self.out[p] = True
            return None
        line = m["lines"][0].strip(" \t\r")
        if line not in [str(d) for d in range(1, 10)]:
            self.out[p] = True
            return {"kind": "illegal_move", "detail": "not a number from 1 to 9"}
        self.picks[p] = int(line)
        return None


def main():
    match = None
    for line in sys.stdin:
        m = json.loads(line)
        if m["type"] == "start":
            match = Match(m)
            answer = {"type": "setup", "options": match.options, "memory": int(match.options["memory"]) << 20}
        else:
            answer = {"type": "judged", "fault": match.reply(m)}
        answer.update(match.next())
        answer["view"] = match.view()  # the picture once the answer is judged
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


main()
