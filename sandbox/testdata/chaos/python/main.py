# Chaos bot for the soak (judge/daemon TestSoak), the Python one: it picks one fault at random
# when it starts and commits it at its first request, whatever the game: crash (an uncaught
# exception), timeout (spins), sleep (blocks past the wall clock), flood (a line of 20 MiB),
# garbage (an answer no game takes) or exit (ends before reading anything).
import os
import random
import sys
import time

fault = random.SystemRandom().randrange(6)
if fault == 5:
    sys.exit(0)
line = sys.stdin.readline()
if not line:
    sys.exit(0)
if fault == 0:
    raise RuntimeError("chaos: crash")
if fault == 1:
    while True:
        pass
if fault == 2:
    time.sleep(3600)
if fault == 3:
    chunk = "x" * (1 << 20)
    for _ in range(20):
        sys.stdout.write(chunk)
    sys.exit(0)
while line:
    sys.stdout.write("!! garbage ??\n")
    line = sys.stdin.readline()
