# A bot-like workload for images/pypy/measure.sh.
# A bot's typical move: breadth-first searches over a 60x60 grid, repeated.
import time
from collections import deque
W = H = 60
walls = {(x, y) for x in range(W) for y in range(H) if (x * 7 + y * 13) % 11 == 0}
def bfs(sx, sy):
    dist = {(sx, sy): 0}
    q = deque([(sx, sy)])
    while q:
        x, y = q.popleft()
        d = dist[(x, y)] + 1
        for nx, ny in ((x+1,y),(x-1,y),(x,y+1),(x,y-1)):
            if 0 <= nx < W and 0 <= ny < H and (nx, ny) not in walls and (nx, ny) not in dist:
                dist[(nx, ny)] = d
                q.append((nx, ny))
    return len(dist)
t = time.process_time()
moves = []
for move in range(60):
    m0 = time.process_time()
    for s in range(5):
        bfs((move * 3 + s) % W, (move * 5 + s) % H if ((move*3+s)%W*7 + (move*5+s)%H*13) % 11 else 1)
    moves.append((time.process_time() - m0) * 1000)
print("first move %.1f ms, median move %.1f ms, all %.0f ms" % (moves[0], sorted(moves)[30], (time.process_time() - t) * 1000))
