# Start-up CPU and peak memory of a command, 10 runs (N), by getrusage of the child: images/pypy/measure.sh.
import os, sys
cmd = sys.argv[1:]
rss = 0; vals = []
for i in range(int(os.environ.get("N","10"))):
    pid = os.fork()
    if pid == 0:
        os.execvp(cmd[0], cmd)
    _, _, ru = os.wait4(pid, 0)
    ms = (ru.ru_utime + ru.ru_stime) * 1000
    vals.append(ms); rss = max(rss, ru.ru_maxrss)
print(cmd[0], "median %.1f ms, worst %.1f ms, max rss %d KiB" % (sorted(vals)[len(vals)//2], max(vals), rss))
