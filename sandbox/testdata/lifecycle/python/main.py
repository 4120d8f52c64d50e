# Test bot for the judge's bot-lifecycle tests (Python version).
#
# Before reading stdin it runs each line of ./start.txt, if that file exists, as a command
# ("burn 500" then "echo READY", say). Then it runs every stdin line as a command and exits
# with status 0 at end of input. Commands:
#   echo ...   print the whole line back        exit N     exit with status N
#   burn MS    burn MS ms of CPU, say "burned"  sleep MS   sleep MS ms, say "slept"
#   signal N   send signal N to itself (its default action restored first), then say "alive"
#   close      close stdout, then spin forever  hang       block forever
#   other      say "unknown"
# Answers are written unbuffered; start.txt commands answer only "echo".
import os
import signal
import sys
import time


def say(s):
    sys.stdout.write(s + "\n")
    sys.stdout.flush()


def run(line, from_stdin):
    line = line.rstrip("\n").rstrip("\r")
    f = line.split()
    cmd = f[0] if f else ""
    try:
        n = int(f[1]) if len(f) > 1 else 0
    except ValueError:
        n = 0
    if cmd == "echo":
        say(line)
    elif cmd == "exit":
        os._exit(n)
    elif cmd == "burn":
        end = time.process_time() + n / 1000
        while time.process_time() < end:
            pass
        if from_stdin:
            say("burned")
    elif cmd == "sleep":
        time.sleep(n / 1000)
        if from_stdin:
            say("slept")
    elif cmd == "signal":
        try:
            signal.signal(n, signal.SIG_DFL)
        except (OSError, ValueError):
            pass  # SIGKILL's cannot be changed
        os.kill(os.getpid(), n)
        time.sleep(1)
        say("alive")
    elif cmd == "close":
        os.close(1)
        while True:
            pass
    elif cmd == "hang":
        while True:
            time.sleep(3600)
    else:
        say("unknown")


if os.path.exists("start.txt"):
    with open("start.txt") as f:
        for l in f.read().splitlines():
            run(l, False)
for l in sys.stdin:
    run(l, True)
