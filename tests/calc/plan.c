/*
 * tests/calc/plan.c -- plan loading, overrides, units and derived values.
 */
#include "testutil.h"
#include "../../calc/files.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A change of two degrees that keeps tp x pp x dp = GPUs is valid only as a whole:
 * pp 8 -> 16 with dp 8 -> 4 on 512 GPUs (8 x 16 x 4 = 512). */
static void test_set_many(void **state)
{
	struct calc_plan p;
	struct calc_diag d = {0};
	const char *both[] = {"pp=16", "dp=4"};
	load_plan(&p, NULL, 0);
	assert_int_equal(calc_plan_set(&p, "pp=16", "test", &d), -1); /* 8 x 16 x 8 = 1024 != 512 */
	assert_non_null(strstr(d.text, "1024"));
	calc_diag_free(&d);
	load_plan(&p, NULL, 0);
	assert_int_equal(calc_plan_set_many(&p, both, 2, "test", &d), 0);
	assert_int_equal(p.pp, 16);
	assert_int_equal(p.dp, 4);
	assert_int_equal(p.layers_per_stage[15], 5); /* 80 layers / 16 stages, re-derived */
	assert_int_equal(calc_plan_microbatches(&p), 1536 / 4);
	calc_diag_free(&d);
}

/* Units: 400 Gb/s = 50e9 B/s; 80 GiB = 80 x 2^30 B; 5 us; 300e9 tokens and 1.5T. */
static void test_units(void **state)
{
	double v;
	assert_int_equal(calc_parse_number("400 Gb/s", CALC_U_BYTES_S, &v), 0);
	assert_near(v, 50e9, 0);
	assert_int_equal(calc_parse_number("80 GiB", CALC_U_BYTES, &v), 0);
	assert_near(v, 80.0 * 1073741824.0, 0);
	assert_int_equal(calc_parse_number("5 us", CALC_U_SECONDS, &v), 0);
	assert_near(v, 5e-6, 1e-12);
	assert_int_equal(calc_parse_number("1.5T", CALC_U_NONE, &v), 0);
	assert_near(v, 1.5e12, 0);
	assert_int_equal(calc_parse_number("85%", CALC_U_FRACTION, &v), 0);
	assert_near(v, 0.85, 1e-12);
	assert_int_equal(calc_parse_number("80 GX", CALC_U_BYTES, &v), -1);
	assert_int_equal(calc_parse_number("GB", CALC_U_BYTES, &v), -1);
	assert_int_equal(calc_parse_number("nan", CALC_U_NONE, &v), -1);
}

/* Derived values: dp = 0 derives GPUs / (tp pp cp); a GPU preset sets usable memory
 * unless cluster.gpu_memory is given; an uneven split is kept as given. */
static void test_derived(void **state)
{
	struct calc_plan p;
	const char *a[] = {"dp=0", "tp=4", "pp=4"};
	const char *b[] = {"cluster.gpu=a100-40g"};
	const char *c[] = {"cluster.gpu=a100-40g", "gpu_memory=32 GiB"};
	const char *u[] = {"pp=4", "dp=0", "layers_per_stage=19,21,20,20"};
	load_plan(&p, a, 3);
	assert_int_equal(p.dp, 512 / 16);
	load_plan(&p, b, 1);
	assert_near(p.gpu_memory, 39.59 * 1073741824.0, 1e-12);
	load_plan(&p, c, 2);
	assert_near(p.gpu_memory, 32.0 * 1073741824.0, 0);
	load_plan(&p, u, 3);
	assert_int_equal(p.layers_per_stage[0], 19);
	assert_int_equal(p.layers_per_stage[1], 21);
}

/* Line order does not matter: a preset applies before explicit keys even when the
 * key comes first in the file. */
static void test_preset_order(void **state)
{
	struct calc_plan p;
	const char *s[] = {"model.layers=40", "model.preset=llama2-70b", "pp=4", "dp=0"};
	load_plan(&p, s, 4);
	assert_int_equal(p.model.layers, 40);
	assert_int_equal(p.model.hidden, 8192);
}

