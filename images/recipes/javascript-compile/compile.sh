#!/bin/sh
# Reads the submission as a tar on stdin, checks the syntax of every JavaScript file
# (node --check) and writes the artifact as a tar on stdout: the sources, with main.js the
# file that runs. Argument: the entry file (images.jsMain chose it). The log goes to stderr.
set -eu
exec 3>&1 1>&2
mkdir -p /work/out && cd /work/out && tar -x --no-same-owner --no-same-permissions -f -
bad=0
for f in $(find . -type f -name '*.js' | sed 's|^\./||' | sort); do
    node --check "$f" || bad=1
done
[ "$bad" = 0 ] || exit 1
# The one file of the submission runs as main.js.
[ "$1" = main.js ] || mv "$1" main.js
tar -c -C /work/out --owner=0 --group=0 . >&3
