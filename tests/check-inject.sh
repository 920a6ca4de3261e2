#!/bin/sh
# Hostile text and sizes given to trainplan's own commands (docs/architecture.md §8):
# text written into another language (a shell script, TOML, YAML, Markdown) stays text
# in it, a file of the wrong kind or format is refused without quoting its bytes, and
# work with a size known up front is refused before it starts.  The inputs are
# generated here: a file name with a newline cannot be a file of the repository.
# usage: check-inject.sh TRAINPLAN
bin=$1; pass=0; fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/trainplan-inject.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "inject: FAIL: $*" >&2; }
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
root=$(pwd)

# 1. export: a plan whose folder name holds a newline, a command substitution, backticks,
#    quotes and an ESC.  The name stays inside the comment of each output: the launch
#    script runs no command of it, and the one line that names the file shows the
#    control characters as \xHH.
evil=$(printf 'x\ntouch PWNED-1\n$(touch PWNED-2)`touch PWNED-3`"q'"'"'\033[31m')
mkdir -p "$tmp/$evil" && cp plans/default.ini "$tmp/$evil/p.ini"
shown='x\x0Atouch PWNED-1\x0A$(touch PWNED-2)`touch PWNED-3`"q'"'"'\x1B[31m/p.ini'
for fw in megatron nemo torchtitan; do
	(cd "$tmp" && timeout 20 "$bin" export --for $fw --plan "$evil/p.ini" >"out.$fw" 2>/dev/null); rc=$?
	first=$(head -n 1 "$tmp/out.$fw")
	case $first in
	"# "*" for $shown: tp "*) [ $rc -eq 0 ] && ok || bad "export --for $fw: exit $rc" ;;
	*) bad "export --for $fw: first line '$first'" ;;
	esac
	# no output line but the first mentions the name; no control byte but newline
	[ "$(grep -c 'PWNED' "$tmp/out.$fw")" -eq 1 ] && ok || bad "export --for $fw: the name outside its comment"
	[ "$(tr -d '\n' < "$tmp/out.$fw" | tr -d '\040-\176' | LC_ALL=C tr -d '\200-\377' | wc -c)" -eq 0 ] \
		&& ok || bad "export --for $fw: a control byte in the output"
done
# the Megatron-LM and Megatron-Bridge (NeMo 2) scripts, run: no file is made
for fw in megatron nemo; do
	(cd "$tmp" && sh "out.$fw" >/dev/null 2>&1)
	[ ! -e "$tmp/PWNED-1" ] && [ ! -e "$tmp/PWNED-2" ] && [ ! -e "$tmp/PWNED-3" ] && ok \
		|| bad "export --for $fw: the launch script ran the name"
done
# the comment is one line, the launch line follows it; the TOML's first table is expected
case $(sed -n 2p "$tmp/out.nemo") in "torchrun "*) ok ;; *) bad "export --for nemo: line 2 '$(sed -n 2p "$tmp/out.nemo")'" ;; esac
grep -q '^\[training\]$' "$tmp/out.torchtitan" && [ "$(grep -c '^[^#]' "$tmp/out.torchtitan" | tr -d ' ')" -gt 5 ] \
	&& ! grep -q '^[^#[].*PWNED' "$tmp/out.torchtitan" && ok || bad "export --for torchtitan: the name outside its comment"
# the JSON output (DeepSpeed) has no comment: the name is not in it
(cd "$tmp" && timeout 20 "$bin" export --for deepspeed --plan "$evil/p.ini" >out.deepspeed 2>/dev/null); rc=$?
[ $rc -eq 0 ] && ! grep -q PWNED "$tmp/out.deepspeed" && ok || bad "export --for deepspeed: exit $rc"