/* Load 'text' as a plan file; fails the test on a diagnostic. */
static void load_file_text(struct calc_plan *p, const char *text, const char *const *sets, int n)
{
	char path[] = "/tmp/trainplan-plan-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	struct calc_diag d = {0};
	int rc = calc_plan_load(p, path, sets, n, &d);
	if (rc != 0)
		print_error("%s", d.text ? d.text : "");
	calc_diag_free(&d);
	remove(path);
	assert_int_equal(rc, 0);
}

/* A preset the user names keeps its values against the built-in default plan's, and
 * the user's own keys win over the preset (calc/plan.c default_under_user_preset).
 * An NVL72 rack is one NVLink domain of 72 GPUs (NVIDIA GB200 NVL72: 72 Blackwell GPUs,
 * 18 compute trays of 4), which the default plan's gpus_per_node = 8 must not undo; a
 * DGX A100 is priced at its preset's 1.50 per GPU-hour, not the default plan's 2.50. */
static void test_preset_over_default(void **state)
{
	struct calc_plan p;
	struct calc_diag d = {0};
	char path[] = "/tmp/trainplan-nvl-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs("[cluster]\npreset = gb200-nvl72\n", f);
	fclose(f);
	/* nothing else: the default plan's 64 nodes are 64 racks of 72, which its
	 * 8 x 8 x 8 split (512 GPUs) does not fill -- not run on 8 per node, and not
	 * refused for a split the user never wrote: the split is unset (degrees 1, dp the
	 * rest, 64 x 72 = 4608) until the planner's pick (calc_plan_pick_split) */
	assert_int_equal(calc_plan_load(&p, path, NULL, 0, &d), 0);
	assert_int_equal(d.nerrors, 0);
	assert_int_equal(p.gpus_per_node, 72);
	assert_int_equal(p.split_unset, 1);
	assert_int_equal(p.tp * p.pp * p.cp, 1);
	assert_int_equal(p.dp, 64 * 72);
	calc_diag_free(&d);
	remove(path);

	load_file_text(&p, "[cluster]\npreset = gb200-nvl72\nnodes = 8\n[parallel]\ndp = 0\n"
	                   "[training]\nglobal_batch = 1152\n", NULL, 0);
	assert_int_equal(p.gpus_per_node, 72);
	assert_int_equal(calc_plan_gpus(&p), 8 * 72);
	assert_int_equal(p.dp, 576 / 64);
	assert_near(p.intra_node_bw * 2, 1.8e12, 1e-12); /* NVLink5 1.8 TB/s bidirectional per GPU */
	assert_near(p.gpu_hour_cost, calc_preset_cluster("gb200-nvl72")->gpu_hour_cost, 0);
	assert_true(p.gpu_hour_cost != 2.50);
	assert_string_equal(p.gpu.name, "gb200-186g");

	/* the user's gpus_per_node wins over the preset, in a file or among --set */
	load_file_text(&p, "[cluster]\npreset = gb200-nvl72\ngpus_per_node = 8\n", NULL, 0);
	assert_int_equal(p.gpus_per_node, 8);
	assert_int_equal(calc_plan_gpus(&p), 512);
	const char *s4[] = {"cluster.gpus_per_node=4", "cluster.preset=gb200-nvl72", "pp=4"};
	load_plan(&p, s4, 3);
	assert_int_equal(p.gpus_per_node, 4);
	load_plan(&p, NULL, 0);
	assert_int_equal(calc_plan_set_many(&p, s4, 3, "test", &d), 0);
	assert_int_equal(p.gpus_per_node, 4);
	calc_diag_free(&d);

	/* the default plan's price does not replace a named preset's */
	const char *a100[] = {"cluster.preset=dgx-a100-hdr"};
	load_plan(&p, a100, 1);
	assert_near(p.gpu_hour_cost, 1.50, 0);
	/* a GPU preset: the user's usable memory wins; a model preset: the user's layers */
	const char *g[] = {"cluster.gpu=b200-180g", "cluster.gpu_memory=170 GiB"};
	load_plan(&p, g, 2);
	assert_near(p.gpu_memory, 170.0 * 1073741824.0, 0);
	assert_near(p.gpu.bf16_flops, 2250e12, 1e-12);
	load_plan(&p, g, 1);
	assert_near(p.gpu_memory, p.gpu.memory_usable, 0);
}

