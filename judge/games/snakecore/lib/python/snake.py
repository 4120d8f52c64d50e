"""snake - the SnakeCore helper library for Python bots.

The judge adds this file to every Python submission for SnakeCore as snake.py beside
main.py, so a bot just imports it:

    import snake

    def action(area):
        return snake.NONE

    snake.run("my bot", action)

run() answers getName with the name (cut to the 32 bytes the page allows, control
characters made spaces) and each getAction with what the function returns for that
request's AreaInfo, flushing every answer, and returns at the end of the input. A bot may
also read the requests itself with read_request(), or ignore this module altogether.

Coordinates are x (column) and y (row), from 0 at the top left; UP is y-1.

Standard library only; Python 3.8 and later.
"""

import collections
import sys

# The actions a bot may answer.
UP = "U"
LEFT = "L"
DOWN = "D"
RIGHT = "R"
NONE = "N"  # skip the move
PROTECT = "A"  # spend an energy block for 10 moves of protection

# The four moving actions.
MOVES = (UP, LEFT, DOWN, RIGHT)

# The characters of the field.
WALL = "W"
REACTOR = "R"
BLOCK = "b"  # an ordinary block, free or in a body
ENERGY = "e"  # an energy block, free or in a body
HEAD = "p"  # a python's head
EMPTY = "."


class Point(collections.namedtuple("Point", "x y")):
    """A cell: x the column, y the row. Points compare and hash by value, so they may be
    dictionary keys and set members."""

    __slots__ = ()

    def step(self, action):
        """The cell next to this one in the direction of a move action (this one for any
        other action)."""
        if action == UP:
            return Point(self.x, self.y - 1)
        if action == DOWN:
            return Point(self.x, self.y + 1)
        if action == LEFT:
            return Point(self.x - 1, self.y)
        if action == RIGHT:
            return Point(self.x + 1, self.y)
        return self

    def dist(self, q):
        """The Manhattan distance to q."""
        return abs(self.x - q.x) + abs(self.y - q.y)


class Python:
    """One python. parts[0] is the head, the last part the tail; a python is never empty."""

    __slots__ = ("protection", "parts")

    def __init__(self, protection, parts):
        # The number of the python's own moves its protection still lasts (0: unprotected).
        self.protection = protection
        # The head and the body's blocks (Points), from the head to the tail.
        self.parts = parts

    def length(self):
        """The python's length, head included."""
        return len(self.parts)

    def __len__(self):
        return len(self.parts)

    def head(self):
        """The head's cell."""
        return self.parts[0]

    def tail(self):
        """The last part's cell (the head's for a head alone)."""
        return self.parts[-1]

    def body(self):
        """The body's blocks: all parts but the head."""
        return self.parts[1:]

    def __repr__(self):
        return "Python(protection=%d, parts=%r)" % (self.protection, self.parts)


class FormatError(ValueError):
    """A request that is not in the page's format."""


class AreaInfo:
    """One getAction request: the field and the pythons.

    size     the side of the square field
    rows     the field's rows, top first: rows[y][x] is the cell (x, y)
    pythons  all pythons: pythons[0] is the bot's own, the others follow in the order of
             the players' ids
    turn     the getAction requests read so far, 1 for the first (set by run)
    """

    def __init__(self, size, rows, pythons, turn=0):
        self.size = size
        self.rows = rows
        self.pythons = pythons
        self.turn = turn
        # Who owns each cell, and which part of its python it is: index y*size+x, -1 for none.
        self._owner = [-1] * (size * size)
        self._index = [-1] * (size * size)
        for k, p in enumerate(pythons):
            for i, q in enumerate(p.parts):
                if self.inside(q.x, q.y):
                    self._owner[q.y * size + q.x] = k
                    self._index[q.y * size + q.x] = i

    def me(self):
        """The bot's own python."""
        return self.pythons[0]

    def others(self):
        """The other pythons."""
        return self.pythons[1:]

    def inside(self, x, y):
        """Whether (x, y) is on the field."""
        return 0 <= x < self.size and 0 <= y < self.size

    def cell(self, x, y):
        """The character of (x, y); off the field it is a WALL."""
        if not self.inside(x, y):
            return WALL
        return self.rows[y][x]

    def at(self, p):
        """cell() for a Point."""
        return self.cell(p.x, p.y)

    def owner(self, x, y):
        """The index in pythons of the python with a part on (x, y), or -1."""
        if not self.inside(x, y):
            return -1
        return self._owner[y * self.size + x]

    def part_index(self, x, y):
        """The index in its python's parts of the part on (x, y) (0 for a head), or -1."""
        if not self.inside(x, y):
            return -1
        return self._index[y * self.size + x]

    def is_free_block(self, x, y):
        """A block on (x, y) that belongs to no python."""
        c = self.cell(x, y)
        return (c == BLOCK or c == ENERGY) and self.owner(x, y) < 0

    def is_empty(self, x, y):
        """An empty cell."""
        return self.inside(x, y) and self.rows[y][x] == EMPTY