# 2. report --compare: a plan title with an inline value (`=...`), a table bar, a link,
#    raw HTML, an anchor, an image and emphasis is shown as its characters in the key of
#    plans (one list item), runs nothing and breaks no table.
cp plans/default.ini "$tmp/a.ini"
printf '[plan]\ntitle = T0 `=search.best.tp` | [l](javascript:x) <script>y</script> {#id} ![i](bubble-curves) *b* _c_ ~d~ &amp; \\\\\n' > "$tmp/t.ini"
want='<li><strong>B</strong>: T0 `=search.best.tp` | [l](javascript:x) &lt;script&gt;y&lt;/script&gt; {#id} ![i](bubble-curves) *b* _c_ ~d~ &amp;amp; \\ (t.ini)</li>'
(cd "$tmp" && timeout 120 "$bin" report --compare a.ini t.ini -o rep --no-pdf >/dev/null 2>err); rc=$?
if [ $rc -eq 0 ] && grep -qF "$want" "$tmp/rep/compare.html" && ! grep -q '<script>\|href="javascript' "$tmp/rep/compare.html" &&
   [ "$(grep -c '^- \*\*B\*\*: T0 ' "$tmp/rep/compare.md")" -eq 1 ]; then ok
else bad "report --compare with a hostile title: exit $rc: $(head -c 300 "$tmp/err")"; fi
# a file name with '|' and a backtick: shown whole in the key
mkdir -p "$tmp/b|\`=1\`" && cp plans/default.ini "$tmp/b|\`=1\`/p.ini"
(cd "$tmp" && timeout 120 "$bin" report --compare a.ini "b|\`=1\`/p.ini" -o rep2 --no-pdf >/dev/null 2>err); rc=$?
[ $rc -eq 0 ] && grep -qF '(b|`=1`/p.ini)</li>' "$tmp/rep2/compare.html" && ok \
	|| bad "report --compare with a hostile file name: exit $rc: $(head -c 300 "$tmp/err")"

# 2b. the report wrapper's output folder goes into gnuplot commands: a quote or a newline
#     in it is refused before the folder is made
mkdir "$tmp/wrapdir"
for o in "$(printf 'p\n!touch PWNED-4\n')" "q'x"; do
	got=$(cd "$tmp/wrapdir" && timeout 20 "$bin" report "$root/plans/default.ini" -o "$o" --no-pdf 2>&1 >/dev/null); rc=$?
	[ $rc -eq 2 ] && [ "$got" = "trainplan: error: report: the output folder may not contain a quote (') or a control character" ] &&
		[ -z "$(ls "$tmp/wrapdir")" ] && ok || bad "report -o with a quote or newline: exit $rc: $got: $(ls "$tmp/wrapdir")"
done

