#!/bin/sh
# Reads the submission as a tar on stdin, checks the syntax of every Python file (py_compile)
# and writes the artifact as a tar on stdout: the sources, their bytecode (checked against
# nothing at run time: the sources cannot change) and main.py, the file that runs.
# Argument: the entry file (images.pythonMain chose it). The log goes to stderr.
set -eu
exec 3>&1 1>&2
mkdir -p /work/out && cd /work/out && tar -x --no-same-owner --no-same-permissions -f -
python3.11 -B - "$1" <<'PY'
import os, py_compile, sys
bad = 0
for root, dirs, files in os.walk("."):
    dirs.sort()
    for f in sorted(files):
        if f.lower().endswith(".py"):
            path = os.path.join(root, f)[2:]
            try:
                py_compile.compile(path, doraise=True, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
            except py_compile.PyCompileError as e:
                print(e.msg.replace("/work/out/", ""), file=sys.stderr)
                bad += 1
entry = sys.argv[1]
if entry != "main.py":
    # The one file of the submission runs as main.py.
    os.rename(entry, "main.py")
    head, tail = os.path.split(entry)
    cache = os.path.join(head, "__pycache__", tail[:-3] + ".cpython-311.pyc")
    if os.path.exists(cache):
        os.remove(cache)
sys.exit(1 if bad else 0)
PY
tar -c -C /work/out --owner=0 --group=0 . >&3
