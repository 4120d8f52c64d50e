#!/bin/sh
# Reads the submission as a tar on stdin, compiles it, writes the artifact as a tar on stdout.
# Arguments: the compiler flags. The log goes to stderr.
set -eu
exec 3>&1 1>&2
mkdir -p /work/src /work/out && cd /work/src && tar -x --no-same-owner --no-same-permissions -f -
# -x c++: every file is C++ whatever the case of its extension (g++ links a .CC or .CXX file
# as an object otherwise).
set -- "$@" -o /work/out/bot -x c++
# One file name a line (names hold no control characters), and nothing in a name globbed.
set -f
IFS='
'
for f in $(find . -type f \( -iname '*.cpp' -o -iname '*.cc' -o -iname '*.cxx' \) | sort); do set -- "$@" "$f"; done
set +f; unset IFS
g++ "$@"
tar -c -C /work/out --owner=0 --group=0 . >&3
