#!/bin/bash
# The tournament benchmark of BENCHMARKS.md (make bench-tournament): the wall time of an
# 8-entrant round robin (each language's sample bot, twice) of Amazes and Drop the Block with one
# daemon and with two (`judge serve` processes sharing one NATS server), same tournament seed,
# warm build caches. Matches per minute are compared within this run. PIN=false runs the
# daemons without pinning their bots to a core.
set -eu
J=${JUDGE:-bin/judge}
DATA=${JUDGE_DATA_DIR:-judge-data}/bench-tournament
PORT=${PORT:-14222}
mkdir -p "$DATA"
entrants() { # game: a directory of 8 entrants
	local dir=$DATA/entrants-$1
	rm -rf "$dir" && mkdir -p "$dir"
	for l in cpp java go pascal; do cp -r "bots/$1/$l" "$dir/${l}1"; cp -r "bots/$1/$l" "$dir/${l}2"; done
	echo "$dir"
}
run() { # name daemons game
	local name=$1 n=$2 game=$3 dir
	dir=$(entrants "$game")
	rm -rf "$DATA/nats-$name"
	JUDGE_SANDBOX_PIN=${PIN:-true} JUDGE_DATA_DIR=$DATA/d1 JUDGE_NATS_LISTEN=127.0.0.1:$PORT JUDGE_NATS_STORE=$DATA/nats-$name \
		JUDGE_LOG_LEVEL=warn "$J" serve >"$DATA/serve1.log" 2>&1 &
	local s1=$! s2=
	sleep 3
	if [ "$n" = 2 ]; then
		JUDGE_SANDBOX_PIN=${PIN:-true} JUDGE_DATA_DIR=$DATA/d2 JUDGE_NATS_URL=nats://127.0.0.1:$PORT JUDGE_LOG_LEVEL=warn "$J" serve >"$DATA/serve2.log" 2>&1 &
		s2=$!
		sleep 3
	fi
	local t0 t1
	t0=$(date +%s.%N)
	JUDGE_DATA_DIR=$DATA/d1 JUDGE_NATS_URL=nats://127.0.0.1:$PORT "$J" tournament --game "$game" --name "$name" "$dir" >"$DATA/$name.txt" 2>"$DATA/$name.err"
	t1=$(date +%s.%N)
	kill $s1 $s2 2>/dev/null || true
	wait $s1 $s2 2>/dev/null || true
	echo "$game, $n daemon(s): $(echo "$t1 - $t0" | bc) s; $(grep -o '[0-9]*/[0-9]* matches  [0-9.]*/min' "$DATA/$name.err" | tail -1)"
}
# Both daemons build from a warm cache: the sample bots are compiled for each, first.
for d in d1 d2; do
	for g in amazes dropblock; do
		for l in cpp java go pascal; do JUDGE_DATA_DIR=$DATA/$d "$J" compile --game "$g" "bots/$g/$l" >/dev/null; done
	done
done
run amazes-1 1 amazes
run amazes-2 2 amazes
run dropblock-1 1 dropblock
run dropblock-2 2 dropblock
