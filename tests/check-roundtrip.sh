#!/bin/sh
# export then import gives the same split: for each framework and plan variant,
# `trainplan get` of the split on the plan and on the plan written back by
# `trainplan import` from `trainplan export`'s output must agree.  Each framework is
# compared on what its file says: torchtitan rounds the token budget to whole steps and
# has no ZeRO-1 (the cases use ZeRO-0 and ZeRO-3); DeepSpeed keeps no sequence length,
# and its SP and selective recomputation are the model code's (import keeps those of the
# base plan --plan names; the cases without a base leave them off).  torchtitan's local_batch_size is what a rank runs per forward and backward
# (torchtitan/train.py:212 at commit 238fa995: accumulation steps = global_batch_size /
# (local_batch_size x dp)): one micro-batch without PP, the pipeline's batch with it.
# Then every shipped plan (plans/*.ini) through every framework that can express it, with
# the plan as import's base (the cluster is no key of these files): the same memory per
# GPU, step time and parameters.
# deepseek-v3-h800.ini runs DualPipe, which Megatron-LM does not run and whose 4- and
# 3-layer stages torchtitan's two chunks per rank cannot take: it is checked under 1F1B,
# and not with DeepSpeed, whose config has no expert parallelism.  torchtitan has no
# ZeRO-1, so the plans run through it with ZeRO-3 (FSDP).  llama3-405b-h100.ini runs
# Meta's interleaved schedule, which DeepSpeed's pipeline engine does not: it goes
# through DeepSpeed under 1F1B.  torchtitan-py is current torchtitan's config_registry.py
# function, read back by import --from torchtitan: the plans whose model is a torchtitan
# flavor (deepseek-v3-h800, llama3-405b-h100); the others are refused.
bin=$1; pass=0; fail=0
split="plan.tp plan.pp plan.dp plan.cp plan.vpp plan.zero plan.micro_batch plan.global_batch plan.seq_len plan.schedule plan.recompute plan.gpus"
# torchtitan's selective recomputation is its per-op policy (selective_ac_option = "op",
# SelectiveAC), which import reads as op-sac: a plan with selective recomputation goes
# through torchtitan as op-sac where the model takes it (dense layers with MHA or GQA;
# docs/references.md §7.12), and export notes the change itself
titan_sac() { # prints the --set word for the plan of the arguments, or nothing
	case $("$bin" get plan.recompute "$@" 2>/dev/null) in
	*"= selective") "$bin" get plan.recompute "$@" --set recompute=op-sac >/dev/null 2>&1 && echo "--set recompute=op-sac" ;;
	esac
}
check() { # framework, keys, --set words...
	fw=$1; keys=$2; shift 2
	# shellcheck disable=SC2046
	case $fw in torchtitan*) set -- "$@" $(titan_sac "$@") ;; esac
	want=$("$bin" get $keys "$@" 2>&1)
	have=$("$bin" export --for "$fw" "$@" 2>/dev/null | "$bin" import --from "${fw%-py}" - | "$bin" get $keys --plan - 2>&1)
	case $want in *error*) want="" ;; esac
	if [ -n "$want" ] && [ "$want" = "$have" ]; then pass=$((pass + 1)); else
		fail=$((fail + 1)); echo "FAIL: export --for $fw $* | import" >&2
		printf 'plan:\n%s\nwritten back:\n%s\n' "$want" "$have" >&2
	fi
}
for v in "" "--set pp=4 --set vpp=5 --set schedule=interleaved --set dp=16" "--set zero=0 --set recompute=full" \
         "--set zero=3 --set pp=1 --set dp=64" "--set zero=2 --set pp=1 --set dp=64" \
         "--set layers_per_stage=9,10,10,10,10,10,10,11" "--set cp=2 --set dp=4 --set tp=8"; do
	# shellcheck disable=SC2086
	check megatron "$split plan.tokens plan.sp model.params plan.flash_attention" $v
