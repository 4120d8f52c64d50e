#!/bin/sh
# Reads the submission as a tar on stdin, checks the syntax of every JavaScript file
# (node --check) and writes the artifact as a tar on stdout: the sources, with main.js the
# file that runs. Argument: the entry file (images.jsMain chose it). The log goes to stderr.
set -eu
exec 3>&1 1>&2
mkdir -p /work/out && cd /work/out && tar -x --no-same-owner --no-same-permissions -f -
bad=0
# One file name a line (names hold no control characters), and nothing in a name globbed.
set -f
IFS='
'
for f in $(find . -type f -iname '*.js' | sort); do
    case $f in
    *.js) node --check "$f" || bad=1 ;;
    # node --check takes only the extensions it knows: another case is checked as its input.
    *) node --check <"$f" || { echo "(the error above is in ${f#./})"; bad=1; } ;;
    esac
done
set +f; unset IFS
[ "$bad" = 0 ] || exit 1
# The one file of the submission runs as main.js.
[ "$1" = main.js ] || mv "$1" main.js
tar -c -C /work/out --owner=0 --group=0 . >&3