# 3. plan text values: a title with an ESC (a terminal command) or invalid UTF-8 from
#    --set is refused at --set, its bytes not quoted (tests/bad has the same in files)
got=$("$bin" get plan.title --plan plans/default.ini --set "plan.title=$(printf 'a\033]0;x\007')" 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$got" = "trainplan: --set: error[E014]: plan.title: byte 2 (0x1B) is a control character or not UTF-8 (allowed: UTF-8 text without control characters)" ] \
	&& ok || bad "--set plan.title with ESC: exit $rc: $got"

# 4. calibrate: what it reads is a regular text file of bounded size; a key it cannot fit
#    is refused; work with a size known up front is bounded before it starts.  Each case:
#    exit status 2 and exactly this message, at once (a 10 s limit).
csv=tests/cli/calibrate-b200.csv
fit="--fit efficiency.gemm:0.3:1 --set cluster.preset=hgx-b200-ndr"
mkfifo "$tmp/fifo"
{ sed -n 2,3p $csv; printf 'llama3-8b,32,1,1,1,1,8,1,1f1b,128,2,no,24\0000\n'; } > "$tmp/nul.csv"
{ sed -n 2,3p $csv; printf 'llama3-8b,32,1,1,1,1,8,1,1f1b,128,2,no,2\033[2J4\n'; } > "$tmp/esc.csv"
sed -n 2p $csv | sed 's/,tokens_per_s$/,parallel.tp,tokens_per_s/' > "$tmp/dup.csv"
{ sed -n 2p $csv; i=0; while [ $i -lt 1030 ]; do sed -n 3p $csv; i=$((i + 1)); done; } > "$tmp/many.csv"
head -n 201 "$tmp/many.csv" > "$tmp/m200.csv"
printf 'name,tokens_per_s\na,1e400\n' > "$tmp/inf.csv"
printf 'name,tokens_per_s\n' > "$tmp/big.csv"
awk 'BEGIN { for (i = 0; i < 200000; i++) print "run-with-a-long-name-" i ",1000" }' >> "$tmp/big.csv"
while IFS='|' read -r args want; do
	got=$(cd "$tmp" && eval "timeout 10 \"$bin\" calibrate $args" 2>&1 >/dev/null); rc=$?
	[ $rc -eq 2 ] && [ "$got" = "$want" ] && ok || bad "calibrate $args: exit $rc: $got"
done <<CASES
--measurements . $fit|trainplan: .: error: cannot read the measurements file: a directory, not a file
--measurements fifo $fit|trainplan: fifo: error: cannot read the measurements file: a FIFO, not a regular file
--measurements /dev/zero $fit|trainplan: /dev/zero: error: cannot read the measurements file: a device, not a regular file
--megatron-log /dev/zero $fit|trainplan: /dev/zero: error: cannot read the training log: a device, not a regular file
--measurements nul.csv $fit|trainplan: nul.csv:3: error: column 42: byte 0x00: the measurements file is UTF-8 text without NUL bytes or control characters
--measurements esc.csv $fit|trainplan: esc.csv:3: error: column 41: byte 0x1B: the measurements file is UTF-8 text without NUL bytes or control characters
--measurements dup.csv $fit|trainplan: dup.csv:1: error: column 13: parallel.tp is also column 4 (a column is named once)
--measurements many.csv $fit|trainplan: many.csv:1026: error: more than 1024 measured runs (the most calibrate fits at once)
--measurements big.csv $fit|trainplan: big.csv: error: more than 4194304 bytes: the measurements file is larger than calibrate reads (at most 1024 runs)
--measurements - $fit < big.csv|trainplan: -: error: more than 4194304 bytes: the measurements file is larger than calibrate reads (at most 1024 runs)
--measurements m200.csv $fit --holdout loo|trainplan: error: calibrate: --holdout loo: 200 runs in each of the folds + 1 fits are more than 16384 run fits in all (the bound of (folds + 1) x runs): use kfold:K with K <= 80
--measurements m200.csv $fit --holdout kfold:99999999999999999999|trainplan: error: calibrate: --holdout kfold:99999999999999999999: 200 runs in each of the folds + 1 fits are more than 16384 run fits in all (the bound of (folds + 1) x runs): use kfold:K with K <= 80
--measurements inf.csv $fit|trainplan: inf.csv:2: error: tokens_per_s = '1e400' is not a positive finite number
--measurements $root/$csv --fit efficiency.gemm:0.3:1e400|trainplan: error: calibrate: 'efficiency.gemm': a bound is not a finite number
--measurements $root/$csv --fit efficiency.gemm:-1e400:1|trainplan: error: calibrate: 'efficiency.gemm': a bound is not a finite number
--measurements $root/$csv --fit efficiency.gemm,efficiency.gemm|trainplan: error: calibrate: --fit names efficiency.gemm twice
--measurements $root/$csv --fit plan.title|trainplan: error: calibrate: plan.title is a key of type text: only number keys are fitted (fraction, number, seconds, bytes, bytes/s)
--measurements $root/$csv --fit parallel.sp|trainplan: error: calibrate: parallel.sp is a key of type bool: only number keys are fitted (fraction, number, seconds, bytes, bytes/s)
--measurements $root/$csv --fit efficiency.no_such_key|trainplan: error: calibrate: 'efficiency.no_such_key' is not a plan key (\`trainplan presets keys\` lists them)
CASES
# a measurements file whose model.hf_config column names a file that is not JSON (a
# secrets file): refused at that file's line, its bytes not quoted
printf 'SECRET-TOKEN-1: {root:x}\n' > "$tmp/sec.txt"
printf 'name,model.hf_config,tokens_per_s\na,sec.txt,1000\nb,sec.txt,2000\n' > "$tmp/hf.csv"
got=$(cd "$tmp" && timeout 10 "$bin" calibrate --measurements hf.csv --fit efficiency.gemm 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] && [ "$got" = "$(printf "trainplan: sec.txt:1: error[E019]: config.json is not valid JSON: '[' or '{' expected (column 6; the text there is not shown)\ntrainplan: hf.csv:2: error: calibrate: a: the run's plan does not load")" ] \
	&& ok || bad "calibrate with an hf_config column naming a secrets file: exit $rc: $got"
# a key no measured value depends on (expert overlap in a dense model) is not identifiable:
# refused, not returned as the middle of its bounds with an uncertainty of 0
args=$(sed 's#efficiency.gemm,efficiency.attention#efficiency.gemm,efficiency.ep_overlap:0:1#' tests/cli/calibrate-torchtitan.args)
got=$(eval "timeout 20 \"$bin\" $args" 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] && [ "$got" = "trainplan: tests/cli/calibrate-torchtitan.csv: error: calibrate: no measured value of the fitted runs depends on efficiency.ep_overlap (it is not identifiable from these runs: fit other keys, or add runs it affects)" ] \
	&& ok || bad "calibrate with a key nothing depends on: exit $rc: $got"
# --write-stack from a measurements file whose name holds a newline and a plan line: the
# fragment is its comment and the fitted key, nothing else
m=$(printf 'm\n[parallel]\ntp = 3\n.csv')
cp $csv "$tmp/$m"
args=$(sed 's#tests/cli/calibrate-b200.csv#"$m"#' tests/cli/calibrate-b200.args)
(cd "$tmp" && eval "timeout 20 \"$bin\" $args --write-stack stack.ini" >/dev/null 2>&1); rc=$?
if [ $rc -eq 0 ] && [ "$(sed -n 1p "$tmp/stack.ini")" = '# efficiency keys fitted by trainplan calibrate to m\x0A[parallel]\x0Atp = 3\x0A.csv' ] &&
   [ "$(grep -c '' "$tmp/stack.ini")" -eq 3 ] && ! grep -q '^\[parallel\]' "$tmp/stack.ini"; then ok
else bad "calibrate --write-stack with a newline in the file name: exit $rc: $(cat "$tmp/stack.ini" 2>/dev/null)"; fi

# 4a. what a spreadsheet or a terminal would run: run names that start a formula get an
#     apostrophe in CSV (OWASP "CSV Injection"), a file name's ESC is shown as \x1B in
#     text, CSV and TSV
printf 'name,model.preset,cluster.nodes,parallel.tp,parallel.pp,parallel.cp,parallel.dp,parallel.vpp,parallel.schedule,training.global_batch,training.micro_batch,holdout,tokens_per_s\n=HYPERLINK("http://x"),llama3-8b,1,1,1,1,8,1,1f1b,128,2,no,244992\n@SUM(1),llama3-8b,1,2,1,1,4,1,1f1b,128,2,no,204992\n+cmd|x,llama3-8b,1,4,1,1,2,1,1f1b,128,2,yes,164992\n' > "$tmp/f.csv"
got=$(cd "$tmp" && timeout 20 "$bin" calibrate --measurements f.csv --fit efficiency.gemm:0.3:1 --set cluster.preset=hgx-b200-ndr \
	--set seq_len=8192 --format csv --table calibration-runs 2>&1 | cut -d, -f1 | tr -d '\r' | tr '\n' ' ')
[ "$got" = "run \"'=HYPERLINK(\"\"http://x\"\")\" '@SUM(1) '+cmd|x " ] && ok || bad "calibrate CSV with formula names: $got"
e=$(printf 'e\033[31m')
mkdir -p "$tmp/$e" && cp plans/default.ini "$tmp/$e/p.ini"
for f in text csv tsv md; do
	out=$(cd "$tmp" && timeout 20 "$bin" compare a.ini "$e/p.ini" --format $f 2>&1)
	if printf '%s' "$out" | grep -q "$(printf '\033')"; then bad "compare --format $f: an ESC in the output"
	elif printf '%s' "$out" | grep -qF 'e\x1B[31m/p.ini'; then ok
	else bad "compare --format $f: the file name is not shown: $(printf '%s' "$out" | head -n 3)"; fi
done

# 4a'. messages: an ESC in an argument, a file name or a plan's key is shown as \x1B
printf '[model]\n\033[31mkey = 1\n' > "$tmp/esckey.ini"
for c in "export --for $(printf 'x\033[2J')|trainplan: error: export: unknown framework 'x\\x1B[2J': allowed are megatron, nemo, torchtitan, torchtitan-py, deepspeed" \
         "memory --plan esckey.ini|trainplan: esckey.ini:2: error[E006]: unknown key '\\x1B[31mkey' in [model]" \
         "memory --plan $(printf 'n\033]0;t\007').ini|trainplan: n\\x1B]0;t\\x07.ini: error[E001]: cannot open the plan: No such file or directory"; do
	args=${c%%|*}; want=${c#*|}
	got=$(cd "$tmp" && timeout 10 "$bin" $args 2>&1 >/dev/null); rc=$?
	case $got in
	*"$(printf '\033')"*) bad "$args: an ESC in the message" ;;
	"$want"*) [ $rc -eq 2 ] && ok || bad "$args: exit $rc" ;;
	*) bad "$args: exit $rc: $got" ;;
	esac
done

# 4b. sizes known before the work are refused before it, at once and in little memory;
#     the gantt chart of 1F1B, p = 8, m = 4096, T_F = 1 s, T_B + T_W = 2 s: a makespan of
#     (m + p - 1) x 3 = 12,309 s, 5-byte cells of 1 us: 8 x 12,309e6 x 5 = 4.92e11 bytes
#     (a 10 s limit and 512 MB of address space on top of the program's own)
while IFS='|' read -r args want; do
	got=$( (ulimit -v 1048576; eval "timeout 10 \"$bin\" $args" 2>&1 >/dev/null) ); rc=$?
	[ $rc -eq 2 ] && [ "$got" = "$want" ] && ok || bad "$args: exit $rc: $got"
done <<CASES
schedule --m 1048576|trainplan: error: schedule: p = 8, m = 1048576, v = 1 give at least 16777216 ops (2 x p x m x v), one row each: at most 1048576 rows
schedule --m 65536 --p 64|trainplan: error: schedule: p = 64, m = 65536, v = 1 give at least 8388608 ops (2 x p x m x v), one row each: at most 1048576 rows
schedule --format gantt --unit 1e-300|trainplan: error: schedule --format gantt: 8 stages in cells of 1e-300 s make a chart of 1.91e+304 bytes: at most 16777216 (a larger --unit, at least 0.00114 s)
schedule --format gantt --unit 1e-6 --m 4096|trainplan: error: schedule --format gantt: 8 stages in cells of 1e-06 s make a chart of 4.92e+11 bytes: at most 16777216 (a larger --unit, at least 0.0293 s)
step --set training.global_batch=8388608 --set training.micro_batch=1|trainplan: error: pipeline: 3 ops x p x m x v x steps = 3 x 8 x 1048576 x 1 x 1 = 25165824 ops: at most 4194304 can be simulated (p = parallel.pp, m = training.global_batch / (training.micro_batch x dp), v = parallel.vpp)
search --set cluster.nodes=13860 --set dp=0 --set pp=1 --set global_batch=110880 --max-mb 1024 --max-cp 1048576 --max-vpp 64 --top 1|trainplan: plans/default.ini: error: search: 28953600 splits to evaluate (recipes x GPU counts x tp x pp x cp x ep x etp x micro-batch sizes): at most 4194304; lower --max-mb (1024), --max-cp (1048576) or name fewer --gpus
CASES

# 5. the report wrapper (trainplan report) sent SIGTERM or SIGHUP while its steps run
#    (trainplan data, gnuplot, trainplan table, trainplan-report): it passes the signal
#    on, ends by it, and leaves no temporary and no step of its own running
procs_of() { for p in /proc/[0-9]*; do { tr '\0' ' ' < "$p/cmdline"; } 2>/dev/null | grep -qF "$1" && echo "${p#/proc/}"; done; }
for case in TERM:0.3 TERM:1.5 HUP:3; do
	sig=${case%:*}; delay=${case#*:}; dir="$tmp/wrap-$sig-$delay"
	"$bin" report plans/default.ini -o "$dir" --no-pdf >/dev/null 2>&1 &
	pid=$!
	sleep "$delay"
	kill -"$sig" $pid 2>/dev/null
	{ wait $pid; } 2>/dev/null; rc=$?
	sleep 0.3
	left=$(find "$dir" -name '*.tmp*' 2>/dev/null); running=$(procs_of "$dir")
	case $sig.$rc in TERM.143|HUP.129|*.0) ended=1 ;; *) ended=0 ;; esac
	[ $ended = 1 ] && [ -z "$left" ] && [ -z "$running" ] && ok \
		|| bad "report SIG$sig after $delay s: exit $rc, left: $left, running: $running"
done

echo "hostile inputs of trainplan: $pass passed, $fail failed"
[ $fail -eq 0 ]