done
# hybrid models (docs/references.md §5.14): --hybrid-layer-pattern and the Mamba-2 shape,
# the stages even, then as '|' segments (uneven stages and virtual stages), and with MoE
# layers (E)
for v in "--set model.preset=nemotron-h-56b --set tp=8 --set pp=2 --set dp=0" \
         "--set model.preset=nemotron-h-56b --set tp=4 --set pp=4 --set dp=0 --set vpp=6 --set schedule=interleaved --set account_embedding=yes --set account_loss=yes" \
         "--set model.preset=nemotron-h-8b --set tp=8 --set pp=4 --set dp=0 --set layers_per_stage=12,14,14,12" \
         "--set model.preset=nemotron-3-nano-30b-a3b --set tp=2 --set pp=1 --set dp=0 --set ep=8" \
         "--set model.preset=qwen3-next-80b-a3b --set tp=2 --set pp=4 --set dp=0 --set ep=8"; do
	# shellcheck disable=SC2086
	check megatron "$split model.params model.params_active memory.total step.time" $v
done
# an MoE split with the [moe] keys: --moe-token-dispatcher-type (flex with its backend),
# --overlap-moe-expert-parallel-comm, --moe-router-fusion, --moe-permute-fusion
for d in alltoall allgather deepep hybridep; do
	o=yes; [ $d = allgather ] && o=no
	check megatron "$split plan.moe_dispatcher plan.overlap_ep_comm model.experts parallel.ep" --set model.preset=mixtral-8x7b \
		--set tp=1 --set pp=1 --set dp=0 --set ep=8 --set recompute=selective --set moe.dispatcher=$d \
		--set moe.overlap_ep_comm=$o --set moe.router_fusion=yes --set moe.permute_fusion=yes
done
# fine-grained activation offloading: --fine-grained-activation-offloading --offload-modules
# --activation-offload-fraction (docs/references.md §2.14), with PP and an MoE model's modules
check megatron "$split memory.total memory.host step.time" --set pp=4 --set dp=16 --set recompute=selective \
	--set training.offload_modules=qkv_linear,core_attn,attn_proj --set training.offload_fraction=0.5
check megatron "$split memory.total memory.host step.time" --set model.preset=mixtral-8x7b --set tp=1 --set pp=2 \
	--set dp=0 --set ep=8 --set recompute=selective --set training.offload_modules=core_attn,mlp_norm,expert_fc1,moe_act
# the recipe: --bf16, --fp8-format, and --fp8-param-gather for TE's FP8 parameters
for r in megatron fp8-te fp8-params; do
	check megatron "$split plan.recipe" --set training.recipe=$r
done
for v in "--set zero=0" "--set zero=3 --set fsdp=yes --set pp=1 --set dp=64" "--set zero=3 --set fsdp=yes --set tp=4 --set dp=16" \
         "--set zero=0 --set pp=4 --set vpp=5 --set schedule=interleaved --set dp=16 --set recompute=full" \
         "--set zero=0 --set schedule=gpipe --set cp=2 --set dp=4"; do
	# shellcheck disable=SC2086
	check torchtitan "$split plan.sp" $v
done
# the recipe: mixed_precision_param and the Float8 converter
for r in torch-mp torch-mp-fp8 fp32; do
	check torchtitan "$split plan.recipe memory.total step.time" --set zero=0 --set training.recipe=$r
done
# current torchtitan's config_registry.py function (export --for torchtitan-py, read back by
# import --from torchtitan): num_tokens_per_microbatch_per_dp_rank / max_context_length is
# the micro-batch, num_tokens_per_train_step the global batch, num_pp_microbatches the
# pipeline's micro-batches; the model is a torchtitan flavor's (model_registry("70B"))
for v in "--set zero=0" "--set zero=3 --set fsdp=yes --set pp=1 --set dp=64" "--set zero=3 --set fsdp=yes --set tp=4 --set dp=16" \
         "--set zero=0 --set pp=4 --set vpp=5 --set schedule=interleaved --set dp=16 --set recompute=full" \
         "--set zero=0 --set schedule=gpipe --set cp=2 --set dp=4" "--set zero=0 --set recompute=none" \
         "--set zero=3 --set fsdp=yes --set hsdp=4" "--set zero=0 --set first_stage_less_layers=2 --set last_stage_less_layers=2" \
         "--set zero=0 --set sp=no"; do
	# shellcheck disable=SC2086
	check torchtitan-py "$split plan.sp memory.total step.time" --set model.preset=llama3-70b --set training.recipe=torch-mp $v
