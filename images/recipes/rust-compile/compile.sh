#!/bin/sh
# Reads the submission as a tar on stdin, compiles it as one crate, writes the artifact as a
# tar on stdout. Arguments: the crate's root file (images.rustMain chose it), then the rustc
# flags. The log goes to stderr.
set -eu
exec 3>&1 1>&2
mkdir -p /work/src /work/out && cd /work/src && tar -x --no-same-owner --no-same-permissions -f -
root=$1
shift
rustc "$@" -o /work/out/bot "$root"
tar -c -C /work/out --owner=0 --group=0 . >&3