/* A plan's title and date are its own: the default plan keeps those of
 * plans/default.ini; a plan file without [plan] keys is titled after its model and
 * cluster and dated "" (the report's SOURCE_DATE_EPOCH or today), also when an
 * override then changes the model; a [plan] title is kept as written. */
static void test_title(void **state)
{
	struct calc_plan p;
	const char *nodes1[] = {"cluster.nodes=1", "pp=1", "dp=0"};
	const char *hw[] = {"model.preset=llama2-70b"};
	load_plan(&p, NULL, 0);
	assert_string_equal(p.title, "Training a 100B-parameter transformer on H100 80 GB GPUs");
	assert_string_equal(p.date, "2026-11-30");
	load_plan(&p, hw, 1); /* the default plan with another model is not the default plan */
	assert_string_equal(p.title, "Training llama2-70b on 64 nodes of 8 H100 SXM5 80 GB");
	assert_string_equal(p.date, "");
	load_file_text(&p, "[model]\npreset = llama3-70b\n[cluster]\nnodes = 32\n[parallel]\ndp = 0\n", NULL, 0);
	assert_string_equal(p.title, "Training llama3-70b on 32 nodes of 8 H100 SXM5 80 GB");
	assert_string_equal(p.date, "");
	load_file_text(&p, "[model]\npreset = llama3-70b\n", nodes1, 3);
	assert_string_equal(p.title, "Training llama3-70b on 1 node of 8 H100 SXM5 80 GB");
	load_file_text(&p, "[plan]\ntitle = Our run\ndate = 2027-01-02\n[model]\npreset = llama3-70b\n", NULL, 0);
	assert_string_equal(p.title, "Our run");
	assert_string_equal(p.date, "2027-01-02");
}

/* Value of catalog quantity 'name' under 'p'. */
static double quantity(const struct calc_plan *p, const char *name)
{
	struct calc_ctx c;
	struct calc_value v;
	struct calc_diag d = {0};
	calc_ctx_init(&c, p);
	int rc = calc_catalog_get(&c, name, &v, &d);
	if (rc != 0)
		print_error("%s", d.text ? d.text : "");
	assert_int_equal(rc, 0);
	calc_ctx_free(&c);
	calc_diag_free(&d);
	return v.num;
}

/* A GPU defined by the cluster.gpu_* keys alone, over another preset (MI300X: other
 * memory, peaks, power, no SM count, no calibrated efficiencies), gives the numbers of
 * the H100 SXM preset when the keys carry the H100's figures: NVIDIA H100 Tensor Core GPU
 * datasheet (SXM5: 80 GB HBM3, 3.35 TB/s, BF16 989.5 / FP8 1,979 TFLOP/s dense = half the
 * sparse 1,979 / 3,958, up to 700 W; docs/references.md §6), 132 SMs (NVIDIA H100 Tensor
 * Core GPU Architecture whitepaper, SXM5), the usable 79.11 GiB and the H100 efficiency
 * pair 0.70 / 0.35 of calc/presets.c, with its FP8 GEMM share 0.62 (derived there from the
 * BF16 fit by the measured matmul rates). */
static void test_gpu_by_keys(void **state)
{
	const char *h100[] = {"cluster.gpu=mi300x-192g", "gpu_name=my-h100", "gpu_memory_nominal=80 GB",
	                      "gpu_memory=79.11 GiB", "gpu_hbm_bw=3.35 TB/s", "gpu_bf16_flops=989 TFLOP/s",
	                      "gpu_fp8_flops=1979 TFLOP/s", "gpu_fp4_flops=0", "gpu_sms=132", "gpu_tdp=700",
	                      "efficiency.gemm=0.70", "efficiency.gemm_fp8=0.62", "efficiency.attention=0.35",
	                      "training.recipe=megatron"};
	const char *names[] = {"memory.total", "memory.headroom", "step.time", "step.mfu", "step.compute",
	                       "step.dp_exposed", "run.gpu_power", "run.energy", "memory.states_min_gpus_nominal"};
	const int n = (int)(sizeof h100 / sizeof h100[0]);
	struct calc_plan a, b;
	for (int fp8 = 0; fp8 < 2; fp8++) {
		const char *preset[] = {"training.recipe=megatron"};
		if (fp8)
			h100[n - 1] = preset[0] = "training.recipe=fp8-te";
		load_plan(&a, preset, 1);
		load_plan(&b, h100, n);
		assert_string_equal(b.gpu.name, "my-h100");
		assert_near(b.gpu.bf16_flops, 989e12, 0);
		assert_int_equal(b.gpu.sms, 132);
		for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
			assert_near(quantity(&b, names[i]), quantity(&a, names[i]), 1e-12);
	}
	/* the title names the part by its key, not by the MI300X preset it replaced */
	load_plan(&b, h100, n);
	assert_null(strstr(b.title, "MI300X"));
}

