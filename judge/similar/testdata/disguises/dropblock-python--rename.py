# Drop the Block sample bot (Python). Prints READY, then answers every turn's input
# (id, T, 6 block rows, 4 player lines "R C D S", EOD) with one action:
#   - fallen, or waiting after an attack (S > 0): N;
#   - standing on a block that is about to fall: the quickest step off it onto a
#     standing block;
#   - an enemy on a standing block in line within 3 blocks: A when facing it,
#     otherwise a move toward it (which turns it; it steps only onto a standing block);
#   - otherwise a step toward the centre onto a standing block (never onto a
#     falling or fallen one), or N.
#
# Deterministic. Exits at end of input.
import re
import sys

GRID = 18  # squares per side
CELL = 3  # squares per block side
TILES = 6  # blocks per side
COUNT = 4
DIRS = "URDL"
DY = (-1, 0, 1, 0)
DX = (0, 1, 0, -1)

fall = [[0] * TILES for idx in range(TILES)]  # the block counters
ys = [-1] * COUNT  # each player's row (-1: fallen)
xs = [-1] * COUNT  # column
faces = [0] * COUNT  # direction, an index in LETTERS
waits = [0] * COUNT  # wait
self_id = 0  # the own id
tick = 0  # the global turn T


def tile_of(y, x):
    return fall[y // CELL][x // CELL]


def can_step(way):
    """The move would step (on the board, not onto a fallen block, more than 3 from everyone)."""
    y, x = ys[self_id] + DY[way], xs[self_id] + DX[way]
    if y < 0 or y >= GRID or x < 0 or x >= GRID or tile_of(y, x) < 0:
        return False
    for other in range(COUNT):
        if other != self_id and ys[other] >= 0 and abs(y - ys[other]) + abs(x - xs[other]) <= 3:
            return False
    return True


def secure(way):
    return can_step(way) and tile_of(ys[self_id] + DY[way], xs[self_id] + DX[way]) == 0


def inside(y, x):
    return 0 <= y < GRID and 0 <= x < GRID


def choose():
    y, x = ys[self_id], xs[self_id]
    if y < 0 or waits[self_id] > 0 or not inside(y, x):
        return "N"
    ty, tx = y // CELL, x // CELL
    if fall[ty][tx] > 0:  # get off a falling block
        pick, pick_cost = -1, 0
        # Steps to leave the own block going up, right, down, left.
        costs = (y % CELL + 1, CELL - x % CELL, CELL - y % CELL, x % CELL + 1)
        for way in range(4):
            my, mx = ty + DY[way], tx + DX[way]
            if not can_step(way) or my < 0 or my >= TILES or mx < 0 or mx >= TILES or fall[my][mx] != 0:
                continue
            if pick < 0 or costs[way] < pick_cost:
                pick, pick_cost = way, costs[way]
        if pick >= 0:
            return DIRS[pick]
    for rot in range(4):  # an enemy in line: attack, or turn to it
        way = (faces[self_id] + rot) % 4
        for other in range(COUNT):
            if other == self_id or ys[other] < 0 or not inside(ys[other], xs[other]):
                continue
            oy, ox = ys[other] // CELL, xs[other] // CELL
            if fall[oy][ox] != 0:
                continue
            gap = (oy - ty) * DY[way] + (ox - tx) * DX[way]
            aligned = (DY[way] != 0 and ox == tx) or (DX[way] != 0 and oy == ty)
            if not aligned or gap < 1 or gap > 3:
                continue
            if rot == 0:
                return "A"
            if secure(way) or not can_step(way):
                return DIRS[way]
    goals = []  # toward the centre
    if y < GRID // 2 - 1:
        goals.append(2)
    elif y > GRID // 2:
        goals.append(0)
    if x < GRID // 2 - 1:
        goals.append(1)
    elif x > GRID // 2:
        goals.append(3)
    for rot in range(len(goals)):
        way = goals[(rot + tick // COUNT) % len(goals)]
        if secure(way):
            return DIRS[way]
    return "N"


def to_int(text):
    """s as an integer, 0 when it is not one."""
    text = text.strip()
    return int(text) if re.fullmatch(r"[+-]?[0-9]+", text) else 0


def read_row():
    """One line without surrounding spaces; None at end of file."""
    text = sys.stdin.readline()
    return None if text == "" else text.strip()


def run():
    global self_id, tick
    sys.stdout.write("READY\n")
    sys.stdout.flush()
    while True:
        row = read_row()
        if row is None:
            return
        self_id = to_int(row)
        row = read_row()
        if row is None:
            return
        tick = to_int(row)
        for y in range(TILES):
            row = read_row()
            if row is None:
                return
            for x, parts in enumerate(row.split()[:TILES]):
                fall[y][x] = to_int(parts)
        for who in range(COUNT):
            row = read_row()
            if row is None:
                return
            parts = row.split()
            ys[who], xs[who], faces[who], waits[who] = -1, -1, 0, 0
            if len(parts) == 4:
                ys[who], xs[who], waits[who] = to_int(parts[0]), to_int(parts[1]), to_int(parts[3])
                faces[who] = max(DIRS.find(parts[2]), 0)
        if read_row() is None:  # EOD
            return
        if self_id < 0 or self_id >= COUNT:
            self_id = 0
        # A dot on its square, a note once fallen (drawn by the viewer: docs/viewer.md, Drawing on the board).
        if ys[self_id] >= 0:
            print(f"@judge dot {xs[self_id]} {ys[self_id]} layer=sample", file=sys.stderr, flush=True)
        else:
            print("@judge note layer=sample fallen", file=sys.stderr, flush=True)
        sys.stdout.write(choose() + "\n")
        sys.stdout.flush()


run()
