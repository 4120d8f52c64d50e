#!/bin/sh
# PyPy against CPython, measured the same way in the same run (BENCHMARKS.md, "PyPy"): an
# image of the judge's base with Debian's pypy3 and python3.11, each interpreter started 10
# times in a container of one core and 256 MiB with no network (start-up CPU and peak memory
# by getrusage of the child), then a bot-like workload (60 moves of five breadth-first
# searches over a 60 x 60 grid) by the interpreter's own process clock. Under runc and, when
# it is installed, gVisor (whose clocks tick in 10 ms).
set -eu
cd "$(dirname "$0")"
base=$(docker images judge/base --format '{{.Repository}}:{{.Tag}}' | head -n 1)
[ -n "$base" ] || { echo "measure.sh: no judge/base image: run make images first" >&2; exit 1; }
docker build -q --build-arg BASE="$base" -t judge-measure/pypy . >/dev/null
for rt in runc runsc; do
	docker info --format '{{json .Runtimes}}' | grep -q "\"$rt\"" || continue
	for py in python3.11 pypy3; do
		run="docker run --rm --runtime $rt --network none --cpus 1 --memory 256m -e PYTHONUNBUFFERED=1 judge-measure/pypy"
		printf '%s %s start-up: ' "$rt" "$py"
		$run python3.11 /m/startcpu.py "$py" -c 'import sys; sys.stdout.write("READY\n")' 2>/dev/null | grep -v READY
		printf '%s %s work: ' "$rt" "$py"
		$run "$py" /m/work.py 2>/dev/null
	done
done
