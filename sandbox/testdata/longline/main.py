# Long lines, each written with one write: "line N" is "7" and N spaces; "lines N" is N lines
# of 1,000 bytes (TestLongLinesOfPython).
import sys

for request in sys.stdin:
    cmd, n = request.split()
    if cmd == "line":
        sys.stdout.write("7" + " " * int(n) + "\n")
    else:
        sys.stdout.write(("x" * 1000 + "\n") * int(n))
    sys.stdout.flush()