done
for r in torch-mp torch-mp-fp8 fp32; do
	check torchtitan-py "$split plan.recipe memory.total step.time" --set model.preset=llama3-8b --set tp=2 --set pp=1 \
		--set dp=0 --set zero=0 --set training.recipe=$r
done
for v in "--set recompute=none" "--set recompute=full --set zero=0" "--set zero=3 --set pp=1 --set dp=64 --set recompute=none" \
         "--set recompute=none --set cp=2 --set dp=4"; do
	# shellcheck disable=SC2086
	check deepspeed "$split" $v
done
# the pipeline layouts, the optimizer's dtypes and the rank order in Megatron-LM's flags:
# --pipeline-model-parallel-layout (torchtitan's first/last stage weights as the layout of
# the same placement), --account-for-embedding/loss-in-pipeline-split,
# --decoder-first/last-pipeline-num-layers,
# --use-precision-aware-optimizer with BF16 moments, --grad-reduce-in-bf16,
# --use-tp-pp-dp-mapping
for v in "--set pp=8 --set vpp=5 --set schedule=interleaved --set first_stage_less_layers=1 --set last_stage_less_layers=1" \
         "--set pp=2 --set dp=32 --set account_embedding=yes --set account_loss=yes" \
         "--set pp=4 --set dp=16 --set first_stage_layers=18 --set last_stage_layers=18" \
         "--set pp=4 --set dp=16 --set layout=Et*20|t*20|t*20|t*20L" \
         "--set training.recipe=adam-bf16" "--set training.main_grads=bf16 --set efficiency.grad_reduce=bf16" \
         "--set placement=tp-cp-pp-dp"; do
	# shellcheck disable=SC2086
	check megatron "$split plan.recipe model.params memory.total step.time" $v
done
# the overlap flags and CP's exchange: --overlap-grad-reduce / --overlap-param-gather
# (efficiency.dp_overlap; absent is Megatron-LM's default, none hidden), --tp-comm-overlap
# (efficiency.tp_overlap, whose share no flag carries: the base plan's, given with --plan),
# --cp-comm-type with --hierarchical-context-parallel-sizes (parallel.cp_comm, cp_a2a_size)
ov="$split efficiency.dp_overlap efficiency.tp_overlap comm.cp.time step.time memory.total"
for v in "--set efficiency.dp_overlap=0" "--set efficiency.dp_overlap=0 --set zero=0 --set cp=2 --set dp=4" \
         "--set cp=2 --set dp=4 --set tp=8 --set cp_comm=p2p" "--set cp=2 --set dp=4 --set tp=8 --set cp_comm=allgather" \
         "--set cp=8 --set dp=4 --set tp=2 --set cp_comm=a2a" \
         "--set cp=4 --set dp=2 --set tp=8 --set cp_comm=a2a+p2p --set cp_a2a_size=2"; do
	# shellcheck disable=SC2086
	check megatron "$ov" $v
done
for b in "tp_overlap = 0.5" "dp_overlap = 0.5"; do
	base="${TMPDIR:-/tmp}/roundtrip-overlap.$$.ini"
	printf '[efficiency]\n%s\n' "$b" > "$base"
	want=$("$bin" get $ov --plan "$base" 2>&1)
	have=$("$bin" export --for megatron --plan "$base" 2>/dev/null |
	       "$bin" import --from megatron - --plan "$base" 2>/dev/null | "$bin" get $ov --plan - 2>&1)
	rm -f "$base"
	if [ -n "$want" ] && [ "$want" = "$have" ]; then pass=$((pass + 1)); else
		fail=$((fail + 1)); printf 'FAIL: the overlap flags with a base plan of %s\nplan:\n%s\nwritten back:\n%s\n' \
			"$b" "$want" "$have" >&2
	fi