def _read_raw(stream):
    """One line without its end ("\\n" or "\\r\\n"); None at the end of the input."""
    s = stream.readline()
    if s == "":
        return None
    return s.rstrip("\r\n")


def _read_line(stream):
    """One line without its end and surrounding spaces; None at the end of the input."""
    s = _read_raw(stream)
    return None if s is None else s.strip()


def _to_int(s):
    s = s.strip()
    digits = s[1:] if s[:1] in ("+", "-") else s
    if not digits.isdigit() or not digits.isascii():
        raise FormatError("%r is not a number" % s)
    return int(s)


def read_area(stream):
    """Reads the rest of a getAction request (after its first line) and returns its
    AreaInfo; None at the end of the input. The number of python lines is the number of
    heads on the field. Raises FormatError on a malformed request."""
    line = _read_line(stream)
    if line is None:
        return None
    try:
        n = _to_int(line)
    except FormatError:
        n = 0
    if n <= 0:
        raise FormatError("%r is not the field size" % line)
    rows = []
    heads = 0
    for _ in range(n):
        row = _read_raw(stream)
        if row is None:
            return None
        row = (row + EMPTY * (n - len(row)))[:n]
        rows.append(row)
        heads += row.count(HEAD)
    pythons = []
    for _ in range(heads):
        line = _read_line(stream)
        if line is None:
            return None
        try:
            v = [_to_int(f) for f in line.split()]
        except FormatError:
            raise FormatError("python line %r" % line) from None
        if len(v) < 2 or v[1] < 1 or len(v) != 2 + 2 * v[1]:
            raise FormatError("python line %r" % line)
        parts = [Point(v[2 + 2 * i], v[3 + 2 * i]) for i in range(v[1])]
        pythons.append(Python(v[0], parts))
    if heads == 0:
        raise FormatError("no python on the field")
    return AreaInfo(n, rows, pythons)


def read_request(stream=None):
    """Reads the next request: ("getName", None) or ("getAction", area). Unknown lines are
    skipped. At the end of the input it returns (None, None). Raises FormatError on a
    malformed request."""
    if stream is None:
        stream = sys.stdin
    while True:
        line = _read_line(stream)
        if line is None:
            return None, None
        if line == "getName":
            return line, None
        if line == "getAction":
            area = read_area(stream)
            if area is None:
                return None, None
            return line, area


def clean_name(name):
    """The name as the page allows it: at most 32 bytes of UTF-8 (a character cut in two is
    dropped), characters below 0x20 made spaces."""
    b = str(name).encode("utf-8", "replace")[:32]
    b = bytes(c if c >= 0x20 else 0x20 for c in b)
    return b.decode("utf-8", "ignore")


def run(name, action, inp=None, out=None):
    """Plays: answers getName with name and each getAction with action(area), one character
    (U L D R N A), flushing each answer. Returns at the end of the input; raises FormatError
    on a malformed request. inp and out default to standard input and output."""
    if inp is None:
        inp = sys.stdin
    if out is None:
        out = sys.stdout
    turn = 0
    while True:
        kind, area = read_request(inp)
        if kind is None:
            return
        if kind == "getName":
            out.write(clean_name(name) + "\n")
        else:
            turn += 1
            area.turn = turn
            out.write(str(action(area)) + "\n")
        out.flush()
