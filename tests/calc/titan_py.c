/*
 * titan_py.c -- unit tests of the reader of torchtitan's Python configuration
 * (cli/import_titan_py.c, compiled into this test).  Expected values are Python's own
 * rules (docs.python.org/3/reference/expressions.html: // floors, % takes the sign of
 * the divisor, / is true division, ** binds right to left; lexical_analysis.html: '_'
 * between digits, adjacent string literals concatenate) worked by hand, and torchtitan's
 * dataclass defaults at b5bcd76c (torchtitan/config/configs.py:37, :51).
 */
#include "testutil.h"
#include "../../cli/import_titan_py.c"

/* The value of one expression. */
static struct rd *ex_rd;
static struct node *ex(const char *text)
{
	struct px x;
	if (ex_rd)
		rd_free(ex_rd), free(ex_rd);
	ex_rd = xmalloc(sizeof *ex_rd);
	memset(ex_rd, 0, sizeof *ex_rd);
	lex(text, &ex_rd->ts);
	x = (struct px){ex_rd, NULL, 0, 0};
	return p_expr(&x);
}

static void int_is(const char *text, long long v)
{
	struct node *n = ex(text);
	if (n->kind != NK_INT)
		fail_msg("%s: kind %d, expected a whole number", text, n->kind);
	assert_int_equal(n->i, v);
}

static void unknown(const char *text)
{
	struct node *n = ex(text);
	if (n->kind != NK_UNK)
		fail_msg("%s: kind %d, expected unknown", text, n->kind);
}

static void test_arithmetic(void **state)
{
	(void)state;
	int_is("8 * 2048", 16384);
	int_is("10_000", 10000);            /* '_' between digits */
	int_is("1 * 8192", 8192);
	int_is("2 + 3 * 4", 14);            /* * before + */
	int_is("(2 + 3) * 4", 20);
	int_is("-7 // 2", -4);              /* floor of -3.5 */
	int_is("7 // -2", -4);
	int_is("-7 % 2", 1);                /* -7 - 2 * (-4) */
	int_is("7 % -2", -1);               /* 7 - (-2) * (-4) */
	int_is("2 ** 10", 1024);
	int_is("2 ** 3 ** 2", 512);         /* 2 ** 9, right to left */
	int_is("-2 ** 2", -4);              /* -(2 ** 2) */
	int_is("0x10", 16);
	int_is("1 ** 99999999999999", 1);   /* no loop of 10^14 steps */
	{
		struct node *n = ex("7 / 2");
		assert_int_equal(n->kind, NK_FLOAT);
		assert_true(n->f == 3.5);
		n = ex("1e3");
		assert_int_equal(n->kind, NK_FLOAT);
		assert_true(n->f == 1000.0);
	}
	unknown("2 ** 64");                 /* beyond a 64-bit integer: not read */
	unknown("9223372036854775807 + 1");
	unknown("1 // 0");
	unknown("seq * 2");                 /* a name with no value */
	unknown("8 if True else 4");        /* a condition */
	unknown("DATASETS[\"c4\"]");        /* a subscript */
	unknown("f\"{x}\"");                /* an f-string */
}

static void test_literals(void **state)
{
	struct node *n;
	(void)state;
	n = ex("'Inter' \"leaved1F1B\"");   /* adjacent literals */
	assert_int_equal(n->kind, NK_STR);
	assert_string_equal(n->s, "Interleaved1F1B");
	n = ex("[Float8LinearConverter.Config(filter_fqns=[\"lm_head\"]), None]");
	assert_int_equal(n->kind, NK_LIST);
	assert_int_equal(n->nargs, 2);
	assert_int_equal(n->args[0]->kind, NK_CALL);
	assert_string_equal(n->args[0]->s, "Float8LinearConverter.Config");
	assert_int_equal(n->args[0]->nkw, 1);
	assert_string_equal(n->args[0]->kwn[0], "filter_fqns");
	assert_int_equal(n->args[1]->kind, NK_NONE);
	n = ex("model_registry(\"70B\", **extra)");
	assert_int_equal(n->kind, NK_CALL);
	assert_int_equal(n->nargs, 1);
	assert_string_equal(n->args[0]->s, "70B");
	assert_int_equal(n->nkw, 1);
	assert_string_equal(n->kwn[0], "**");
	assert_int_equal(n->kwv[0]->kind, NK_UNK);
	n = ex("(1, 2,)");
	assert_int_equal(n->kind, NK_LIST);
	assert_int_equal(n->nargs, 2);
	n = ex("True");
	assert_int_equal(n->kind, NK_BOOL);
	assert_int_equal(n->i, 1);
	if (ex_rd)
		rd_free(ex_rd), free(ex_rd), ex_rd = NULL;
}

/* The messages of a read, kept for the checks. */
static char msgs[4096];
static int nerr;
static void keep(void *ctx, int line, int is_error, const char *text)
{
	(void)ctx;
	snprintf(msgs + strlen(msgs), sizeof msgs - strlen(msgs), "%d:%s:%s\n", line, is_error ? "E" : "N", text);
	nerr += is_error;
}

