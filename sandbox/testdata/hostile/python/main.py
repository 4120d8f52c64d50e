# Red-team bot in Python for the script game: each line is a command, and each command
# answers one line. "echo X" answers itself; "alloc N" touches N MiB; "threads N" starts N
# threads; "spawn" runs another program (subprocess); "system" runs one through a shell
# (os.system); "write P" creates a file; "net" connects out; "env" lists the environment's
# names.
import os
import socket
import subprocess
import sys
import threading
import time

kept = []


def say(s):
    sys.stdout.write(s + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    line = line.rstrip("\n")
    cmd, _, arg = line.partition(" ")
    if cmd == "echo":
        say(line)
    elif cmd == "alloc":
        n = int(arg)
        for _ in range(n):
            kept.append(bytearray(b"\x01") * (1 << 20))
        say("allocated %d" % n)
    elif cmd == "threads":
        n, started, why = int(arg), 0, ""
        try:
            for _ in range(n):
                t = threading.Thread(target=time.sleep, args=(1e9,), daemon=True)
                t.start()
                started += 1
        except Exception as e:
            why = " " + repr(e)
        say("threads %d%s" % (started, why))
    elif cmd == "spawn":
        try:
            say("spawn %s" % subprocess.run(["/usr/bin/python3.11", "-c", "pass"]).returncode)
        except Exception as e:
            say("spawn %r" % e)
    elif cmd == "system":
        say("system %s" % os.system("true"))
    elif cmd == "write":
        try:
            open(arg, "w").close()
            say("write %s succeeded" % arg)
        except OSError as e:
            say("write %s" % e.strerror)
    elif cmd == "net":
        try:
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.connect(("1.1.1.1", 53))
            say("net connected")
        except OSError as e:
            say("net %s" % e.strerror)
    elif cmd == "env":
        say("env " + ",".join(sorted(os.environ)))
    else:
        say("unknown " + cmd)