done
# NeMo 2 / Megatron-Bridge: run_recipe.py's overrides over the vanilla_gpt recipe, read back
# by import --from nemo.  Not expressible there, so not checked: BF16 Adam moments (torch
# dtypes set in the recipe), BF16 gradients (bf16_mixed sets grad_reduce_in_fp32 over DDP's,
# mixed_precision.py:142), FP8 with BF16 parameters (its FP8 recipes gather FP8 parameters,
# mixed_precision.py:231), multi-latent attention (the DeepSeek recipe, whose defaults are
# not read) and Megatron FSDP.
nemo="$split plan.recipe plan.sp model.params memory.total step.time efficiency.dp_overlap comm.cp.time"
for v in "" "--set pp=4 --set vpp=5 --set schedule=interleaved --set dp=16" "--set zero=0 --set recompute=full" \
         "--set cp=2 --set dp=4 --set tp=8" "--set cp=8 --set dp=4 --set tp=2 --set cp_comm=a2a" \
         "--set cp=4 --set dp=2 --set tp=8 --set cp_comm=a2a+p2p --set cp_a2a_size=2" \
         "--set layers_per_stage=9,10,10,10,10,10,10,11" "--set pp=2 --set dp=32 --set account_embedding=yes --set account_loss=yes" \
         "--set pp=4 --set dp=16 --set first_stage_layers=18 --set last_stage_layers=18" \
         "--set pp=4 --set dp=16 --set layout=Et*20|t*20|t*20|t*20L" "--set placement=tp-cp-pp-dp" \
         "--set training.recipe=fp32" "--set training.recipe=fp8-params" \
         "--set recompute=modules --set recompute_modules=core_attn,mlp" "--set efficiency.dp_overlap=0" \
         "--set model.preset=llama3-8b --set tp=2 --set pp=1 --set dp=0" \
         "--set model.preset=llama3.2-1b --set tp=2 --set pp=1 --set dp=0"; do
	# shellcheck disable=SC2086
	check nemo "$nemo" $v
done
# a model with tied embeddings (Llama 3.2 1B): Megatron-LM ties unless
# --untie-embeddings-and-output-weights
check megatron "$split model.params memory.total step.time" --set model.preset=llama3.2-1b --set tp=2 --set pp=1 --set dp=0
for d in alltoall allgather deepep hybridep; do
	check nemo "$split plan.moe_dispatcher plan.overlap_ep_comm model.experts parallel.ep memory.total step.time" \
		--set model.preset=mixtral-8x7b --set tp=1 --set pp=1 --set dp=0 --set ep=8 --set recompute=selective \
		--set moe.dispatcher=$d
done
# the block-scaled recipes, on a GPU that has them (the cluster is no key of the overrides:
# the base plan's)
for r in mxfp8 nvfp4; do
	base="${TMPDIR:-/tmp}/roundtrip-nemo.$$.ini"
	printf '[cluster]\ngpu = b200-180g\n[training]\nrecipe = %s\n' "$r" > "$base"
	want=$("$bin" get $nemo --plan "$base" 2>&1)
	have=$("$bin" export --for nemo --plan "$base" 2>/dev/null |
	       "$bin" import --from nemo - --plan "$base" 2>/dev/null | "$bin" get $nemo --plan - 2>&1)
	rm -f "$base"
	if [ -n "$want" ] && [ "$want" = "$have" ]; then pass=$((pass + 1)); else
		fail=$((fail + 1)); printf 'FAIL: export --for nemo | import with the recipe %s on B200\nplan:\n%s\nwritten back:\n%s\n' \
			"$r" "$want" "$have" >&2
	fi
