#!/bin/sh
# Reads the submission as a tar on stdin, compiles every C# file into one program (bot.exe),
# writes the artifact as a tar on stdout. Arguments: the mcs flags. The log goes to stderr.
set -eu
exec 3>&1 1>&2
mkdir -p /work/src /work/out && cd /work/src && tar -x --no-same-owner --no-same-permissions -f -
set -- "$@" -out:/work/out/bot.exe
# One file name a line (names hold no control characters), and nothing in a name globbed.
set -f
IFS='
'
for f in $(find . -type f -iname '*.cs' | sort); do set -- "$@" "$f"; done
set +f; unset IFS
mcs "$@"
tar -c -C /work/out --owner=0 --group=0 . >&3
