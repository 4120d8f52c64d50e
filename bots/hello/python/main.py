# Hello bot: answers every line with the same line.
import sys

while True:
    line = sys.stdin.readline()
    if not line:
        break
    sys.stdout.write(line if line.endswith("\n") else line + "\n")
    sys.stdout.flush()
