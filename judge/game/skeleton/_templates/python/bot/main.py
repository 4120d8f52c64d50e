# A sample bot of {{.Title}}: it answers 7 every turn.
import sys

for line in sys.stdin:
    print(7, flush=True)
