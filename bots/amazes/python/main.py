# Amazes sample bot (Python): a right-hand wall follower.
# Each turn it reads the four corridor lines (ahead, right, behind, left) and the
# squared distance, then takes the first open direction of right, ahead, left,
# behind (one turn in eight, chosen by a fixed-seed generator, it picks a random
# open side or ahead instead, so it cannot circle an island forever). While the
# step lands in a corridor it has just seen, it keeps following the right-hand
# rule along that corridor, so one line may hold several steps (never more than
# 25). It exits on "Quit", at end of input, and after its 150th turn.
import sys

rng_state = 20100101


def next_random(n):
    """A small fixed-seed linear congruential generator: a number in 0..n-1."""
    global rng_state
    rng_state = (rng_state * 1103515245 + 12345) & 0x7FFFFFFF
    return (rng_state >> 16) % n


def read_line():
    """One line without the trailing "\\r" and surrounding spaces; None at end of file."""
    s = sys.stdin.readline()
    if s == "":
        return None
    return s.strip(" \t\r\n")


def main():
    move_char = "FRTL"  # ahead, right, behind, left
    for _turn in range(150):
        line = read_line()
        if line is None or line == "Quit":
            return
        if line == "Start":
            line = read_line()
            if line is None or line == "Quit":
                return
        corridor = [line]
        for _ in range(3):
            line = read_line()
            if line is None:
                return
            corridor.append(line)
        if read_line() is None:  # squared distance: not used
            return
        is_open = []
        for d in range(4):
            if not corridor[d].endswith("W"):
                corridor[d] += "W"
            is_open.append(corridor[d][0] != "W")

        # First step: right-hand rule (right, ahead, left, behind), sometimes random.
        order = (1, 0, 3, 2)
        direction = -1
        for d in order:
            if is_open[d]:
                direction = d
                break
        if next_random(8) == 0:
            choices = [d for d in order[:3] if is_open[d]]
            if choices:
                direction = choices[next_random(len(choices))]
        if direction < 0:
            answer = "T"  # no open side seen at all: just turn around
        else:
            answer = move_char[direction]
            # Follow the corridor just entered while the next step is known.
            c = corridor[direction]
            i = 0
            while len(answer) < 25:
                here = c[i]
                right = here in "RB"
                left = here in "LB"
                ahead = i + 1 < len(c) and c[i + 1] != "W"
                if right:
                    answer += "R"
                    break
                if ahead:
                    answer += "F"
                    i += 1
                    continue
                if left:
                    answer += "L"
                break  # a turn leaves the known corridor, or a dead end
        # A dot on its start square (drawn by the viewer: docs/viewer.md, Drawing on the board).
        print("@judge dot 0 0 layer=sample", file=sys.stderr, flush=True)
        sys.stdout.write(answer + "\n")
        sys.stdout.flush()


main()
