# On The Run sample bot (Python). Reads the map from connect.txt, then plays the
# role named on its first input line.
# Fugitive: starts on the city farthest (fewest connections of any type) from
# the nearest detective; each turn takes the connection whose city is farthest
# from the detectives, never a detective's city unless every move is one.
# Detectives: start on the four cities with the most connections; they keep
# the set of cities where the fugitive can be (its announced city, widened
# each turn along connections of the type it used) and each detective steps to
# the neighbour nearest to that set, the four new cities made distinct by a
# small backtracking search. Exits on "Quit", at end of input, and after its
# 50th move. Deterministic.
import re
import sys

FAR = 1 << 20  # the distance of a city no source reaches

n = 0
adj = [[]]  # adj[c]: the connections (type, to) of city c (1..n)


def read_line_or_exit():
    """One trimmed line; exits (code 0) at end of file or on "Quit"."""
    s = sys.stdin.readline()
    if s == "":
        sys.exit(0)
    s = s.strip()
    if s == "Quit":
        sys.exit(0)
    return s


def numbers(s):
    """The integers of s in order (any non-digit separates them)."""
    return [int(x) for x in re.findall(r"[0-9]+", s)]


def read_map():
    global n, adj
    try:
        with open("connect.txt", encoding="ascii", errors="replace") as f:
            lines = f.read().split("\n")
    except OSError:
        lines = []
    k = 0
    while k < len(lines) and n == 0:
        v = numbers(lines[k])
        if v:
            n = v[0]
        k += 1
    adj = [[] for _ in range(n + 1)]
    while k < len(lines):
        line = lines[k].strip()
        k += 1
        if line == "END":
            break
        v = numbers(line)
        if line == "" or len(v) < 2:
            continue
        a, b = v[0], v[1]
        if a < 1 or a > n or b < 1 or b > n or a == b:
            continue
        adj[a].append((line[0], b))
        adj[b].append((line[0], a))


def distances(src):
    """Breadth-first distances (connections of any type) from the cities marked in src."""
    dist = [FAR] * (n + 1)
    queue = []
    for c in range(1, n + 1):
        if src[c]:
            dist[c] = 0
            queue.append(c)
    q = 0
    while q < len(queue):
        c = queue[q]
        q += 1
        for _, to in adj[c]:
            if dist[to] > dist[c] + 1:
                dist[to] = dist[c] + 1
                queue.append(to)
    return dist


def read_four():
    det = []
    for _ in range(4):
        v = numbers(read_line_or_exit())
        det.append(v[0] if v else 0)
    return det


def detective_map(det):
    m = [False] * (n + 1)
    for d in det:
        if 1 <= d <= n:
            m[d] = True
    return m


def answer(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def mark_city(c):
    """A dot on city c, one an answer (drawn by the viewer: docs/viewer.md, Drawing on the board)."""
    print("@judge dot %d 0 layer=sample" % c, file=sys.stderr, flush=True)


def play_fugitive():
    det = read_four()
    is_det = detective_map(det)
    dist = distances(is_det)
    cur = 0
    for c in range(1, n + 1):
        if not is_det[c] and (cur == 0 or dist[c] > dist[cur]):
            cur = c
    mark_city(cur)
    answer(str(cur))

    for turn in range(1, 51):
        is_det = detective_map(det)
        dist = distances(is_det)
        links = adj[cur] if 1 <= cur <= n else []
        best = -1
        for k, (_, to) in enumerate(links):
            if is_det[to]:
                continue
            if best < 0 or dist[to] > dist[links[best][1]]:
                best = k
        if best < 0:
            best = 0  # every move ends on a detective: caught anyway
        if not links:
            return  # no map: nothing legal to say
        typ, cur = links[best]
        mark_city(cur)
        answer("%s %d" % (typ, cur))
        if turn == 50:
            break
        det = read_four()


def assign(i, choices, target, used):
    """Gives detective i (and the following ones) a new city, trying the neighbours in the
    order of choices[i]; False when no distinct assignment exists."""
    if i == 4:
        return True
    for c in choices[i]:
        if used[c]:
            continue
        used[c] = True
        target[i] = c
        if assign(i + 1, choices, target, used):
            return True
        used[c] = False
    return False


def play_detectives():
    # Start on the four cities with the most connections (lowest number on ties).
    det = []
    taken = [False] * (n + 1)
    for _ in range(4):
        best = 0
        for c in range(1, n + 1):
            if not taken[c] and (best == 0 or len(adj[c]) > len(adj[best])):
                best = c
        taken[best] = True
        det.append(best)
    mark_city(det[0])
    answer("\n".join(str(d) for d in det))

    cand = [False] * (n + 1)  # where the fugitive may be
    v = numbers(read_line_or_exit())
    if v and 1 <= v[0] <= n:
        cand[v[0]] = True

    for _turn in range(1, 51):
        line = read_line_or_exit()
        typ = line[0] if line else "C"
        v = numbers(line)
        is_det = detective_map(det)
        nxt = [False] * (n + 1)
        found = False
        if v and 1 <= v[0] <= n:  # announcement turn
            nxt[v[0]] = True
            found = True
        else:
            for c in range(1, n + 1):
                if not cand[c]:
                    continue
                for t, to in adj[c]:
                    if t == typ and not is_det[to]:
                        nxt[to] = True
                        found = True
        if not found:  # lost track: the fugitive may be anywhere
            nxt = [False] + [not is_det[c] for c in range(1, n + 1)]
        cand = nxt

        # Each detective prefers the neighbours nearest to the possible cities (a stable
        # sort: equally near ones stay in the map's order).
        dist = distances(cand)
        choices = []
        for i in range(4):
            ch = [to for _, to in adj[det[i]]]
            ch.sort(key=lambda c: dist[c])
            choices.append(ch)
        target = [0] * 4
        if not assign(0, choices, target, [False] * (n + 1)):
            for i in range(4):
                target[i] = adj[det[i]][0][1] if adj[det[i]] else det[i]
        for i in range(4):
            det[i] = target[i]
            cand[det[i]] = False
        mark_city(det[0])
        answer("\n".join(str(d) for d in det))


def main():
    read_map()
    if read_line_or_exit() == "Fugitive":
        play_fugitive()
    else:
        play_detectives()


main()
