#!/bin/sh
# Every command of trainplan with --format json through tests/cli/json-check (the
# envelope, README "Machine-readable output").  Usage: json-check.sh TRAINPLAN CHECKER
bin=$1; check=$2; pass=0; fail=0
small="--set model.layers=6 --set model.hidden=512 --set model.heads=8 --set model.kv_heads=4 \
--set model.ffn_hidden=2048 --set model.vocab=32000 --set nodes=2 --set gpus_per_node=8 --set tp=1 \
--set pp=1 --set dp=0 --set global_batch=32 --set seq_len=1000 --set cluster.gpu_memory=2GB"
tmp=${TMPDIR:-/tmp}/json-check.$$
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"
# one line each: COMMAND plan|noplan ARGUMENTS
while read -r cmd plan args; do
	[ -z "$cmd" ] && continue
	if eval "\"$bin\" $cmd $args --format json" > "$tmp/out" 2> "$tmp/err" || [ $? = 1 ]; then
		if "$check" "$cmd" "$plan" < "$tmp/out"; then pass=$((pass + 1)); continue; fi
	else
		cat "$tmp/err" >&2
	fi
	fail=$((fail + 1)); echo "FAIL: trainplan $cmd $args --format json" >&2
done <<LIST
memory plan
memory plan --plan plans/llama3-405b-h100.ini
comm plan
step plan
step plan --set parallel.schedule=interleaved --set parallel.vpp=2
run plan --plan plans/llama3-405b-h100.ini
bubble plan
bubble plan --all
bubble plan --p 2,4 --m 4,8
schedule plan --schedule zb-h1 --p 2 --m 2
search plan $small --top 2
search plan $small --top 2 --stats
search plan $small --gpus 2 --max-mb 1 --max-vpp 2 --max-cp 1 --all
get plan memory.total memory.fits step.mfu plan.recipe checkpoint.async run.days
get noplan --list
table plan memory-breakdown
table noplan --list
data plan bubble-curves
data noplan --list
presets noplan
presets noplan keys
presets noplan clusters recipes
validate noplan
compare noplan plans/default.ini tests/cli/include/deeper.ini
calibrate noplan $(cat tests/cli/calibrate-zero3.args | sed 's/^calibrate //')
LIST
# every catalog table and dataset, as table --all and data --all write them
for kind in table data; do
	rm -rf "$tmp/dir"
	"$bin" $kind --all --format json --dir "$tmp/dir" || { fail=$((fail + 1)); continue; }
	for f in "$tmp/dir"/*.json; do
		if "$check" $kind plan < "$f"; then pass=$((pass + 1)); else
			fail=$((fail + 1)); echo "FAIL: trainplan $kind --all: $(basename "$f")" >&2; fi
	done
done
echo "json envelope: $pass passed, $fail failed"
[ $fail -eq 0 ]
