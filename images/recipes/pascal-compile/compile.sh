#!/bin/sh
# Reads the submission as a tar on stdin, compiles it, writes the artifact as a tar on stdout.
# Arguments: the main program file, then the compiler flags. The log goes to stderr.
# -n ignores every fpc.cfg (a submission must not plant one), so the unit path is given here.
set -eu
exec 3>&1 1>&2
main=$1; shift
mkdir -p /work/src /work/out /tmp/units && cd /work/src && tar -x --no-same-owner --no-same-permissions -f -
units=$(echo /usr/lib/x86_64-linux-gnu/fpc/*/units/x86_64-linux)
fpc -n "$@" "-Fu$units/*" -FU/tmp/units -FE/work/out -o/work/out/bot "$main"
rm -f /work/out/*.o /work/out/*.ppu
tar -c -C /work/out --owner=0 --group=0 . >&3
