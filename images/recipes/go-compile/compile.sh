#!/bin/sh
# Reads the submission as a tar on stdin, compiles it, writes the artifact as a tar on stdout.
# Arguments: the `go build` flags. The log goes to stderr. No module is ever downloaded
# (GOPROXY=off): a submission is the main package and the standard library.
set -eu
exec 3>&1 1>&2
mkdir -p /work/src /work/out && cd /work/src && tar -x --no-same-owner --no-same-permissions -f -
[ -f go.mod ] || printf 'module bot\n\ngo 1.21\n' > go.mod
# The warm cache is read-only: link to its entries; Go only ever adds new ones.
cp -rs /opt/gocache /tmp/gocache
HOME=/tmp GOCACHE=/tmp/gocache go build "$@" -o /work/out/bot .
tar -c -C /work/out --owner=0 --group=0 . >&3