done
# every shipped plan: memory, step time and parameters, with the plan as the base
same="memory.total step.time model.params"
check_plan() { # framework, plan, --set words...
	fw=$1; base=$2; shift 2
	# shellcheck disable=SC2046
	case $fw in torchtitan*) set -- "$@" $(titan_sac --plan "$base" "$@") ;; esac
	want=$("$bin" get $same --plan "$base" "$@" 2>&1)
	have=$("$bin" export --for "$fw" --plan "$base" "$@" 2>/dev/null | "$bin" import --from "${fw%-py}" - --plan "$base" 2>/dev/null |
	       "$bin" get $same --plan - 2>&1)
	case $want in *error*) want="" ;; esac
	if [ -n "$want" ] && [ "$want" = "$have" ]; then pass=$((pass + 1)); else
		fail=$((fail + 1)); echo "FAIL: export --for $fw --plan $base $* | import --plan $base" >&2
		printf 'plan:\n%s\nwritten back:\n%s\n' "$want" "$have" >&2
	fi
}
for p in plans/*.ini; do
	case $p in
	*deepseek-v3*) # DualPipe: Megatron-LM refuses it, the same model under 1F1B; DeepSpeed's
		# expert parallelism is the model code's (deepspeed.moe.layer.MoE ep_size), no key.
		# Other MoE layer patterns go as --moe-layer-freq 0/1 lists
		check_plan megatron "$p" --set schedule=1f1b
		check_plan megatron "$p" --set schedule=1f1b --set model.moe_every=2 --set model.first_dense=1
		check_plan megatron "$p" --set schedule=1f1b --set model.moe_every=4 --set model.first_dense=5 ;;
	*llama3-405b*) # Meta's interleaved schedule: DeepSpeed's pipeline engine runs 1F1B only,
		# and ZeRO-0 or -1 with pp > 1 (the plan's ZeRO-2 is Llama 3's FSDP)
		check_plan megatron "$p"
		check_plan deepspeed "$p" --set schedule=1f1b --set vpp=1 --set zero=1 ;;
	*)
		check_plan megatron "$p"
		check_plan deepspeed "$p" ;;
	esac
	# NeMo: not DeepSeek-V3 (multi-latent attention is the DeepSeek recipe's provider);
	# the 405B plan's ZeRO-2 is Llama 3's FSDP, which Megatron-Bridge's overrides do not write
	case $p in
	*deepseek-v3*) ;;
	*llama3-405b*) check_plan nemo "$p" --set zero=1 ;;
	*) check_plan nemo "$p" ;;
	esac
	# torchtitan runs its own recipe (FSDP2 mixed precision, torch-mp), which import sets
	# from mixed_precision_param: the plans go through it under torch-mp
	case $p in
	*deepseek-v3*) check_plan torchtitan "$p" --set zero=3 --set fsdp=yes --set schedule=1f1b --set training.recipe=torch-mp ;;
	*) check_plan torchtitan "$p" --set zero=3 --set fsdp=yes --set training.recipe=torch-mp ;;
	esac
	# current torchtitan's function names the model as a flavor of its family: the plans of
	# a torchtitan flavor round-trip, the others are refused (exit 2, nothing written)
	case $p in
	*deepseek-v3*) # and DeepEP and HybridEP, model_registry(moe_comm_backend="deepep" or "hybridep")
		check_plan torchtitan-py "$p" --set zero=3 --set fsdp=yes --set schedule=1f1b --set training.recipe=torch-mp
		for d in deepep hybridep; do
			check_plan torchtitan-py "$p" --set zero=3 --set fsdp=yes --set schedule=1f1b --set training.recipe=torch-mp \
				--set moe.dispatcher=$d
		done ;;
	*llama3-405b*) check_plan torchtitan-py "$p" --set zero=3 --set fsdp=yes --set training.recipe=torch-mp ;;
	*)
		out=$("$bin" export --for torchtitan-py --plan "$p" 2>/dev/null); rc=$?
		if [ $rc -eq 2 ] && [ -z "$out" ]; then pass=$((pass + 1)); else
			fail=$((fail + 1)); echo "FAIL: export --for torchtitan-py --plan $p: exit $rc, expected a refusal (exit 2)" >&2
		fi ;;
	esac
done
echo "roundtrip: $pass passed, $fail failed"
[ $fail -eq 0 ]