/* The Blackwell and CDNA 3/4 presets against their vendors' published figures (dense =
 * half the sparse; docs/references.md §6.1, each UNVERIFIED there against the primary
 * datasheet): GB200 NVL72 per GPU 186 GB, 8 TB/s, sparse BF16 5 / FP8 10 / FP4 20
 * PFLOP/s, 1,200 W; HGX B300 per GPU 288 GB, 8 TB/s, BF16 2.25 / FP8 4.5 PFLOP/s dense,
 * FP4 108 PFLOP/s dense per 8 GPUs, 1,100 W; MI325X 256 GB, 6 TB/s, sparse FP8 5,229.8
 * TFLOP/s, 1,000 W; MI355X 288 GB, 8 TB/s, sparse BF16 5,033.2 / FP8 10,066.4 / MXFP4
 * 20,132.6 TFLOP/s (Tom's Hardware's 20.1 PFLOPS), 1,400 W.  NVLink5: 1.8 TB/s bidirectional
 * per GPU; an NVL72 rack: 72 GPUs in one NVLink domain, 130 TB/s = 72 x 1.8 TB/s. */
static void test_gpu_presets_published(void **state)
{
	const struct {
		const char *name;
		double mem_gb, hbm_tbs, bf16_sparse_pf, fp8_sparse_pf, fp4_dense_pf, tdp;
	} want[] = {
		{"gb200-186g", 186, 8, 5, 10, 20 / 2.0, 1200},
		{"b300-288g", 288, 8, 4.5, 9, 108 / 8.0, 1100},
		/* GB300 NVL72 dense per rack: 180 PF BF16, 360 PF FP8, 1,080 PF FP4 over 72 GPUs */
		{"gb300-288g", 288, 8, 2 * 180 / 72.0, 2 * 360 / 72.0, 1080 / 72.0, 1400},
		{"mi325x-256g", 256, 6, 2.6148, 5.2298, 0, 1000},
		{"mi355x-288g", 288, 8, 5.0332, 10.0664, 20.1326 / 2, 1400},
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		const struct calc_gpu *g = calc_preset_gpu(want[i].name);
		assert_non_null(g);
		assert_near(g->memory_nominal, want[i].mem_gb * 1e9, 1e-12);
		assert_true(g->memory_usable <= g->memory_nominal * 1.0737 && g->memory_usable > 0.9 * g->memory_nominal);
		assert_near(g->hbm_bw, want[i].hbm_tbs * 1e12, 1e-12);
		assert_near(g->bf16_flops, want[i].bf16_sparse_pf * 1e15 / 2, 1e-4);
		assert_near(g->fp8_flops, want[i].fp8_sparse_pf * 1e15 / 2, 1e-4);
		assert_near(g->fp4_flops, want[i].fp4_dense_pf * 1e15, 1e-4);
		assert_near(g->tdp, want[i].tdp, 0);
	}
	assert_near(calc_preset_gpu("gb200-186g")->nvlink_bw * 2, 1.8e12, 1e-12);
	assert_near(calc_preset_gpu("b300-288g")->nvlink_bw * 2, 1.8e12, 1e-12);
	/* H100 PCIe, the PCIe column of NVIDIA's H100 datasheet: 80 GB, 2 TB/s, BF16 1,513 and
	 * FP8 3,026 TFLOP/s with sparsity (dense half: the preset rounds BF16's 756.5 to 756),
	 * max TDP 300-350 W (the preset the upper) */
	const struct calc_gpu *pcie = calc_preset_gpu("h100-pcie-80g");
	assert_non_null(pcie);
	assert_near(pcie->memory_nominal, 80e9, 1e-12);
	assert_near(pcie->hbm_bw, 2e12, 1e-12);
	assert_near(pcie->bf16_flops, 1513e12 / 2, 1e-3);
	assert_near(pcie->fp8_flops, 3026e12 / 2, 1e-12);
	assert_near(pcie->tdp, 350, 0);
	/* MI325X: the MI300X compute, BF16 = FP8 / 2 */
	assert_near(calc_preset_gpu("mi325x-256g")->bf16_flops, 2614.9e12 / 2, 1e-4);
	/* B200: NVIDIA's HGX B200 FP4 72 PFLOP/s dense per 8 GPUs */
	assert_near(calc_preset_gpu("b200-180g")->fp4_flops, 72e15 / 8, 1e-12);

	const struct calc_cluster_preset *nvl = calc_preset_cluster("gb200-nvl72");
	assert_non_null(nvl);
	assert_int_equal(nvl->gpus_per_node, 72);
	assert_near(nvl->gpus_per_node * nvl->intra_bw * 2, 130e12, 0.01); /* 129.6 TB/s */
	assert_string_equal(nvl->gpu, "gb200-186g");
	assert_near(calc_preset_cluster("hgx-b300-xdr")->inter_bw * 8, 1.6e12 / 2, 1e-12); /* 800 Gb/s per GPU */
	/* GB300 NVL72 (NVIDIA's NVL72 reference architecture): 72 GPUs in one NVLink domain, 130
	 * TB/s, one ConnectX-8 of 800 Gb/s per GPU */
	nvl = calc_preset_cluster("gb300-nvl72");
	assert_non_null(nvl);
	assert_int_equal(nvl->gpus_per_node, 72);
	assert_near(nvl->gpus_per_node * nvl->intra_bw * 2, 130e12, 0.01);
	assert_near(nvl->inter_bw, 800e9 / 8, 1e-12);
	assert_string_equal(nvl->gpu, "gb300-288g");
	/* NVLink5 ring bus bandwidth: NCCL's 18 links x 40.1 GB/s (src/graph/topo.h SM100_NVLINK_BW) */
	assert_near(calc_preset_cluster("hgx-b200-ndr")->intra_busbw, 18 * 40.1e9, 1e-12);
	assert_near(calc_preset_cluster("gb200-nvl72")->intra_busbw, 18 * 40.1e9, 1e-12);
	assert_string_equal(calc_preset_cluster("mi325x-roce")->gpu, "mi325x-256g");
	assert_string_equal(calc_preset_cluster("mi355x-roce")->gpu, "mi355x-288g");
	/* every cluster preset names a GPU preset */
	for (int i = 0; calc_preset_cluster_at(i); i++)
		assert_non_null(calc_preset_gpu(calc_preset_cluster_at(i)->gpu));
}

