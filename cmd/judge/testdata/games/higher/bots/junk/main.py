import sys
for line in sys.stdin:
    print("ten", flush=True)
