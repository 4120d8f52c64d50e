# Hello bot: answers every line with the same line.
import sys

for line in sys.stdin:
    print(line, end="" if line.endswith("\n") else "\n")
