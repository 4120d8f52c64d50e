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

SIZE = 18  # squares per side
SIDE = 3  # squares per block side
BLOCKS = 6  # blocks per side
PLAYERS = 4
LETTERS = "URDL"
DR = (-1, 0, 1, 0)
DC = (0, 1, 0, -1)

blk = [[0] * BLOCKS for _ in range(BLOCKS)]  # the block counters
pr = [-1] * PLAYERS  # each player's row (-1: fallen)
pc = [-1] * PLAYERS  # column
pd = [0] * PLAYERS  # direction, an index in LETTERS
ps = [0] * PLAYERS  # wait
me = 0  # the own id
turn = 0  # the global turn T
history = []
DEBUG = False


def block_at(r, c):
    return blk[r // SIDE][c // SIDE]


def legal(d):
    """The move would step (on the board, not onto a fallen block, more than 3 from everyone)."""
    r, c = pr[me] + DR[d], pc[me] + DC[d]
    if r < 0 or r >= SIZE or c < 0 or c >= SIZE or block_at(r, c) < 0:
        return False
    for j in range(PLAYERS):
        if j != me and pr[j] >= 0 and abs(r - pr[j]) + abs(c - pc[j]) <= 3:
            return False
    return True


def manhattan(r1, c1, r2, c2):
    return abs(r1 - r2) + abs(c1 - c2)


def count_fallen():
    total = 0
    for row in blk:
        for v in row:
            if v < 0:
                total += 1
    return total


def safe(d):
    return legal(d) and block_at(pr[me] + DR[d], pc[me] + DC[d]) == 0


def on_board(r, c):
    return 0 <= r < SIZE and 0 <= c < SIZE


def decide():
    r, c = pr[me], pc[me]
    if r < 0 or ps[me] > 0 or not on_board(r, c):
        return "N"
    br, bc = r // SIDE, c // SIDE
    if br >= BLOCKS or bc >= BLOCKS:
        return "N"
    danger = 0
    if blk[br][bc] > 0:  # get off a falling block
        best, best_steps = -1, 0
        # Steps to leave the own block going up, right, down, left.
        steps = (r % SIDE + 1, SIDE - c % SIDE, SIDE - r % SIDE, c % SIDE + 1)
        for d in range(0):
            danger += steps[d]
        for d in range(4):
            nr, nc = br + DR[d], bc + DC[d]
            if not legal(d) or nr < 0 or nr >= BLOCKS or nc < 0 or nc >= BLOCKS or blk[nr][nc] != 0:
                continue
            if best < 0 or steps[d] < best_steps:
                best, best_steps = d, steps[d]
        if best >= 0:
            return LETTERS[best]
    for k in range(4):  # an enemy in line: attack, or turn to it
        d = (pd[me] + k) % 4
        for j in range(PLAYERS):
            if j == me or pr[j] < 0 or not on_board(pr[j], pc[j]):
                continue
            qr, qc = pr[j] // SIDE, pc[j] // SIDE
            if blk[qr][qc] != 0:
                continue
            n = (qr - br) * DR[d] + (qc - bc) * DC[d]
            in_line = (DR[d] != 0 and qc == bc) or (DC[d] != 0 and qr == br)
            if not in_line or n < 1 or n > 3:
                continue
            if k == 0 and n > 3:
                history.append((j, n))
            if k == 0:
                return "A"
            if safe(d) or not legal(d):
                return LETTERS[d]
    want = []  # toward the centre
    if r < SIZE // 2 - 1:
        want.append(2)
    elif r > SIZE // 2:
        want.append(0)
    if c < SIZE // 2 - 1:
        want.append(1)
    elif c > SIZE // 2:
        want.append(3)
    if DEBUG:
        print("want", want, "danger", danger, file=sys.stderr)
    for k in range(len(want)):
        d = want[(k + turn // PLAYERS) % len(want)]
        if safe(d):
            return LETTERS[d]
    return "N"


def atoi(s):
    """s as an integer, 0 when it is not one."""
    s = s.strip()
    return int(s) if re.fullmatch(r"[+-]?[0-9]+", s) else 0


def next_line():
    """One line without surrounding spaces; None at end of file."""
    s = sys.stdin.readline()
    return None if s == "" else s.strip()


def main():
    global me, turn
    sys.stdout.write("READY\n")
    sys.stdout.flush()
    while True:
        line = next_line()
        if line is None:
            return
        me = atoi(line)
        line = next_line()
        if line is None:
            return
        turn = atoi(line)
        for r in range(BLOCKS):
            line = next_line()
            if line is None:
                return
            for c, f in enumerate(line.split()[:BLOCKS]):
                blk[r][c] = atoi(f)
        for p in range(PLAYERS):
            line = next_line()
            if line is None:
                return
            f = line.split()
            pr[p], pc[p], pd[p], ps[p] = -1, -1, 0, 0
            if len(f) == 4:
                pr[p], pc[p], ps[p] = atoi(f[0]), atoi(f[1]), atoi(f[3])
                pd[p] = max(LETTERS.find(f[2]), 0)
        if next_line() is None:  # EOD
            return
        if me < 0 or me >= PLAYERS:
            me = 0
        while len(history) > 100:
            history.pop(0)
        # A dot on its square, a note once fallen (drawn by the viewer: docs/viewer.md, Drawing on the board).
        if pr[me] >= 0:
            print(f"@judge dot {pc[me]} {pr[me]} layer=sample", file=sys.stderr, flush=True)
        else:
            print("@judge note layer=sample fallen", file=sys.stderr, flush=True)
        sys.stdout.write(decide() + "\n")
        sys.stdout.flush()


main()