static int readf(const char *text, const char *config, char *const *ovr, int novr, struct ttpy_out *out)
{
	msgs[0] = 0;
	nerr = 0;
	return ttpy_read(text, config, NULL, ovr, novr, keep, NULL, out);
}

static void test_function(void **state)
{
	static const char *const text =
		"from torchtitan.models.llama3 import model_registry\n"
		"from torchtitan.trainer import Trainer\n"
		"\n"
		"def base() -> Trainer.Config:\n"
		"    return Trainer.Config(\n"
		"        model_spec=model_registry(\"8B\"),\n"
		"        optimizer=default_adamw(lr=3e-4),\n"
		"    )\n"
		"\n"
		"def derived() -> Trainer.Config:\n"
		"    config = base()\n"
		"    config.training.max_context_length = 4 * 1024\n"
		"    config.parallelism.tensor_parallel_degree = 2\n"
		"    return config\n";
	struct ttpy_out out;
	(void)state;
	/* two functions: one must be named */
	assert_int_equal(readf(text, NULL, NULL, 0, &out), -1);
	assert_non_null(strstr(msgs, "--config NAME"));
	/* the base: every training field at configs.py's default, 16,384 tokens of 2,048 */
	assert_int_equal(readf(text, "base", NULL, 0, &out), 0);
	assert_non_null(strstr(out.toml, "name = \"llama3\"\nflavor = \"8B\"\n"));
	assert_non_null(strstr(out.toml, "seq_len = 2048\n"));
	assert_non_null(strstr(out.toml, "local_batch_size = 8\n"));   /* 16384 / 2048 */
	assert_non_null(strstr(out.toml, "steps = 10000\n"));
	assert_non_null(strstr(out.toml, "data_parallel_shard_degree = -1\n"));
	assert_non_null(strstr(out.toml, "mode = \"selective\"\n"));   /* trainer.py:108-110 */
	/* the default of configs.py:94, which the TOML reader reads as the recipe torch-mp */
	assert_non_null(strstr(out.toml, "mixed_precision_param = \"bfloat16\"\n"));
	assert_int_equal(out.sp, 1);
	free(out.toml), free(out.map);
	/* derived: the changes over the base; 16,384 tokens of 4,096 are 4 sequences */
	assert_int_equal(readf(text, "derived", NULL, 0, &out), 0);
	assert_non_null(strstr(out.toml, "seq_len = 4096\n"));
	assert_non_null(strstr(out.toml, "local_batch_size = 4\n"));
	assert_non_null(strstr(out.toml, "tensor_parallel_degree = 2\n"));
	/* the line of a changed field maps back to its assignment (line 13) */
	{
		int line = 0, idx = 0;
		for (const char *c = out.toml; *c; c++) {
			if (c == out.toml || c[-1] == '\n')
				idx++;
			if ((c == out.toml || c[-1] == '\n') && !strncmp(c, "tensor_parallel_degree", 22))
				line = out.map[idx];
		}
		assert_int_equal(line, 13);
	}
	free(out.toml), free(out.map);
	/* an override after --, as torchtitan's CLI takes it, over the function */
	{
		char *ovr[] = {"--parallelism.tensor_parallel_degree", "4", "--training.steps=50"};
		assert_int_equal(readf(text, "derived", ovr, 3, &out), 0);
		assert_non_null(strstr(out.toml, "tensor_parallel_degree = 4\n"));
		assert_non_null(strstr(out.toml, "steps = 50\n"));
		free(out.toml), free(out.map);
	}
}

static void test_refusals(void **state)
{
	static const char *const text =
		"from torchtitan.models.llama3 import model_registry\n"
		"def f() -> Trainer.Config:\n"
		"    config = Trainer.Config(model_spec=model_registry(\"8B\"), optimizer=default_adamw())\n"
		"    if big:\n"
		"        config.parallelism.pipeline_parallel_degree = 8\n"
		"    for k in range(3):\n"
		"        config.checkpoint.interval = k\n"
		"    return config\n";
	struct ttpy_out out;
	(void)state;
	/* the degree the plan needs comes from a condition: an error at its line; the loop
	 * sets a field of no use to the plan: a note */
	assert_int_equal(readf(text, NULL, NULL, 0, &out), -1);
	assert_non_null(strstr(msgs, "4:E:"));
	assert_non_null(strstr(msgs, "pipeline_parallel_degree"));
	assert_non_null(strstr(msgs, "N:import --from torchtitan: not read, and the plan does not depend on it (1): "
	                             "line 6"));
	assert_int_equal(nerr, 1);
	/* what was read still comes back for the TOML reader's checks: the model, without the
	 * split (a refused degree would leave the others read without it) */
	assert_non_null(out.toml);
	assert_non_null(strstr(out.toml, "[model]\nname = \"llama3\"\nflavor = \"8B\"\n"));
	assert_null(strstr(out.toml, "[parallelism]"));
	assert_null(strstr(out.toml, "pipeline_parallel_degree"));
	free(out.toml), free(out.map);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arithmetic),
		cmocka_unit_test(test_literals),
		cmocka_unit_test(test_function),
		cmocka_unit_test(test_refusals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
