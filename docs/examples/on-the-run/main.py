# On The Run (CodeCup 2007), its rules as the judge's built-in game enforces them
# (docs/games/ontherun.md), written as a referee program (docs/referee.md): the judge writes one
# line of JSON, the referee answers one. players[0] is the Fugitive, players[1] the Detectives.
#
# A map given as the option map is read and checked for what the page promises (all but the
# planarity of each transport, which this example trusts the organiser's map for); with none,
# one is made from the seed by this referee's own, simple generator (a ring of roads, a ring of
# railways over every fourth city, flights from one city), not the built-in game's.
import json
import re
import sys

DETECTIVES, TURNS_PER_ROUND, ROUNDS = 4, 5, 10
TURNS = ROUNDS * TURNS_PER_ROUND
TOTAL, CATCH = 20, 10
FUGITIVE, DETS = 0, 1
SPACE = " \t\r\n\v\f"  # the ASCII whitespace around and between the fields of an answer


class Refused(Exception):
    """Options the referee refuses: the match is not played."""


def duration_ns(s):
    """A duration as the judge writes one ("5s", "1m30s", "100ms"), in nanoseconds."""
    units = {"ns": 1, "us": 1000, "µs": 1000, "ms": 10**6, "s": 10**9, "m": 60 * 10**9, "h": 3600 * 10**9}
    total, pos = 0, 0
    for m in re.finditer(r"([0-9]+)(?:\.([0-9]+))?(ns|us|µs|ms|s|m|h)", s):
        if m.start() != pos:
            raise Refused("option time: %r is not a duration" % s)
        whole, frac, unit = m.group(1), m.group(2) or "", units[m.group(3)]
        total += int(whole) * unit + (int(frac) * unit // 10 ** len(frac) if frac else 0)
        pos = m.end()
    if pos != len(s) or not s:
        raise Refused("option time: %r is not a duration" % s)
    return total


def parse_map(text):
    """The cities and connections of a map in connect.txt format, checked."""
    lines = [l.strip() for l in text.split("\n")]
    lines = [l for l in lines if l]
    if not lines:
        raise Refused("option map: the map is empty")
    if not re.fullmatch(r"[+-]?[0-9]+", lines[0]):
        raise Refused("option map: %r is not a number of cities" % lines[0][:40])
    n = int(lines[0])
    conns = []
    for l in lines[1:]:
        if l == "END":
            return check_map(n, conns)
        m = re.fullmatch(r"(\S+)[ \t\r\n\v\f]+([+-]?[0-9]+)-([+-]?[0-9]+)", l)
        if not m:
            raise Refused("option map: %r is not a connection like \"C 1-2\"" % l[:40])
        if m.group(1) not in ("C", "T", "P"):
            raise Refused("option map: %r: the type is one of C, T, P" % l[:40])
        conns.append((m.group(1), int(m.group(2)), int(m.group(3))))
    raise Refused("option map: no END line")


def check_map(n, conns):
    if n < DETECTIVES + 1 or n > 200:
        raise Refused("option map: %d cities: a map has 5..200" % n)
    seen, has, car = set(), {k: set() for k in "CTP"}, {c: [] for c in range(1, n + 1)}
    for kind, a, b in conns:
        name = "%s %d-%d" % (kind, a, b)
        if not (1 <= a <= n and 1 <= b <= n):
            raise Refused("option map: connection %s: cities are labelled 1..%d" % (name, n))
        if a == b:
            raise Refused("option map: connection %s connects a city to itself" % name)
        key = (kind, min(a, b), max(a, b))
        if key in seen:
            raise Refused("option map: connection %s is listed twice" % name)
        seen.add(key)
        has[kind] |= {a, b}
        if kind == "C":
            car[a].append(b)
            car[b].append(a)
    for c in range(1, n + 1):
        if len(car[c]) < 2:
            raise Refused("option map: city %d has %d car connections, at least 2 needed" % (c, len(car[c])))
        if c in has["T"] and c not in has["C"]:
            raise Refused("option map: city %d has a train connection but no car connection" % c)
        if c in has["P"] and c not in has["T"]:
            raise Refused("option map: city %d has a plane connection but no train connection" % c)
    reached, queue = {1}, [1]
    while queue:
        for d in car[queue.pop()]:
            if d not in reached:
                reached.add(d)
                queue.append(d)
    if len(reached) != n:
        raise Refused("option map: city %d cannot be reached from city 1 by car" % min(set(range(1, n + 1)) - reached))
    return n, conns


def generate_map(seed, n):
    """This referee's own map of n cities, its labels shuffled by the seed."""
    order = list(range(1, n + 1))
    x = seed or 1
    for i in range(n - 1, 0, -1):  # Fisher-Yates with xorshift64: all randomness from the seed
        x ^= (x << 13) & 0xFFFFFFFFFFFFFFFF
        x ^= x >> 7
        x ^= (x << 17) & 0xFFFFFFFFFFFFFFFF
        j = x % (i + 1)
        order[i], order[j] = order[j], order[i]
    conns = [("C", order[i], order[(i + 1) % n]) for i in range(n)]
    stations = order[::4]
    if len(stations) >= 3:
        conns += [("T", stations[i], stations[(i + 1) % len(stations)]) for i in range(len(stations))]
        conns += [("P", stations[0], s) for s in stations[5::5]]
    return check_map(n, conns)


def clip(s):
    """s cut to 40 bytes, as the built-in game quotes a hostile line (its bytes, maybe cut
    inside a character)."""
    b = s.encode()
    return b if len(b) <= 40 else b[:40] + b"..."


def runes(b):
    """The characters of b as Go ranges over them: each byte that is not UTF-8 alone."""
    i = 0
    while i < len(b):
        n = 1 if b[i] < 0x80 else 2 if b[i] >> 5 == 6 else 3 if b[i] >> 4 == 14 else 4 if b[i] >> 3 == 30 else 0
        try:
            c = b[i:i + n].decode() if n else None
        except UnicodeDecodeError:
            c = None
        if c is None or len(c) != 1:
            yield None, b[i]
            i += 1
        else:
            yield c, None
            i += n


def text(b):
    """b as the built-in game's %s writes it into a fault's detail: bytes that are not UTF-8
    each a U+FFFD, as the replay records a detail."""
    return "".join(c if c is not None else "\ufffd" for c, _ in runes(b))


def quote(b):
    """b as Go's %q quotes it (strconv.Quote): the fault details must be the built-in's."""
    out = []
    for c, bad in runes(b):
        if c is None:
            out.append("\\x%02x" % bad)
        elif c in "\"\\":
            out.append("\\" + c)
        elif c in "\a\b\f\n\r\t\v":
            out.append("\\" + "abfnrtv"["\a\b\f\n\r\t\v".index(c)])
        elif c.isprintable():
            out.append(c)
        elif ord(c) < 0x80:
            out.append("\\x%02x" % ord(c))
        elif ord(c) < 0x10000:
            out.append("\\u%04x" % ord(c))
        else:
            out.append("\\U%08x" % ord(c))
    return '"' + "".join(out) + '"'


def read_int(s):
    """A number as the judge's games read one: an optional sign and ASCII digits, or None."""
    return int(s) if re.fullmatch(r"[+-]?[0-9]+", s) else None


class Match:
    def __init__(self, start):
        opts = start["options"]
        self.options = opts
        if start["players"] != 2:
            raise Refused("On The Run takes 2 players")
        self.budget = duration_ns(opts["time"])
        if opts.get("map", ""):
            text = opts["map"]
            self.n, self.conns = parse_map(text)
        else:
            self.n, self.conns = generate_map(start["seed"], int(opts["cities"]))
        self.link = {k: set() for k in "CTP"}
        for kind, a, b in self.conns:
            self.link[kind] |= {(a, b), (b, a)}
        self.cpu = [0, 0]
        self.turn = 0
        self.phase = "det_start"
        self.fugitive, self.dets = 0, [0] * DETECTIVES
        self.scores, self.caught, self.over = [0, 0], False, False
        self.queue = []
        self.notice(FUGITIVE, "Fugitive\n")
        self.ask(DETS, "Detectives\n", DETECTIVES)

    def connect_txt(self):
        return "%d\n" % self.n + "".join("%s %d-%d\n" % c for c in self.conns) + "END\n"

    def world(self):
        return {"cities": self.n, "connections": [{"type": k, "a": a, "b": b} for k, a, b in self.conns]}

    def view(self):
        return {"scores": self.scores, "state": {"turn": self.turn, "f": self.fugitive, "d": self.dets}}

    # The requests: a notice, or a request for lines; each with the player's remaining budget
    # (whole microseconds, at least one for a request that waits).
    def notice(self, player, send):
        self.ask(player, send, 0)

    def ask(self, player, send, expect):
        self.queue.append({"player": player, "turn": self.turn, "send": send, "expect": expect})

    def next(self):
        out = []
        for r in self.queue:
            left = max(self.budget - self.cpu[r["player"]], 1) // 1000
            r["limit_us"] = left if r["expect"] == 0 else max(left, 1)
            out.append(r)
        self.queue = []
        if out and out[-1]["expect"] > 0:
            return {"next": out}
        done = {"scores": self.scores}
        if self.caught:
            done["ranks"] = [2, 1]
        return {"next": out, "done": done}

    def fault(self, kind, detail):
        return {"kind": kind, "detail": detail}

    def reply(self, m):
        player = m["player"]
        self.cpu[player] += max(m["cpu_us"], 0) * 1000
        if m["fault"] is not None:
            if not self.over:
                self.forfeit(player)
            return None
        f = self.judge(m["lines"])
        if f is not None:
            self.forfeit(player)
        return f

    def judge(self, lines):
        if self.phase == "det_start":
            return self.detectives_start(lines)
        if self.phase == "fug_start":
            return self.fugitive_start(lines[0])
        if self.phase == "fug_move":
            return self.fugitive_move(lines[0])
        return self.detectives_move(lines)

    def read_city(self, line, what):
        s = line.strip(SPACE)
        c = read_int(s)
        if c is None:
            return None, self.fault("protocol", "%s: %s is not a city number" % (what, quote(clip(s))))
        if not 1 <= c <= self.n:
            return None, self.fault("illegal_move", "%s: %s is not a city (1..%d)" % (what, text(clip(s)), self.n))
        return c, None

    def detective_in(self, c):
        return self.dets.index(c) if c in self.dets else -1

    def detective_lines(self):
        return "".join("%d\n" % d for d in self.dets)

    def detectives_start(self, lines):
        for k, l in enumerate(lines):
            c, f = self.read_city(l, "detective %d" % (k + 1))
            if f:
                return f
            if c in self.dets[:k]:
                return self.fault("illegal_move", "detectives %d and %d both start in city %d" % (self.dets.index(c) + 1, k + 1, c))
            self.dets[k] = c
        self.phase = "fug_start"
        self.ask(FUGITIVE, self.detective_lines(), 1)

    def fugitive_start(self, line):
        c, f = self.read_city(line, "start city")
        if f:
            return f
        if self.detective_in(c) >= 0:
            return self.fault("illegal_move", "start city %d is detective %d's" % (c, self.detective_in(c) + 1))
        self.fugitive = c
        self.notice(DETS, "%d\n" % c)
        self.phase, self.turn = "fug_move", 1
        self.ask(FUGITIVE, "", 1)

    def fugitive_move(self, line):
        fields = [f for f in re.split("[" + SPACE + "]+", line) if f]
        if len(fields) != 2 or len(fields[0].encode()) != 1:
            return self.fault("protocol", "%s is not a move like \"C 12\"" % quote(clip(line)))
        kind = fields[0]
        if kind not in ("C", "T", "P"):
            return self.fault("illegal_move", "%s: the transport is one of C, T, P" % quote(clip(line)))
        c, f = self.read_city(fields[1], "destination")
        if f:
            return f
        if c == self.fugitive:
            return self.fault("illegal_move", "the fugitive must move, not stay in city %d" % c)
        if (self.fugitive, c) not in self.link[kind]:
            return self.fault("illegal_move", "no %s connection from city %d to city %d" % (kind, self.fugitive, c))
        self.fugitive = c
        if self.detective_in(c) >= 0:
            # The Detectives were not told this turn's city: an announcement now is unused.
            return self.arrest((self.turn - 1) // TURNS_PER_ROUND)
        told = kind
        if self.turn % TURNS_PER_ROUND == 0:
            told = "%s %d" % (kind, c)
        self.phase = "det_move"
        self.ask(DETS, told + "\n", DETECTIVES)

    def detectives_move(self, lines):
        nxt = []
        for k, l in enumerate(lines):
            what = "detective %d" % (k + 1)
            c, f = self.read_city(l, what)
            if f:
                return f
            frm = self.dets[k]
            if c == frm:
                return self.fault("illegal_move", "%s must move, not stay in city %d" % (what, c))
            if not any((frm, c) in self.link[t] for t in "CTP"):
                return self.fault("illegal_move", "no connection from city %d to city %d for %s" % (frm, c, what))
            if c in nxt:
                return self.fault("illegal_move", "detectives %d and %d both move to city %d" % (nxt.index(c) + 1, k + 1, c))
            nxt.append(c)
        self.dets = nxt
        if self.detective_in(self.fugitive) >= 0:
            return self.arrest(self.turn // TURNS_PER_ROUND)
        if self.turn == TURNS:
            self.end(TOTAL)  # the fugitive escaped; both stop by themselves, without Quit
            return None
        self.phase, self.turn = "fug_move", self.turn + 1
        self.ask(FUGITIVE, self.detective_lines(), 1)

    def arrest(self, told):
        """The Detectives win: 10 points and each announcement they had not heard."""
        self.end(TOTAL - (CATCH + ROUNDS - told))
        self.caught = True
        self.notice(FUGITIVE, "Quit\n")
        self.notice(DETS, "Quit\n")

    def forfeit(self, player):
        """An irregular loss of the player at fault: 20-0, both told Quit, the offender first."""
        self.end(TOTAL if player == DETS else 0)
        self.queue = []
        self.notice(player, "Quit\n")
        self.notice(1 - player, "Quit\n")

    def end(self, fugitive_points):
        self.over, self.phase = True, "over"
        self.scores = [fugitive_points, TOTAL - fugitive_points]


def main():
    match = None
    for line in sys.stdin:
        m = json.loads(line)
        if m["type"] == "start":
            try:
                match = Match(m)
            except Refused as e:
                answer = {"type": "error", "problems": [str(e)]}
                sys.stdout.write(json.dumps(answer) + "\n")
                sys.stdout.flush()
                continue
            connect = match.connect_txt()
            answer = {"type": "setup", "options": match.options, "memory": int(match.options["memory"]) << 20,
                      "files": [{"connect.txt": connect}, {"connect.txt": connect}], "world": match.world()}
        else:
            answer = {"type": "judged", "fault": match.reply(m)}
        answer.update(match.next())
        answer["view"] = match.view()
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


main()