/* The stack presets (calc/stacks.c) and what each sets where the plan sets nothing: the
 * rank order of its framework (megatron/core/parallel_state.py at core_v0.19.0 and
 * core_r0.8.0: tp-cp-ep-dp-pp; torchtitan parallel_dims.py build_mesh: (pp, dp_replicate,
 * dp_shard, cp, tp) outermost first, EP innermost for the experts; DeepSpeed
 * PipeModelDataParallelTopology: (pipe, data, model), model innermost) and, for
 * Megatron-Bridge 0.6.0's performance recipes, BF16 gradients reduced in BF16
 * (grad_reduce_in_fp32 = False: 2 bytes per gradient where the megatron recipe holds 4).
 * A key the plan sets wins; a plan that names no stack has megatron-core, an alias of
 * megatron-core-0.19. */
static void test_stacks(void **state)
{
	static const struct {
		const char *stack, *placement;
		int main_grads, grad_reduce;
	} want[] = {
	    {"megatron-core", "tp-cp-ep-dp-pp", 0, 0},      {"megatron-core-0.19", "tp-cp-ep-dp-pp", 0, 0},
	    {"megatron-core-2024", "tp-cp-pp-dp", 0, 0},    {"megatron-bridge-0.6", "tp-cp-ep-dp-pp", 1, 1},
	    {"nemo", "tp-cp-ep-dp-pp", 1, 1},               {"nemo-2024", "tp-cp-pp-dp", 1, 1},
	    {"torchtitan", "tp-cp-ep-dp-pp", 0, 2},         {"fsdp1", "tp-cp-dp-pp", 0, 1},
	    {"deepspeed-zero3", "tp-cp-dp-pp", 0, 0},       {"deepspeed-megatron", "tp-cp-dp-pp", 0, 0},
	};
	struct calc_plan p;
	char kv[64];
	const char *sets[2] = {kv, NULL};

	load_plan(&p, NULL, 0);
	assert_ptr_equal(p.stack, calc_stack_find("megatron-core"));
	assert_string_equal(p.stack->name, "megatron-core-0.19");
	assert_string_equal(p.placement, "tp-cp-ep-dp-pp");
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		snprintf(kv, sizeof kv, "efficiency.stack=%s", want[i].stack);
		load_plan(&p, sets, 1);
		assert_string_equal(p.placement, want[i].placement);
		assert_int_equal(p.main_grads, want[i].main_grads);
		assert_int_equal(p.grad_reduce, want[i].grad_reduce);
		/* the plan's own value wins over the stack's */
		sets[1] = "parallel.placement=dp-tp-cp-pp";
		load_plan(&p, sets, 2);
		assert_string_equal(p.placement, "dp-tp-cp-pp");
		sets[1] = NULL;
	}
	/* megatron-bridge-0.6 holds BF16 gradients (2 B) where megatron-core-0.19 holds the
	 * megatron recipe's FP32 ones (4 B); training.main_grads = fp32 restores them */
	snprintf(kv, sizeof kv, "efficiency.stack=megatron-bridge-0.6");
	load_plan(&p, sets, 1);
	assert_true(calc_recipe_bytes(p.recipe, CALC_T_GRAD) == 2);
	sets[1] = "training.main_grads=fp32";
	load_plan(&p, sets, 2);
	assert_true(calc_recipe_bytes(p.recipe, CALC_T_GRAD) == 4);
	snprintf(kv, sizeof kv, "efficiency.stack=megatron-core");
	load_plan(&p, sets, 1);
	assert_true(calc_recipe_bytes(p.recipe, CALC_T_GRAD) == 4);
	assert_null(calc_stack_find("megatron-core-2099"));
	/* megatron-bridge-0.6's MoE recipes (Megatron-Bridge perf_recipes/deepseek/common.py
	 * lines 34-37, 55-77 at 067f987): HybridEP on 32 SMs, router and permute fusion;
	 * megatron-core-0.19 keeps the alltoall dispatcher and no fusion, and a dense plan
	 * loads under either */
	snprintf(kv, sizeof kv, "efficiency.stack=megatron-bridge-0.6");
	load_plan(&p, sets, 1);
	assert_int_equal(p.moe_dispatcher, CALC_DISP_HYBRIDEP);
	assert_true(p.moe_comm_sms == 32);
	assert_int_equal(p.router_fusion, 1);
	assert_int_equal(p.permute_fusion, 1);
	assert_int_equal(p.overlap_ep_comm, 0);
	sets[1] = "moe.dispatcher=deepep";
	load_plan(&p, sets, 2);
	assert_int_equal(p.moe_dispatcher, CALC_DISP_DEEPEP);
	sets[1] = NULL;
	snprintf(kv, sizeof kv, "efficiency.stack=megatron-core-0.19");
	load_plan(&p, sets, 1);
	assert_int_equal(p.moe_dispatcher, CALC_DISP_ALLTOALL);
	assert_int_equal(p.router_fusion, 0);
	assert_true(p.moe_comm_sms == 0);
}

