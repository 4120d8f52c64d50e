#!/bin/bash
# The round benchmark of BENCHMARKS.md (make bench-round): a round robin of 8 Lang Wars
# entrants (70 four-player matches) whose bots burn 20 ms of CPU before READY and before every
# answer (Lang Wars' C++ sample bot with testdata/think.h), through one `judge serve` on its embedded NATS server, warm build
# caches. It prints the round's wall time against the machine's limit: the bots' CPU over the
# cores (bot CPU / cores), for two settings in the same run:
#   before: BEFORE=path/to/judge, an earlier build at its defaults (its own images); without
#           it, this judge with the settings of before (one worker per two cores, a container
#           per bot per match)
#   after:  this judge at its defaults
# A bot's CPU is what the judge charged it (cpu_ms) and its start-up within its language's
# allowance (C++: 5 ms under runc), which cpu_ms leaves out.
set -eu
J=${JUDGE:-bin/judge}
DATA=${JUDGE_DATA_DIR:-judge-data}/bench-round
PORT=${PORT:-14322}
CORES=$(nproc)
mkdir -p "$DATA"
dir=$DATA/entrants
rm -rf "$dir" && mkdir -p "$dir"
# The sample bot, thinking before READY and before each answer (each a line it prints).
thinker=$(sed -e 's/^\( *\)std::cout << /\1think(); std::cout << /' bots/langwars/cpp/bot.cpp)
if [ "$(grep -c 'think(); std::cout' <<<"$thinker")" != 2 ]; then
	echo "round.sh: the sample bot no longer prints READY and its answers as expected" >&2
	exit 1
fi
for i in 1 2 3 4 5 6 7 8; do
	mkdir -p "$dir/t$i"
	# Eight entrants, eight sources (and builds), one program.
	{ echo "// entrant $i"; cat judge/tournament/testdata/think.h; echo "$thinker"; } >"$dir/t$i/bot.cpp"
	JUDGE_DATA_DIR=$DATA/d "$J" compile --game langwars "$dir/t$i" >/dev/null
done
run() { # name, judge, then the settings as environment
	local name=$1 J=$2
	shift 2
	rm -rf "$DATA/nats-$name"
	env "$@" JUDGE_DATA_DIR=$DATA/d JUDGE_NATS_LISTEN=127.0.0.1:$PORT JUDGE_NATS_STORE=$DATA/nats-$name \
		JUDGE_LOG_LEVEL=warn "$J" serve >"$DATA/serve-$name.log" 2>&1 &
	local s=$!
	for _ in $(seq 100); do JUDGE_NATS_URL=nats://127.0.0.1:$PORT "$J" results >/dev/null 2>&1 && break; sleep 0.2; done
	local t0 t1
	t0=$(date +%s.%N)
	JUDGE_DATA_DIR=$DATA/d JUDGE_NATS_URL=nats://127.0.0.1:$PORT "$J" tournament --game langwars --name "$name" "$dir" \
		>"$DATA/$name.txt" 2>"$DATA/$name.err"
	t1=$(date +%s.%N)
	JUDGE_NATS_URL=nats://127.0.0.1:$PORT "$J" results --json >"$DATA/$name.results"
	kill $s 2>/dev/null || true
	wait $s 2>/dev/null || true
	local wall cpu faults matches
	wall=$(echo "$t1 - $t0" | bc)
	cpu=$(jq -s '[.[] | .players[] | .cpu_ms + ([.startup_cpu_ms, 5] | min)] | add / 1000' "$DATA/$name.results")
	faults=$(jq -s '[.[] | .players[] | select(.fault != null)] | length' "$DATA/$name.results")
	matches=$(jq -s 'length' "$DATA/$name.results")
	printf '%s: %d matches, %.1f s wall, bot CPU %.1f s over %d cores = %.1f s limit, ratio %.2f, faults %d\n' \
		"$name" "$matches" "$wall" "$cpu" "$CORES" "$(echo "$cpu / $CORES" | bc -l)" "$(echo "$wall / ($cpu / $CORES)" | bc -l)" "$faults"
}
if [ -n "${BEFORE:-}" ]; then
	for i in 1 2 3 4 5 6 7 8; do JUDGE_DATA_DIR=$DATA/d "$BEFORE" compile --game langwars "$dir/t$i" >/dev/null; done
	run before "$BEFORE" JUDGE_LOG_LEVEL=warn
else
	run before "$J" JUDGE_SERVE_WORKERS=$((CORES / 2 > 0 ? CORES / 2 : 1)) JUDGE_SANDBOX_REUSE=0
fi
run after "$J" JUDGE_LOG_LEVEL=warn
