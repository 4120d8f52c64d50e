#!/bin/sh
# Reads the submission as a tar on stdin, compiles it, writes the artifact as a tar on stdout.
# Arguments: the compiler flags. The log goes to stderr.
set -eu
exec 3>&1 1>&2
mkdir -p /work/src /work/out && cd /work/src && tar -x --no-same-owner --no-same-permissions -f -
set -- "$@" -o /work/out/bot
for f in $(find . -type f \( -name '*.cpp' -o -name '*.cc' -o -name '*.cxx' \) | sort); do set -- "$@" "$f"; done
g++ "$@"
tar -c -C /work/out --owner=0 --group=0 . >&3
