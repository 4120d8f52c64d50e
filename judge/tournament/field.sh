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
# It prints the matches each needed, seed by seed, and their sums. SEEDS are the seeds
# (default 1 to 5); BUDGET bounds both (default 560 more matches than the schedule: ten
# repetitions).
set -eu
J=${JUDGE:-bin/judge}
DATA=${JUDGE_DATA_DIR:-judge-data}/bench-field
SEEDS=${SEEDS:-1 2 3 4 5}
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
# field SEED: the matches each way needed for the seed's field (the budget's worth more when
# it did not separate), as "until repeat".
field() {
	local seed=$1 until n r schedule=0 u rr
	"$J" tournament --game amazes --name "until-$seed" --seed "$seed" --until-separated --top 3 --budget "$BUDGET" --json "$dir" \
		>"$DATA/until-$seed.json" 2>"$DATA/until-$seed.err"
	until=$(jq '.matches' "$DATA/until-$seed.json")
	if separated "$DATA/until-$seed.json"; then u="separated"; else u="not separated"; fi
	for r in $(seq 1 100); do
		"$J" tournament --game amazes --name "repeat-$seed" --seed "$seed" --rounds "$r" --json "$dir" \
			>"$DATA/repeat-$seed.json" 2>"$DATA/repeat-$seed.err"
		n=$(jq '.matches' "$DATA/repeat-$seed.json")
		[ "$r" = 1 ] && schedule=$n
		if separated "$DATA/repeat-$seed.json"; then
			rr="separated"
			break
		fi
		rr="not separated"
		[ $((n - schedule)) -ge "$BUDGET" ] && break
	done
	echo "seed $seed: until-separated $until matches ($u), repeating $n matches, $r round robins ($rr); order $(jq -c '[.standings[] | .name]' "$DATA/until-$seed.json")" >&2
	echo "$until $n"
}
t0=$(date +%s)
sum_u=0 sum_r=0 k=0
for seed in $SEEDS; do
	read -r u r < <(field "$seed")
	sum_u=$((sum_u + u)) sum_r=$((sum_r + r)) k=$((k + 1))
done
printf 'over %d seeds: until-separated %d matches, repeating the round robin %d: %.2fx fewer (%d s)\n' \
	"$k" "$sum_u" "$sum_r" "$(echo "$sum_r / $sum_u" | bc -l)" "$(($(date +%s) - t0))"
