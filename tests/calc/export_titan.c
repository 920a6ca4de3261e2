/*
 * export_titan.c -- unit tests of `export --for torchtitan-py` (calc/export.c): the fields
 * of current torchtitan's Trainer.Config (pytorch/torchtitan at commit b5bcd76c,
 * torchtitan/config/configs.py) with values worked by hand from the plan and from
 * torchtitan's rules: a micro-batch is num_tokens_per_microbatch_per_dp_rank tokens
 * (components/data/packing.py:21-55), a step num_tokens_per_train_step tokens
 * (configs.py:43-59), num_pp_microbatches the micro-batches a rank runs per schedule run
 * (trainer.py:409-415), and the stage rule of generate_llm_fqn_per_model_part
 * (distributed/pipeline_parallel.py).
 */
#include "testutil.h"
#include "export.h"

#include <stdlib.h>
#include <string.h>

static char *out;

/* The export of the default plan with overrides; 0, or -1 with the diagnostic in *msg. */
static int export_py(const char *const *sets, int n, char **msg)
{
	struct calc_plan p;
	struct calc_diag d = {0};
	size_t len = 0;
	FILE *f;
	int rc;
	load_plan(&p, sets, n);
	free(out);
	out = NULL;
	f = open_memstream(&out, &len);
	assert_non_null(f);
	rc = calc_export(&p, CALC_EXPORT_TORCHTITAN_PY, f, NULL, &d);
	fclose(f);
	if (msg)
		*msg = d.text ? strdup(d.text) : NULL;
	calc_diag_free(&d);
	return rc;
}

static void has(const char *line)
{
	if (!strstr(out, line))
		fail_msg("the export has no line '%s':\n%s", line, out);
}

static void has_not(const char *text)
{
	if (strstr(out, text))
		fail_msg("the export has '%s':\n%s", text, out);
}

static void test_llama3_70b_pp(void **state)
{
	/* 512 GPUs: tp 8 x pp 4 x dp 16, the default plan's 1,536 sequences of 2,048 tokens and
	 * 3e11 tokens, one sequence per micro-batch */
	const char *s[] = {"model.preset=llama3-70b", "parallel.tp=8", "parallel.pp=4", "parallel.dp=16",
	                   "parallel.zero=3", "parallel.fsdp=yes", "training.recipe=torch-mp", "parallel.recompute=full"};
	(void)state;
	assert_int_equal(export_py(s, 8, NULL), 0);
	has("from torchtitan.models.llama3 import model_registry\n");
	has("def trainplan_default() -> Trainer.Config:\n"); /* the built-in plans/default.ini */
	has("        model_spec=model_registry(\"70B\"),\n");
	has("            num_tokens_per_microbatch_per_dp_rank=2048,\n");  /* 1 x 2,048 */
	has("            num_tokens_per_train_step=3145728,\n");           /* 1,536 x 2,048 */
	has("            max_context_length=2048,\n");
	has("            steps=95368,\n");                     /* ceil(3e11 / 3,145,728 = 95,367.43) */
	has("            data_parallel_shard_degree=16,\n");
	has("            data_parallel_replicate_degree=1,\n");
	has("            tensor_parallel_degree=8,\n");
	has("            pipeline_parallel_degree=4,\n");
	has("            num_pp_microbatches=96,\n");           /* 1,536 / (16 x 1) */
	/* 80 layers over 4 stages: with weights 1 + 1, (80 + 2) / 4 gives 21, 21, 20, 20 less
	 * one at each end, 20, 21, 20, 19, not the plan's 20 each; with 0 + 0, 20 each */
	has("            pipeline_parallel_first_stage_less_layers=0,\n");
	has("            pipeline_parallel_last_stage_less_layers=0,\n");
	has_not("pipeline_parallel_layers_per_stage");
	has("        activation_checkpoint=FullAC.Config(),\n");
	has("from torchtitan.distributed.activation_checkpoint import FullAC\n");
}

static void test_interleaved(void **state)
{
	/* 80 layers, pp 4 x 5 virtual stages = 20 of 4 layers: weights 1 + 1 give (82) / 20 =
	 * 4 rem 2, 5, 5, 4, ... less one at each end: 4, 5, 4, ..., 3, not 4 each; 0 + 0 give
	 * 4 each, and layers_per_stage = ceil(80 / 20) = 4 */
	const char *s[] = {"model.preset=llama3-70b", "parallel.tp=8", "parallel.pp=4", "parallel.dp=16",
	                   "parallel.vpp=5", "parallel.schedule=interleaved", "parallel.zero=0",
	                   "training.recipe=torch-mp"};
	(void)state;
	assert_int_equal(export_py(s, 8, NULL), 0);
	has("            pipeline_parallel_schedule=\"Interleaved1F1B\",\n");
	has("            pipeline_parallel_layers_per_stage=4,\n");
	has("            data_parallel_replicate_degree=16,\n");   /* ZeRO-0: plain replication */
	has("            data_parallel_shard_degree=1,\n");
	has("        activation_checkpoint=SelectiveAC.Config(),\n");  /* the default plan's selective */
}

static void test_fp8_async_tp(void **state)
{
	const char *s[] = {"model.preset=llama3-8b", "parallel.tp=2", "parallel.pp=1", "parallel.dp=0",
	                   "training.recipe=torch-mp-fp8", "efficiency.tp_overlap=0.5", "parallel.recompute=none"};
	(void)state;
	assert_int_equal(export_py(s, 7, NULL), 0);
	has("        model_spec=model_registry(\"8B\", converters=[Float8LinearConverter.Config()]),\n");
	has("        compile=CompileConfig(enable=True, enable_async_tensor_parallel=True),\n");
	has("        activation_checkpoint=None,\n");
	has_not("num_pp_microbatches"); /* no PP */
}

static void test_refused(void **state)
{
	/* the default plan's dense-100b is no torchtitan flavor */
	char *msg = NULL;
	(void)state;
	assert_int_equal(export_py(NULL, 0, &msg), -1);
	assert_non_null(msg);
	assert_non_null(strstr(msg, "model.preset"));
	free(msg);
	/* stages that torchtitan's rule does not give with weights 0 + 0 or 1 + 1 */
	{
		const char *s[] = {"model.preset=llama3-70b", "parallel.layers_per_stage=9,10,10,10,10,10,10,11"};
		assert_int_equal(export_py(s, 2, &msg), -1);
		assert_non_null(msg);
		assert_non_null(strstr(msg, "parallel.layers_per_stage"));
		free(msg);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_llama3_70b_pp),
		cmocka_unit_test(test_interleaved),
		cmocka_unit_test(test_fp8_async_tp),
		cmocka_unit_test(test_refused),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	free(out);
	return rc;
}
