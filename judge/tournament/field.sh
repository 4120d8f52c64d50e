#!/bin/bash
# The real field of BENCHMARKS.md's "standings you can trust" (make bench-field): eight Amazes
# entrants of a known order - the Python sample bot, each wasting 0, 20, 40, 60, 70, 80, 90 or
# 95 turns in a hundred (drawn by its own generator) by stepping back the way it came - played
# on the embedded default (one command, one machine), two ways:
#   until:  judge tournament --until-separated --top 3 (the round robin, then repetitions among
#           the contenders until the top three are separated at 95%, or the budget is spent)
#   repeat: judge tournament --rounds R, R = 1, 2, ... until the same holds (each R under the
#           same name, so that it plays only the repetition it adds: its ids and seeds are R-1's
#           and one repetition more)
# It prints the matches each needed. SEED picks the seeds (default 1); BUDGET bounds both
# (default 560 more matches than the schedule: ten repetitions).
set -eu
J=${JUDGE:-bin/judge}
DATA=${JUDGE_DATA_DIR:-judge-data}/bench-field
SEED=${SEED:-1}
BUDGET=${BUDGET:-560}
mkdir -p "$DATA"
dir=$DATA/entrants
rm -rf "$dir" && mkdir -p "$dir"
answer='        sys.stdout.write(answer + "\n")'
if ! grep -qF "$answer" bots/amazes/python/main.py; then
	echo "field.sh: the sample bot no longer writes its answer as expected" >&2
	exit 1
fi
for waste in 0 20 40 60 70 80 90 95; do
	mkdir -p "$dir/waste$waste"
	ANSWER=$answer awk -v w="$waste" '$0 == ENVIRON["ANSWER"] { print "        if next_random(100) < " w ":"; print "            answer = \"T\""; } { print }' \
		bots/amazes/python/main.py >"$dir/waste$waste/main.py"
done
export JUDGE_DATA_DIR=$DATA/d JUDGE_LOG_LEVEL=warn
rm -rf "$DATA/d/nats" # the results of a field of before (the builds' cache stays)
separated() { # a --json outcome: whether the top three are each above the next at 95%
	jq -e '[.standings[0:3][] | (.above_next // 0) >= 0.95] | all' "$1" >/dev/null
}
"$J" tournament --game amazes --name "until-$SEED" --seed "$SEED" --until-separated --top 3 --budget "$BUDGET" --json "$dir" \
	>"$DATA/until.json" 2>"$DATA/until.err"
until=$(jq '.matches' "$DATA/until.json")
if separated "$DATA/until.json"; then u="separated"; else u="not separated"; fi
echo "until-separated: $until matches, top three $u ($(jq -c '[.standings[] | .name]' "$DATA/until.json"))"
schedule=0
for r in $(seq 1 20); do
	"$J" tournament --game amazes --name "repeat-$SEED" --seed "$SEED" --rounds "$r" --json "$dir" \
		>"$DATA/repeat.json" 2>"$DATA/repeat.err"
	n=$(jq '.matches' "$DATA/repeat.json")
	[ "$r" = 1 ] && schedule=$n
	if separated "$DATA/repeat.json"; then
		echo "repeating the round robin: $n matches ($r repetitions), top three separated ($(jq -c '[.standings[] | .name]' "$DATA/repeat.json"))"
		exit 0
	fi
	if [ $((n - schedule)) -ge "$BUDGET" ]; then
		break
	fi
done
echo "repeating the round robin: not separated within $n matches ($r repetitions)"
