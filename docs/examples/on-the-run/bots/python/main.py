# A sample bot of On The Run: as the Fugitive it runs by car to the neighbouring city farthest
# (in car hops) from the detectives; as the Detectives each moves one step towards where the
# fugitive was last heard of.
import sys
from collections import deque

lines = open("connect.txt").read().split("\n")
n = int(lines[0])
car, every = {c: [] for c in range(1, n + 1)}, {c: [] for c in range(1, n + 1)}
for line in lines[1:]:
    if line.strip() == "END":
        break
    kind, ab = line.split()
    a, b = map(int, ab.split("-"))
    every[a].append(b)
    every[b].append(a)
    if kind == "C":
        car[a].append(b)
        car[b].append(a)


def distances(sources, graph):
    d = {c: None for c in graph}
    q = deque(sources)
    for s in sources:
        d[s] = 0
    while q:
        c = q.popleft()
        for e in graph[c]:
            if d[e] is None:
                d[e] = d[c] + 1
                q.append(e)
    return d


def read():
    line = sys.stdin.readline()
    if not line or line.strip() == "Quit":
        sys.exit(0)
    return line.strip()


def say(*out):
    sys.stdout.write("".join("%s\n" % o for o in out))
    sys.stdout.flush()


if read() == "Fugitive":
    dets = [int(read()) for _ in range(4)]
    d = distances(dets, every)
    here = max(range(1, n + 1), key=lambda c: (d[c] or 0, -c))
    say(here)
    while True:
        d = distances(dets, every)
        options = [c for c in car[here] if c not in dets] or car[here]
        here = max(options, key=lambda c: (d[c] or 0, -c))
        say("C %d" % here)
        dets = [int(read()) for _ in range(4)]
else:
    dets = [1, 2, 3, 4]
    say(*dets)
    target = int(read())
    while True:
        told = read().split()  # the fugitive's transport, and every fifth turn its city
        if len(told) == 2:
            target = int(told[1])
        towards = distances([target], every)
        taken = set()
        for k, c in enumerate(dets):
            moves = sorted((e for e in every[c] if e not in taken), key=lambda e: (towards[e], e))
            dets[k] = moves[0] if moves else every[c][0]
            taken.add(dets[k])
        say(*dets)
