# Answers every line in pieces, the ways a contestant prints: print(x, end=""), an empty
# write, a bare print(), and the same on stderr. Each piece is its own write to the pipe.
import sys

for line in sys.stdin:
    word = line.strip()
    print(word, end="")
    print("", end="", file=sys.stderr)
    sys.stdout.write("")
    print(" ", word, sep="", end="", flush=True)
    print()
