#!/bin/sh
# Every flag or key `trainplan export` writes exists in the framework and takes the value
# given.  Megatron-LM: every flag `trainplan export --for megatron` writes exists and takes the
# value it is given: tests/export/megatron-args.txt lists Megatron-LM's flags with their
# kinds, read from its source at a pinned commit (the file says which).  A switch takes
# no value, int a whole number, float a number, str one word, list one or more words.
# The launcher's own flags (torchrun --nnodes, --nproc-per-node) are not Megatron-LM's.
bin=$1; defs=tests/export/megatron-args.txt; pass=0; fail=0
check() { # --set words...
	out=$("$bin" export --for megatron "$@" 2>&1) || { fail=$((fail + 1)); echo "FAIL: export --for megatron $*: $out" >&2; return; }
	bad=$(printf '%s\n' "$out" | awk -v defs="$defs" '
		BEGIN { while ((getline l < defs) > 0) if (l !~ /^#/) { split(l, f, " "); kind[f[1]] = f[2] } }
		/pretrain_(gpt|hybrid)\.py/ { on = 1; next }
		on {
			sub(/ \\$/, ""); sub(/^ +/, "")
			n = split($0, w, " "); flag = w[1]; nv = n - 1
			if (!(flag in kind)) { print "unknown flag " flag; next }
			k = kind[flag]; v = w[2]; gsub(/"/, "", v)
			if (k == "switch" && nv != 0) print flag " is a switch but has " nv " values"
			else if (k == "int" && (nv != 1 || v !~ /^-?[0-9]+$/)) print flag " takes an int, has: " $0
			else if (k == "float" && (nv != 1 || v !~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/)) print flag " takes a float, has: " $0
			else if (k == "str" && nv != 1) print flag " takes one word, has: " $0
			else if (k == "list" && nv < 1) print flag " takes one or more words, has none"
		}')
	if [ -z "$bad" ]; then pass=$((pass + 1)); else
		fail=$((fail + 1)); printf 'FAIL: export --for megatron %s:\n%s\n' "$*" "$bad" >&2
	fi
}
for p in plans/default.ini plans/llama2-70b-a100.ini plans/llama3-405b-h100.ini; do
	check --plan "$p"
done
check --plan plans/deepseek-v3-h800.ini --set schedule=1f1b
check --plan plans/deepseek-v3-h800.ini --set schedule=1f1b --set model.moe_every=2 --set model.first_dense=1
# layouts, virtual stages, recomputation, precision, dtypes, overlap, rank order, MoE
for v in "--set pp=8 --set vpp=5 --set schedule=interleaved --set first_stage_less_layers=1 --set last_stage_less_layers=1" \
         "--set pp=2 --set dp=32 --set account_embedding=yes --set account_loss=yes" \
         "--set pp=4 --set dp=16 --set vpp=2 --set schedule=interleaved" \
         "--set pp=4 --set dp=16 --set layout=Et*20|t*20|t*20|t*20L" \
         "--set layers_per_stage=9,10,10,10,10,10,10,11" \
         "--set recompute=full --set recompute_method=block --set recompute_num_layers=2" \
         "--set recompute=modules --set recompute_modules=core_attn,mlp" \
         "--set pp=4 --set dp=16 --set recompute=selective --set training.offload_modules=qkv_linear,core_attn,attn_proj --set training.offload_fraction=0.5" \
         "--set training.recipe=adam-bf16 --set training.main_grads=bf16 --set efficiency.grad_reduce=bf16" \
         "--set training.recipe=fp8-params --set efficiency.tp_overlap=0.5" \
         "--set placement=tp-cp-pp-dp" "--set zero=3 --set pp=1 --set dp=64" "--set cp=2 --set dp=4" "--set cp=4 --set dp=2 --set tp=8 --set cp_comm=a2a+p2p --set cp_a2a_size=2" \
         "--set model.preset=mixtral-8x7b --set tp=1 --set pp=1 --set dp=0 --set ep=8 --set moe.dispatcher=hybridep --set moe.overlap_ep_comm=yes --set moe.router_fusion=yes --set moe.permute_fusion=yes" \
         "--set model.preset=nemotron-h-56b --set tp=8 --set pp=2 --set dp=0" \
         "--set model.preset=nemotron-3-nano-30b-a3b --set tp=2 --set pp=1 --set dp=0 --set ep=8" \
         "--set model.preset=qwen3-next-80b-a3b --set tp=2 --set pp=4 --set dp=0 --set ep=8" \
         "--set model.preset=nemotron-h-56b --set tp=4 --set pp=4 --set dp=0 --set vpp=6 --set schedule=interleaved --set account_embedding=yes --set account_loss=yes"; do
	# shellcheck disable=SC2086
	check $v
done
# torchtitan: every key of the job TOML exists in tests/export/torchtitan-keys.txt (read
# from torchtitan/config/job_config.py at a pinned commit) under its table, with a value
# of its kind (a quoted string, one of a Literal's strings, true/false, a whole number,
# a number, [..])
tdefs=tests/export/torchtitan-keys.txt
check_tt() { # --set words...
	out=$("$bin" export --for torchtitan "$@" 2>&1) || { fail=$((fail + 1)); echo "FAIL: export --for torchtitan $*: $out" >&2; return; }
	bad=$(printf '%s\n' "$out" | awk -v defs="$tdefs" '
		BEGIN { while ((getline l < defs) > 0) if (l !~ /^#/) { split(l, f, " "); kind[f[1]] = f[2] } }
		/^#/ || /^$/ { next }
		/^\[.*\]$/ { t = substr($0, 2, length($0) - 2); next }
		{
			i = index($0, " = "); key = t "." substr($0, 1, i - 1); v = substr($0, i + 3)
			if (!(key in kind)) { print "unknown key " key; next }
			k = kind[key]
			if (k ~ /^str:/) {
				n = split(substr(k, 5), ch, ","); ok = 0
				for (j = 1; j <= n; j++) if (v == "\"" ch[j] "\"") ok = 1
				if (!ok) print key " takes one of " substr(k, 5) ", has " v
			} else if (k == "str" && v !~ /^".*"$/) print key " takes a string, has " v
			else if (k == "bool" && v != "true" && v != "false") print key " takes true or false, has " v
			else if (k == "int" && v !~ /^-?[0-9]+$/) print key " takes an int, has " v
			else if (k == "float" && v !~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/) print key " takes a number, has " v
			else if (k == "list" && v !~ /^\[.*\]$/) print key " takes a list, has " v
		}')
	if [ -z "$bad" ]; then pass=$((pass + 1)); else
		fail=$((fail + 1)); printf 'FAIL: export --for torchtitan %s:\n%s\n' "$*" "$bad" >&2
	fi
}
for p in plans/default.ini plans/llama2-70b-a100.ini plans/llama3-405b-h100.ini; do
	check_tt --plan "$p"
done
check_tt --plan plans/deepseek-v3-h800.ini --set schedule=1f1b
for v in "--set zero=0" "--set zero=3 --set fsdp=yes --set pp=1 --set dp=64" "--set zero=3 --set fsdp=yes --set tp=4 --set dp=16" \
         "--set zero=0 --set pp=4 --set vpp=5 --set schedule=interleaved --set dp=16 --set recompute=full" \
         "--set zero=0 --set schedule=gpipe --set cp=2 --set dp=4" "--set layers_per_stage=9,10,10,10,10,10,10,11" \
         "--set recompute=none" \
         "--set model.preset=llama3-8b --set training.recipe=torch-mp-fp8 --set tp=2 --set pp=1 --set dp=0 --set efficiency.tp_overlap=0.5" \
         "--set model.preset=mixtral-8x7b --set tp=1 --set pp=1 --set dp=0 --set ep=8 --set moe.dispatcher=deepep"; do
	# shellcheck disable=SC2086
	check_tt $v
done
# current torchtitan: every field of the config_registry.py function that export --for
# torchtitan-py writes exists in tests/export/torchtitan-py-fields.txt (read from
# torchtitan/config/configs.py, trainer.py and the families' model_registry at a pinned
# commit): Trainer.Config's keywords, the classes of training=, parallelism= and compile=
# and their fields with a value of the field's kind (True/False, a whole number, a
# number, a quoted string or one of a Literal's strings, [..]), and model_registry's
# keywords of the family the file imports it from
pdefs=tests/export/torchtitan-py-fields.txt
check_ttpy() { # --set words...
	out=$("$bin" export --for torchtitan-py "$@" 2>&1) || { fail=$((fail + 1)); echo "FAIL: export --for torchtitan-py $*: $out" >&2; return; }
	bad=$(printf '%s\n' "$out" | awk -v defs="$pdefs" '
		BEGIN { while ((getline l < defs) > 0) if (l !~ /^#/) { split(l, f, " "); kind[f[1]] = f[2] } }
		function val(key, v,   k, n, ch, j, ok) {
			if (!(key in kind)) { print "unknown field " key; return }
			k = kind[key]
			if (k ~ /^str:/) {
				n = split(substr(k, 5), ch, ","); ok = 0
				for (j = 1; j <= n; j++) if (v == "\"" ch[j] "\"") ok = 1
				if (!ok) print key " takes one of " substr(k, 5) ", has " v
			} else if (k == "str" && v !~ /^".*"$/) print key " takes a string, has " v
			else if (k == "bool" && v != "True" && v != "False") print key " takes True or False, has " v
			else if (k == "int" && v !~ /^-?[0-9]+$/) print key " takes an int, has " v
			else if (k == "float" && v !~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/) print key " takes a number, has " v
			else if (k == "list" && v !~ /^\[.*\]$/) print key " takes a list, has " v
		}
		# the keyword arguments of one call written on one line: NAME(ARGS)
		function args(prefix, call,   inner, d, c, i, part, n, parts, e) {
			inner = substr(call, index(call, "(") + 1); sub(/\),?$/, "", inner)
			n = 0; d = 0; part = ""
			for (i = 1; i <= length(inner); i++) {
				c = substr(inner, i, 1)
				if (c == "(" || c == "[") d++
				if (c == ")" || c == "]") d--
				if (c == "," && d == 0) { parts[++n] = part; part = ""; i++; continue }
				part = part c
			}
			if (part != "") parts[++n] = part
			for (i = 1; i <= n; i++) {
				e = index(parts[i], "=")
				if (e == 0) { if (i == 1 && prefix ~ /^model_registry/) val(prefix ".flavor", parts[i]); else print "a positional argument in " call; continue }
				val(prefix "." substr(parts[i], 1, e - 1), substr(parts[i], e + 1))
			}
		}
		/^from torchtitan\.models\.[a-z_0-9]+ import model_registry$/ { fam = $2; sub(/^torchtitan\.models\./, "", fam) }
		/^        [a-z_]+=/ {
			line = $0; sub(/^ +/, "", line); e = index(line, "="); key = substr(line, 1, e - 1); v = substr(line, e + 1)
			if (!(("Trainer.Config." key) in kind)) { print "unknown Trainer.Config field " key; next }
			k = kind["Trainer.Config." key]
			if (k != "any" && index(v, k "(") != 1) print "Trainer.Config." key " takes " k "(...), has " v
			if (k == "TrainingConfig") sec = "training"
			else if (k == "ParallelismConfig") sec = "parallelism"
			else if (k == "CompileConfig") sec = "compile"
			else sec = ""
			if (v ~ /\),$/ && sec != "") { args(sec, v); sec = "" }
			else if (v ~ /^model_registry\(/) args("model_registry." fam, v)
			next
		}
		/^            [a-z_]+=/ {
			if (sec == "") { print "a field outside a config class: " $0; next }
			line = $0; sub(/^ +/, "", line); sub(/,$/, "", line); e = index(line, "=")
			val(sec "." substr(line, 1, e - 1), substr(line, e + 1)); next
		}
		/^        \),$/ { sec = "" }')
	if [ -z "$bad" ]; then pass=$((pass + 1)); else
		fail=$((fail + 1)); printf 'FAIL: export --for torchtitan-py %s:\n%s\n' "$*" "$bad" >&2
	fi
}
check_ttpy --plan plans/llama3-405b-h100.ini
check_ttpy --plan plans/deepseek-v3-h800.ini --set schedule=1f1b --set moe.dispatcher=deepep
m="--set model.preset=llama3-70b"
for v in "--set zero=0" "--set zero=3 --set fsdp=yes --set pp=1 --set dp=64" "--set zero=3 --set fsdp=yes --set tp=4 --set dp=16" \
         "--set zero=0 --set pp=4 --set vpp=5 --set schedule=interleaved --set dp=16 --set recompute=full" \
         "--set zero=0 --set schedule=gpipe --set cp=2 --set dp=4" "--set recompute=none" "--set training.recipe=fp32" \
         "--set model.preset=llama3-8b --set training.recipe=torch-mp-fp8 --set tp=2 --set pp=1 --set dp=0 --set efficiency.tp_overlap=0.5"; do
	# shellcheck disable=SC2086
	check_ttpy $m $v
done
# NeMo 2 (Megatron-Bridge): every KEY=VALUE override exists in
# tests/export/megatron-bridge-keys.txt (ConfigContainer's sections read from Megatron-Bridge
# and its pinned Megatron-LM), with a value of its kind; null is taken for any key (the
# fields written null are Optional)
bdefs=tests/export/megatron-bridge-keys.txt
check_nemo() { # --set words...
	out=$("$bin" export --for nemo "$@" 2>&1) || { fail=$((fail + 1)); echo "FAIL: export --for nemo $*: $out" >&2; return; }
	bad=$(printf '%s\n' "$out" | awk -v defs="$bdefs" '
		BEGIN { while ((getline l < defs) > 0) if (l !~ /^#/) { split(l, f, " "); kind[f[1]] = f[2] } }
		/run_recipe\.py/ { on = 1; next }
		on && /^    --/ { next }
		on {
			sub(/ \\$/, ""); sub(/^ +/, ""); gsub(/'"'"'/, "")
			i = index($0, "="); key = substr($0, 1, i - 1); v = substr($0, i + 1)
			if (!(key in kind)) { print "unknown key " key; next }
			k = kind[key]
			if (v == "null" || k == "any") next
			if (k == "bool" && v != "true" && v != "false") print key " takes true or false, has " v
			else if (k == "int" && v !~ /^-?[0-9]+$/) print key " takes an int, has " v
			else if (k == "float" && v !~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/) print key " takes a number, has " v
			else if (k == "list" && v !~ /^\[.*\]$/) print key " takes a list, has " v
			else if (k == "str" && v == "") print key " takes a string, has none"
		}')
	if [ -z "$bad" ]; then pass=$((pass + 1)); else
		fail=$((fail + 1)); printf 'FAIL: export --for nemo %s:\n%s\n' "$*" "$bad" >&2
	fi
}
for p in plans/default.ini plans/llama2-70b-a100.ini; do
	check_nemo --plan "$p"
done
# the Llama 3.1 405B plan runs ZeRO-2 (Llama 3 §3.3.2's FSDP), which the NeMo file does not
# write (ZeRO-0 or -1, calc/frameworks.c): its degrees with the distributed optimizer
check_nemo --plan plans/llama3-405b-h100.ini --set zero=1
check_nemo --plan plans/deepseek-v3-h800.ini --set schedule=1f1b
for v in "--set pp=8 --set vpp=5 --set schedule=interleaved --set first_stage_less_layers=1 --set last_stage_less_layers=1" \
         "--set pp=2 --set dp=32 --set account_embedding=yes --set account_loss=yes" \
         "--set pp=4 --set dp=16 --set vpp=2 --set schedule=interleaved" \
         "--set pp=4 --set dp=16 --set first_stage_layers=18 --set last_stage_layers=18" \
         "--set recompute=full --set recompute_method=block --set recompute_num_layers=2" \
         "--set recompute=modules --set recompute_modules=core_attn,mlp" "--set recompute=none --set zero=0" \
         "--set training.recipe=fp8-te --set efficiency.tp_overlap=0.5 --set placement=tp-cp-pp-dp" \
         "--set model.preset=mixtral-8x7b --set tp=1 --set pp=1 --set dp=0 --set ep=8 --set moe.dispatcher=hybridep" \
         "--set cp=4 --set dp=2 --set tp=8 --set cp_comm=a2a+p2p --set cp_a2a_size=2"; do
	# shellcheck disable=SC2086
	check_nemo $v
done
# DeepSpeed: every key path of the config JSON is in tests/export/deepspeed-keys.txt (each
# with the file and line of DeepSpeed that reads it, at a pinned commit), with a value of
# its kind; export writes each object on one line
ddefs=tests/export/deepspeed-keys.txt
check_ds() { # --set words...
	out=$("$bin" export --for deepspeed "$@" 2>/dev/null) || { fail=$((fail + 1)); echo "FAIL: export --for deepspeed $*" >&2; return; }
	bad=$(printf '%s\n' "$out" | awk -v defs="$ddefs" '
		BEGIN { while ((getline l < defs) > 0) if (l !~ /^#/) { split(l, f, " "); kind[f[1]] = f[2] } }
		function val(key, v,   k) {
			sub(/[,}]*$/, "", v); gsub(/^ +| +$/, "", v)
			if (!(key in kind)) { print "unknown key " key; return }
			k = kind[key]
			if (k == "bool" && v != "true" && v != "false") print key " takes true or false, has " v
			else if (k == "int" && v !~ /^[0-9]+$/) print key " takes an int, has " v
			else if (k == "str" && v !~ /^".*"$/) print key " takes a string, has " v
		}
		/^  "/ {
			line = $0; sub(/^  "/, "", line); i = index(line, "\""); top = substr(line, 1, i - 1)
			rest = substr(line, i + 3)
			if (rest !~ /^\{/) { val(top, rest); next }
			rest = substr(rest, 2)
			while (match(rest, /"[a-z_0-9]+": [^,}]+/)) {
				pair = substr(rest, RSTART, RLENGTH); rest = substr(rest, RSTART + RLENGTH)
				j = index(pair, "\": "); val(top "." substr(pair, 2, j - 2), substr(pair, j + 3))
			}
		}')
	if [ -z "$bad" ]; then pass=$((pass + 1)); else
		fail=$((fail + 1)); printf 'FAIL: export --for deepspeed %s:\n%s\n' "$*" "$bad" >&2
	fi
}
for p in plans/default.ini plans/llama2-70b-a100.ini; do
	check_ds --plan "$p"
done
# Meta's interleaved schedule: DeepSpeed's pipeline engine runs 1F1B only, and with
# pp > 1 ZeRO-0 or -1 only (the plan's ZeRO-2 is Llama 3's FSDP)
check_ds --plan plans/llama3-405b-h100.ini --set schedule=1f1b --set vpp=1 --set zero=1
for v in "--set recompute=full --set zero=0 --set partition_activations=yes" "--set zero=3 --set pp=1 --set dp=64" \
         "--set cp=2 --set dp=4" "--set training.main_grads=bf16 --set efficiency.grad_reduce=bf16" \
         "--set training.recipe=fp32 --set recompute=full --set cpu_checkpointing=yes"; do
	# shellcheck disable=SC2086
	check_ds $v
done
echo "export-flags: $pass passed, $fail failed"
[ $fail -eq 0 ]
