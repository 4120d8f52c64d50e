#!/bin/bash
# The latency benchmark of BENCHMARKS.md (make bench-latency): back-to-back one-move SnakeCore
# matches of four C++ sample bots through `judge serve` on its embedded NATS server, each timed
# by the client from `judge submit --wait` to its result. Baseline, in the same run: the
# client's own round trip, `judge results ID` of a match already judged. BEFORE=path/to/judge
# runs an earlier build the same way first. N matches each (default 40), after 3 to warm up.
set -eu
J=${JUDGE:-bin/judge}
DATA=${JUDGE_DATA_DIR:-judge-data}/bench-latency
PORT=${PORT:-14422}
N=${N:-40}
mkdir -p "$DATA"
URL=nats://127.0.0.1:$PORT
bots=(bots/snakecore/cpp bots/snakecore/cpp bots/snakecore/cpp bots/snakecore/cpp)
ms() { echo $(($(date +%s%N) / 1000000)); }
stats() { # label, then the figures in ms
	local label=$1
	shift
	printf '%s\n' "$@" | sort -n | awk -v l="$label" '{a[NR]=$1} END {printf "%s: median %d ms, p90 %d ms, max %d ms (%d runs)\n", l, a[int((NR+1)/2)], a[int(NR*0.9+0.999)], a[NR], NR}'
}
run() { # name, judge
	local name=$1 J=$2
	rm -rf "$DATA/nats-$name"
	JUDGE_DATA_DIR=$DATA/d JUDGE_NATS_LISTEN=127.0.0.1:$PORT JUDGE_NATS_STORE=$DATA/nats-$name JUDGE_LOG_LEVEL=warn \
		"$J" serve >"$DATA/serve-$name.log" 2>&1 &
	local s=$!
	for _ in $(seq 100); do JUDGE_NATS_URL=$URL "$J" results >/dev/null 2>&1 && break; sleep 0.2; done
	local t i matches=() client=()
	for i in $(seq $((N + 3))); do
		t=$(ms)
		JUDGE_DATA_DIR=$DATA/d JUDGE_NATS_URL=$URL "$J" submit --game snakecore --opt moves=1 --seed "$i" --id "$name-$i" --wait "${bots[@]}" >/dev/null
		[ "$i" -gt 3 ] && matches+=($(($(ms) - t)))
	done
	for i in $(seq "$N"); do
		t=$(ms)
		JUDGE_NATS_URL=$URL "$J" results "$name-4" >/dev/null
		client+=($(($(ms) - t)))
	done
	kill $s 2>/dev/null || true
	wait $s 2>/dev/null || true
	stats "$name: a one-move match, submit --wait" "${matches[@]}"
	stats "$name: the client's round trip (results ID)" "${client[@]}"
}
if [ -n "${BEFORE:-}" ]; then
	run before "$BEFORE"
fi
run after "$J"
