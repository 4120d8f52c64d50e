# Block-dropping arena player.
# Protocol: we announce READY, then get a full state dump each turn and reply with one letter.
import re
import sys

SIZE = 18  # board is 18x18
SIDE = 3  # a block covers 3x3 squares
BLOCKS = 6
PLAYERS = 4
LETTERS = "URDL"  # up, right, down, left
# row and column offsets, same order as LETTERS
DR = (-1, 0, 1, 0)
DC = (0, 1, 0, -1)

# game state, refreshed every turn
blk = [[0] * BLOCKS for _ in range(BLOCKS)]  # 0 solid, >0 crumbling, <0 gone
pr = [-1] * PLAYERS
pc = [-1] * PLAYERS
pd = [0] * PLAYERS
ps = [0] * PLAYERS
me = 0  # which player we are
turn = 0


# counter of the block under square (r, c)
def block_at(r, c):
    return blk[r // SIDE][c // SIDE]


def legal(d):
    """True if walking in direction d is allowed: stays inside, avoids holes, keeps distance."""
    r, c = pr[me] + DR[d], pc[me] + DC[d]
    if r < 0 or r >= SIZE or c < 0 or c >= SIZE or block_at(r, c) < 0:
        return False
    # too close to somebody?
    for j in range(PLAYERS):
        if j != me and pr[j] >= 0 and abs(r - pr[j]) + abs(c - pc[j]) <= 3:
            return False
    return True


# a legal move that also lands on solid ground
def safe(d):
    return legal(d) and block_at(pr[me] + DR[d], pc[me] + DC[d]) == 0


# bounds check
def on_board(r, c):
    return 0 <= r < SIZE and 0 <= c < SIZE


# choose this turn's action
def decide():
    r, c = pr[me], pc[me]
    if r < 0 or ps[me] > 0 or not on_board(r, c):
        return "N"  # nothing to do
    br, bc = r // SIDE, c // SIDE
    # escape first when the ground is going away
    if blk[br][bc] > 0:
        best, best_steps = -1, 0
        # distance to each edge of our block
        steps = (r % SIDE + 1, SIDE - c % SIDE, SIDE - r % SIDE, c % SIDE + 1)
        for d in range(4):
            nr, nc = br + DR[d], bc + DC[d]
            if not legal(d) or nr < 0 or nr >= BLOCKS or nc < 0 or nc >= BLOCKS or blk[nr][nc] != 0:
                continue
            if best < 0 or steps[d] < best_steps:
                best, best_steps = d, steps[d]
        # found a way off
        if best >= 0:
            return LETTERS[best]
    # then look for someone to hit, starting with the way we face
    for k in range(4):
        d = (pd[me] + k) % 4
        for j in range(PLAYERS):
            if j == me or pr[j] < 0 or not on_board(pr[j], pc[j]):
                continue
            qr, qc = pr[j] // SIDE, pc[j] // SIDE
            if blk[qr][qc] != 0:
                continue
            # how many blocks away along direction d
            n = (qr - br) * DR[d] + (qc - bc) * DC[d]
            in_line = (DR[d] != 0 and qc == bc) or (DC[d] != 0 and qr == br)
            if not in_line or n < 1 or n > 3:
                continue
            if k == 0:
                return "A"  # already facing: attack
            if safe(d) or not legal(d):
                return LETTERS[d]
    # no fight: drift to the middle of the board
    want = []
    if r < SIZE // 2 - 1:
        want.append(2)
    elif r > SIZE // 2:
        want.append(0)
    if c < SIZE // 2 - 1:
        want.append(1)
    elif c > SIZE // 2:
        want.append(3)
    # alternate between the wanted directions over time
    for k in range(len(want)):
        d = want[(k + turn // PLAYERS) % len(want)]
        if safe(d):
            return LETTERS[d]
    return "N"


# helpers for reading input
def atoi(s):
    """Lenient int(): anything unparsable becomes zero."""
    s = s.strip()
    return int(s) if re.fullmatch(r"[+-]?[0-9]+", s) else 0


def next_line():
    """Read a stripped line from stdin, or None once input is exhausted."""
    s = sys.stdin.readline()
    return None if s == "" else s.strip()


# read loop
def main():
    global me, turn
    sys.stdout.write("READY\n")  # handshake
    sys.stdout.flush()
    while True:
        line = next_line()
        if line is None:
            return
        me = atoi(line)
        line = next_line()
        if line is None:
            return
        turn = atoi(line)  # global turn counter
        # six rows of block counters
        for r in range(BLOCKS):
            line = next_line()
            if line is None:
                return
            for c, f in enumerate(line.split()[:BLOCKS]):
                blk[r][c] = atoi(f)
        # four player lines: row col dir wait
        for p in range(PLAYERS):
            line = next_line()
            if line is None:
                return
            f = line.split()
            pr[p], pc[p], pd[p], ps[p] = -1, -1, 0, 0
            if len(f) == 4:
                pr[p], pc[p], ps[p] = atoi(f[0]), atoi(f[1]), atoi(f[3])
                pd[p] = max(LETTERS.find(f[2]), 0)
        if next_line() is None:  # end-of-data marker
            return
        if me < 0 or me >= PLAYERS:  # sanity
            me = 0
        # viewer output
        if pr[me] >= 0:
            print(f"@judge dot {pc[me]} {pr[me]} layer=sample", file=sys.stderr, flush=True)
        else:
            print("@judge note layer=sample fallen", file=sys.stderr, flush=True)
        sys.stdout.write(decide() + "\n")  # answer
        sys.stdout.flush()


# go
main()
