#!/bin/sh
# Reads the submission as a tar on stdin, compiles every C# file into one program (bot.exe),
# writes the artifact as a tar on stdout. Arguments: the mcs flags. The log goes to stderr.
set -eu
exec 3>&1 1>&2
mkdir -p /work/src /work/out && cd /work/src && tar -x --no-same-owner --no-same-permissions -f -
set -- "$@" -out:/work/out/bot.exe
for f in $(find . -type f -name '*.cs' | sort); do set -- "$@" "$f"; done
mcs "$@"
tar -c -C /work/out --owner=0 --group=0 . >&3