/* parallel.cp_comm follows the stack where the plan does not write it (calc/stacks.c):
 * Megatron-Core runs the ring, Megatron-LM's --cp-comm-type default ["p2p"]
 * (megatron/training/arguments.py:3054 at core_v0.19.0), and so do Megatron-Bridge and
 * NeMo, which leave cp_comm_type unset; torchtitan all-gathers
 * (context_parallel_rotate_method = "allgather", torchtitan/config/configs.py:245 at
 * 0e9e265797c5); the dated stacks and the DeepSpeed / FSDP1 stacks, which have no CP,
 * keep the project's default, allgather.  A value the plan writes, in its file or by
 * --set, wins under every stack, and calc_plan_key_source says where the value came from. */
static void test_stack_cp_comm(void **state)
{
	static const struct {
		const char *stack;
		int cp_comm;
		const char *source;
	} want[] = {
	    {"megatron-core", CALC_CP_P2P, "stack"},          {"megatron-core-0.19", CALC_CP_P2P, "stack"},
	    {"megatron-bridge-0.6", CALC_CP_P2P, "stack"},    {"nemo", CALC_CP_P2P, "stack"},
	    {"torchtitan", CALC_CP_ALLGATHER, "stack"},       {"megatron-core-2024", CALC_CP_ALLGATHER, "default"},
	    {"nemo-2024", CALC_CP_ALLGATHER, "default"},      {"deepspeed-zero3", CALC_CP_ALLGATHER, "default"},
	    {"deepspeed-megatron", CALC_CP_ALLGATHER, "default"}, {"fsdp1", CALC_CP_ALLGATHER, "default"},
	};
	struct calc_plan p;
	char kv[64], text[160];
	const char *sets[2] = {kv, NULL};

	/* the default plan does not pin it: megatron-core's ring */
	load_plan(&p, NULL, 0);
	assert_int_equal(p.cp_comm, CALC_CP_P2P);
	assert_string_equal(calc_plan_key_source(&p, "parallel", "cp_comm"), "stack");
	assert_string_equal(calc_plan_key_source(&p, "parallel", "tp"), "default");
	assert_null(calc_plan_key_source(&p, "parallel", "no_such_key"));
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		snprintf(kv, sizeof kv, "efficiency.stack=%s", want[i].stack);
		load_plan(&p, sets, 1);
		assert_int_equal(p.cp_comm, want[i].cp_comm);
		assert_string_equal(calc_plan_key_source(&p, "parallel", "cp_comm"), want[i].source);
		/* an override wins */
		sets[1] = "parallel.cp_comm=a2a";
		load_plan(&p, sets, 2);
		assert_int_equal(p.cp_comm, CALC_CP_A2A);
		assert_string_equal(calc_plan_key_source(&p, "parallel", "cp_comm"), "override");
		sets[1] = NULL;
		/* and so does a plan file that writes the project's old default */
		snprintf(text, sizeof text, "[parallel]\ncp_comm = allgather\n[efficiency]\nstack = %s\n", want[i].stack);
		load_file_text(&p, text, NULL, 0);
		assert_int_equal(p.cp_comm, CALC_CP_ALLGATHER);
		assert_string_equal(calc_plan_key_source(&p, "parallel", "cp_comm"), "plan");
		/* a plan file that names only the stack takes the stack's */
		snprintf(text, sizeof text, "[efficiency]\nstack = %s\n", want[i].stack);
		load_file_text(&p, text, NULL, 0);
		assert_int_equal(p.cp_comm, want[i].cp_comm);
		assert_string_equal(calc_plan_key_source(&p, "parallel", "cp_comm"), want[i].source);
	}
	/* the shipped default plan, read as a file, leaves the key to its stack too */
	{
		struct calc_diag d = {0};
		assert_int_equal(calc_plan_load(&p, "plans/default.ini", NULL, 0, &d), 0);
		calc_diag_free(&d);
		assert_int_equal(p.cp_comm, CALC_CP_P2P);
		assert_string_equal(calc_plan_key_source(&p, "parallel", "cp_comm"), "stack");
	}
}

/* Text values: a control character (C0, DEL, the C1 controls U+0080..U+009F) or a byte
 * that is not UTF-8 (Unicode 15, Table 3-7) is refused, and shown as \\xHH; "é" (C3 A9),
 * "−" (E2 88 92) and "😀" (F0 9F 98 80) are text. */
static void test_text_plain(void **state)
{
	char buf[64];
	assert_int_equal(calc_text_plain("Training caf\xc3\xa9 \xe2\x88\x92 \xf0\x9f\x98\x80"), -1);
	assert_int_equal(calc_text_plain("a\nb"), 1);
	assert_int_equal(calc_text_plain("ab\x1b[31m"), 2);
	assert_int_equal(calc_text_plain("a\x7f"), 1);
	assert_int_equal(calc_text_plain("a\xc2\x9b"), 1);   /* U+009B CSI */
	assert_int_equal(calc_text_plain("a\xc2\xa0"), -1);  /* U+00A0, a no-break space */
	assert_int_equal(calc_text_plain("\xe9t\xe9"), 0);   /* Latin-1 */
	assert_int_equal(calc_text_plain("\xe2\x88"), 0);    /* cut */
	assert_string_equal(calc_text_shown(buf, sizeof buf, "x\n$(id)\x1b\xe9\xc3\xa9"), "x\\x0A$(id)\\x1B\\xE9\xc3\xa9");
	/* cut to the buffer at a character: "ab" and no half of "é" or of "\\x0A" */
	assert_string_equal(calc_text_shown(buf, 4, "ab\xc3\xa9"), "ab");
	assert_string_equal(calc_text_shown(buf, 6, "ab\ncd"), "ab");
}

/* Confinement checks the file opened: a link inside the folder that leads outside is
 * refused, the file it leads to is readable once the confinement is lifted. */
static void test_confined(void **state)
{
	char dir[] = "/tmp/trainplan-confine.XXXXXX", in[64], out[64], link[64], why[128];
	const char *dirs[1];
	FILE *f;
	assert_non_null(mkdtemp(dir));
	snprintf(in, sizeof in, "%s/in.json", dir);
	snprintf(out, sizeof out, "%s.out.json", dir);
	snprintf(link, sizeof link, "%s/link.json", dir);
	fclose(fopen(in, "w"));
	fclose(fopen(out, "w"));
	assert_int_equal(symlink(out, link), 0);
	dirs[0] = dir;
	calc_file_confine(dirs, 1);
	f = calc_file_open_confined(in, "rb", why, sizeof why);
	assert_non_null(f);
	fclose(f);
	assert_null(calc_file_open_confined(link, "rb", why, sizeof why));
	assert_string_equal(why, "outside the folders it may be read from");
	assert_null(calc_file_open_confined(out, "rb", why, sizeof why));
	calc_file_confine(NULL, 0);
	f = calc_file_open_confined(link, "rb", why, sizeof why);
	assert_non_null(f);
	fclose(f);
	remove(link);
	remove(in);
	remove(out);
	rmdir(dir);
}

/* cluster.gpus gives the job's GPUs instead of its nodes: 1,024 GPUs of 8 per node are
 * 1024 / 8 = 128 nodes; 4 GPUs are part of one node of 8 (a 4-GPU NVLink domain); a
 * later cluster.nodes assignment is the count again (64 x 8 = 512). */
static void test_cluster_gpus(void **state)
{
	struct calc_plan p;
	struct calc_diag d = {0};
	static const char *const a[] = {"model.preset=llama3-70b", "cluster.gpus=1024"};
	static const char *const b[] = {"model.preset=llama3-8b", "cluster.gpus=4"};
	static const char *const c[] = {"cluster.nodes=64"};
	(void)state;
	load_plan(&p, a, 2);
	assert_int_equal(p.nodes, 128);
	assert_int_equal(calc_plan_gpus(&p), 1024);
	assert_int_equal((long long)p.tp * p.pp * p.cp * p.dp, 1024);
	assert_int_equal(calc_plan_set_many(&p, c, 1, "test", &d), 0);
	assert_int_equal(calc_plan_gpus(&p), 512);
	assert_int_equal(p.gpus_total, 0);
	load_plan(&p, b, 2);
	assert_int_equal(p.nodes, 1);
	assert_int_equal(p.gpus_per_node, 4);
	calc_diag_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_set_many),
		cmocka_unit_test(test_stacks),
		cmocka_unit_test(test_stack_cp_comm),
		cmocka_unit_test(test_text_plain),
		cmocka_unit_test(test_confined),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_derived),
		cmocka_unit_test(test_preset_order),
		cmocka_unit_test(test_preset_over_default),
		cmocka_unit_test(test_title),
		cmocka_unit_test(test_gpu_by_keys),
		cmocka_unit_test(test_gpu_presets_published),
		cmocka_unit_test(test_cluster_gpus),
	};
	return cmocka_run_group_tests_name("plan", tests, NULL, NULL);
}
