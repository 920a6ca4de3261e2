/*
 * cmd_import.c -- `trainplan import --from megatron|torchtitan|deepspeed FILE`: the run
 * a user has, as a plan (INI on stdout), so planning starts from it.
 *
 *   trainplan import --from FRAMEWORK FILE|- [--plan BASE]
 *
 * FILE is a Megatron-LM argument list (a launch script: `torchrun --nnodes N
 * --nproc-per-node G pretrain_gpt.py --flag value ...`, backslash continuations and
 * # comments allowed), a torchtitan job TOML or a DeepSpeed config JSON.  The names
 * read are those cmd_export.c writes, from the same sources (Megatron-LM
 * megatron/training/arguments.py, torchtitan torchtitan/config/job_config.py,
 * DeepSpeed docs/_pages/config-json.md and deepspeed/runtime/config.py).  A flag
 * Megatron-LM takes but the plan has no use for (learning rate, data, checkpoints,
 * logging) is skipped; a flag or key this command does not know is an error at
 * FILE:LINE with the allowed names, exit status 2.  A Megatron flag that is absent
 * means Megatron-LM's default (tied embeddings, biases, LayerNorm, fp32, no sequence
 * parallelism).  What the file does not say (the model of a torchtitan or DeepSpeed
 * file, the GPU count of an argument list without its launcher) stays the base plan's:
 * the built-in plan, or --plan BASE, which the output then includes.
 */
#include "cli.h"
#include "../calc/suggest.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* The plan being written: section.key = value, the last assignment winning. */

#define IMP_MAX 64
struct ini_out {
	char key[IMP_MAX][48]; /* "parallel.tp" */
	char val[IMP_MAX][64];
	int n;
};

static void put(struct ini_out *o, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void put(struct ini_out *o, const char *key, const char *fmt, ...)
{
	va_list ap;
	int i;
	for (i = 0; i < o->n; i++)
		if (!strcmp(o->key[i], key))
			break;
	if (i == o->n) {
		if (o->n >= IMP_MAX)
			return;
		snprintf(o->key[o->n++], sizeof o->key[0], "%s", key);
	}
	va_start(ap, fmt);
	vsnprintf(o->val[i], sizeof o->val[0], fmt, ap);
	va_end(ap);
}

static const char *got(const struct ini_out *o, const char *key)
{
	for (int i = 0; i < o->n; i++)
		if (!strcmp(o->key[i], key))
			return o->val[i];
	return NULL;
}

static void write_ini(const struct ini_out *o, const char *fw, const char *file, const char *base, FILE *f)
{
	static const char *const sections[] = {"cluster", "model", "training", "parallel", "moe"};
	fprintf(f, "; trainplan import --from %s %s\n", fw, file);
	if (base)
		fprintf(f, "include = %s\n", base);
	for (size_t s = 0; s < sizeof sections / sizeof sections[0]; s++) {
		size_t n = strlen(sections[s]);
		int head = 0;
		for (int i = 0; i < o->n; i++) {
			if (strncmp(o->key[i], sections[s], n) || o->key[i][n] != '.')
				continue;
			if (!head++)
				fprintf(f, "\n[%s]\n", sections[s]);
			fprintf(f, "%s = %s\n", o->key[i] + n + 1, o->val[i]);
		}
	}
}

/* The GPU count as nodes x GPUs per node, keeping the base plan's node size when it
 * divides the count. */
static void put_gpus(struct ini_out *o, long gpus, const struct calc_plan *base)
{
	if (gpus % base->gpus_per_node == 0) {
		put(o, "cluster.nodes", "%ld", gpus / base->gpus_per_node);
		put(o, "cluster.gpus_per_node", "%d", base->gpus_per_node);
	} else {
		put(o, "cluster.nodes", "1");
		put(o, "cluster.gpus_per_node", "%ld", gpus);
	}
}

/* An error at file:line; returns 2. */
static int imp_error(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int imp_error(const char *file, int line, const char *fmt, ...)
{
	struct calc_diag d = {0};
	char msg[1500];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	calc_error(&d, file, line, "%s", msg);
	return cli_fail(&d);
}

static int parse_int(const char *s, long *v)
{
	char *end;
	errno = 0;
	*v = strtol(s, &end, 10);
	return errno || end == s || *end || *v < 0 ? -1 : 0;
}

/* ------------------------------------------------------------------------ */
/* Megatron-LM: flags of megatron/training/arguments.py. */

enum mflag {
	M_INT,       /* integer into 'key' */
	M_SKIP,      /* known, of no use to the plan, takes a value */
	M_SKIPFLAG,  /* known, of no use to the plan, takes no value */
	M_SPECIAL,   /* read below by name, takes a value */
	M_SWITCH,    /* read below by name, takes no value */
};

static const struct {
	const char *flag;
	enum mflag kind;
	const char *key; /* M_INT: the plan key */
} mflags[] = {
	{"--num-layers", M_INT, "model.layers"},
	{"--hidden-size", M_INT, "model.hidden"},
	{"--num-attention-heads", M_INT, "model.heads"},
	{"--num-query-groups", M_INT, "model.kv_heads"},
	{"--kv-channels", M_INT, "model.head_dim"},
	{"--ffn-hidden-size", M_INT, "model.ffn_hidden"},
	{"--vocab-size", M_INT, "model.vocab"},
	{"--num-experts", M_INT, "model.experts"},
	{"--moe-router-topk", M_INT, "model.top_k"},
	{"--moe-ffn-hidden-size", M_INT, "model.expert_ffn"},
	{"--mtp-num-layers", M_INT, "model.mtp_depth"},
	{"--seq-length", M_INT, "training.seq_len"},
	{"--micro-batch-size", M_INT, "training.micro_batch"},
	{"--global-batch-size", M_INT, "training.global_batch"},
	{"--tensor-model-parallel-size", M_INT, "parallel.tp"},
	{"--pipeline-model-parallel-size", M_INT, "parallel.pp"},
	{"--context-parallel-size", M_INT, "parallel.cp"},
	{"--expert-model-parallel-size", M_INT, "parallel.ep"},
	{"--expert-tensor-parallel-size", M_INT, "parallel.etp"},
	{"--max-position-embeddings", M_SPECIAL, NULL},
	{"--position-embedding-type", M_SPECIAL, NULL},
	{"--normalization", M_SPECIAL, NULL},
	{"--attention-dropout", M_SPECIAL, NULL},
	{"--hidden-dropout", M_SPECIAL, NULL},
	{"--moe-shared-expert-intermediate-size", M_SPECIAL, NULL},
	{"--num-layers-per-virtual-pipeline-stage", M_SPECIAL, NULL},
	{"--num-virtual-stages-per-pipeline-rank", M_SPECIAL, NULL},
	{"--decoder-first-pipeline-num-layers", M_SPECIAL, NULL},
	{"--decoder-last-pipeline-num-layers", M_SPECIAL, NULL},
	{"--data-parallel-sharding-strategy", M_SPECIAL, NULL},
	{"--recompute-granularity", M_SPECIAL, NULL},
	{"--recompute-method", M_SPECIAL, NULL},
	{"--recompute-num-layers", M_SPECIAL, NULL},
	{"--recompute-modules", M_SPECIAL, NULL},
	{"--attention-backend", M_SPECIAL, NULL},
	{"--fp8-format", M_SPECIAL, NULL},
	{"--fp8-recipe", M_SPECIAL, NULL},
	{"--fp4-format", M_SPECIAL, NULL},
	{"--fp4-recipe", M_SPECIAL, NULL},
	{"--train-samples", M_SPECIAL, NULL},
	{"--train-iters", M_SPECIAL, NULL},
	{"--moe-token-dispatcher-type", M_SPECIAL, NULL},
	{"--moe-flex-dispatcher-backend", M_SPECIAL, NULL},
	{"--moe-expert-capacity-factor", M_SPECIAL, NULL},
	{"--overlap-moe-expert-parallel-comm", M_SWITCH, NULL},
	{"--moe-router-fusion", M_SWITCH, NULL},
	{"--moe-permute-fusion", M_SWITCH, NULL},
	{"--moe-pad-expert-input-to-capacity", M_SWITCH, NULL},
	{"--group-query-attention", M_SWITCH, NULL},
	{"--swiglu", M_SWITCH, NULL},
	{"--untie-embeddings-and-output-weights", M_SWITCH, NULL},
	{"--disable-bias-linear", M_SWITCH, NULL},
	{"--sequence-parallel", M_SWITCH, NULL},
	{"--use-distributed-optimizer", M_SWITCH, NULL},
	{"--use-megatron-fsdp", M_SWITCH, NULL},
	{"--use-flash-attn", M_SWITCH, NULL},
	{"--bf16", M_SWITCH, NULL},
	{"--fp8-param-gather", M_SWITCH, NULL},
	{"--fp4-param-gather", M_SWITCH, NULL},
	{"--reuse-grad-buf-for-mxfp8-param-ag", M_SWITCH, NULL},
	{"--fp16", M_SWITCH, NULL},
	/* taken by Megatron-LM, of no use to the plan */
	{"--lr", M_SKIP, NULL}, {"--min-lr", M_SKIP, NULL}, {"--lr-decay-style", M_SKIP, NULL},
	{"--lr-decay-iters", M_SKIP, NULL}, {"--lr-decay-samples", M_SKIP, NULL},
	{"--lr-warmup-fraction", M_SKIP, NULL}, {"--lr-warmup-iters", M_SKIP, NULL},
	{"--lr-warmup-samples", M_SKIP, NULL}, {"--weight-decay", M_SKIP, NULL}, {"--clip-grad", M_SKIP, NULL},
	{"--adam-beta1", M_SKIP, NULL}, {"--adam-beta2", M_SKIP, NULL}, {"--adam-eps", M_SKIP, NULL},
	{"--init-method-std", M_SKIP, NULL}, {"--seed", M_SKIP, NULL}, {"--data-path", M_SKIP, NULL},
	{"--split", M_SKIP, NULL}, {"--tokenizer-type", M_SKIP, NULL}, {"--tokenizer-model", M_SKIP, NULL},
	{"--vocab-file", M_SKIP, NULL}, {"--merge-file", M_SKIP, NULL}, {"--save", M_SKIP, NULL},
	{"--load", M_SKIP, NULL}, {"--save-interval", M_SKIP, NULL}, {"--eval-interval", M_SKIP, NULL},
	{"--eval-iters", M_SKIP, NULL}, {"--log-interval", M_SKIP, NULL}, {"--tensorboard-dir", M_SKIP, NULL},
	{"--wandb-project", M_SKIP, NULL}, {"--wandb-exp-name", M_SKIP, NULL},
	{"--make-vocab-size-divisible-by", M_SKIP, NULL}, {"--transformer-impl", M_SKIP, NULL},
	{"--distributed-backend", M_SKIP, NULL}, {"--exit-interval", M_SKIP, NULL},
	{"--overlap-grad-reduce", M_SKIPFLAG, NULL}, {"--overlap-param-gather", M_SKIPFLAG, NULL},
	{"--tp-comm-overlap", M_SKIPFLAG, NULL}, {"--use-mcore-models", M_SKIPFLAG, NULL},
	{"--no-masked-softmax-fusion", M_SKIPFLAG, NULL}, {"--log-throughput", M_SKIPFLAG, NULL},
	{"--mock-data", M_SKIPFLAG, NULL},
};
#define NMFLAGS (int)(sizeof mflags / sizeof mflags[0])

struct word {
	char text[256];
	int line;
};

/* Split the text into words: whitespace-separated, '#' to the end of the line a
 * comment, a backslash before a newline a continuation, quotes removed. */
static int split_words(const char *text, struct word *w, int cap)
{
	int n = 0, line = 1;
	const char *p = text;
	while (*p) {
		if (*p == '\n') {
			line++;
			p++;
		} else if (isspace((unsigned char)*p) || (*p == '\\' && p[1] == '\n')) {
			p++;
		} else if (*p == '#') {
			while (*p && *p != '\n')
				p++;
		} else {
			size_t k = 0;
			char q = 0;
			if (n >= cap)
				return -1;
			w[n].line = line;
			while (*p && (q || (!isspace((unsigned char)*p) && !(*p == '\\' && p[1] == '\n')))) {
				if (!q && (*p == '"' || *p == '\'')) {
					q = *p++;
					continue;
				}
				if (q && *p == q) {
					q = 0;
					p++;
					continue;
				}
				if (k + 1 < sizeof w[n].text)
					w[n].text[k++] = *p;
				p++;
			}
			w[n].text[k] = 0;
			n++;
		}
	}
	return n;
}

static int import_megatron(const char *text, const char *file, const struct calc_plan *base, struct ini_out *o)
{
	static struct word w[4096];
	int n = split_words(text, w, 4096), start = 0;
	long layers = -1, pp = 1, vpl = 0, vps = 0, first = 0, last = 0, samples = -1, iters = -1, seq = -1, gb = -1;
	long maxpos = -1, nodes = -1, ppn = -1, v, rc_layers = 1;
	char rc_method[16] = "uniform", rc_modules[96] = "", disp[16] = "", backend[16] = "deepep";
	double capacity = 0;
	int pad = 0, cap_line = 0;
	int model = 0, rope = 0, dropout0 = 0, zero = 0, fsdp = 0, strategy = 3, bf16 = 0, fp8 = 0, fp8_params = 0;
	if (n < 0)
		return imp_error(file, 0, "import --from megatron: more than 4096 words");
	/* the launcher: everything before the script (a word ending in .py) */
	for (int i = 0; i < n; i++) {
		size_t l = strlen(w[i].text);
		if (l > 3 && !strcmp(w[i].text + l - 3, ".py")) {
			for (int j = 0; j < i; j++) {
				const char *a = w[j].text, *val = j + 1 < i ? w[j + 1].text : NULL;
				if ((!strcmp(a, "--nnodes") || !strcmp(a, "--nproc-per-node") || !strcmp(a, "--nproc_per_node")) && val) {
					if (parse_int(val, &v) < 0 || v < 1)
						return imp_error(file, w[j].line, "import --from megatron: %s %s: expected a positive integer", a, val);
					*(a[2] == 'n' && a[3] == 'n' ? &nodes : &ppn) = v;
					j++;
				}
			}
			start = i + 1;
			break;
		}
	}
	for (int i = start; i < n; i++) {
		const char *a = w[i].text, *val;
		int k;
		for (k = 0; k < NMFLAGS; k++)
			if (!strcmp(a, mflags[k].flag))
				break;
		if (k == NMFLAGS) {
			struct calc_suggest s;
			char dym[160];
			calc_suggest_init(&s, a);
			for (int j = 0; j < NMFLAGS; j++)
				calc_suggest_offer(&s, mflags[j].flag);
			return imp_error(file, w[i].line, "import --from megatron: unknown flag '%s'; allowed are the "
			                 "flags `trainplan help import` lists%s", a, calc_suggest_text(&s, dym, sizeof dym));
		}
		if (mflags[k].kind == M_SWITCH || mflags[k].kind == M_SKIPFLAG) {
			if (!strcmp(a, "--group-query-attention"))
				;
			else if (!strcmp(a, "--swiglu"))
				put(o, "model.mlp", "swiglu");
			else if (!strcmp(a, "--untie-embeddings-and-output-weights"))
				put(o, "model.tied_embeddings", "no");
			else if (!strcmp(a, "--disable-bias-linear"))
				put(o, "model.bias", "no");
			else if (!strcmp(a, "--sequence-parallel"))
				put(o, "parallel.sp", "yes");
			else if (!strcmp(a, "--use-distributed-optimizer"))
				zero = zero > 1 ? zero : 1;
			else if (!strcmp(a, "--use-megatron-fsdp"))
				fsdp = 1;
			else if (!strcmp(a, "--use-flash-attn"))
				put(o, "training.flash_attention", "yes");
			else if (!strcmp(a, "--bf16") || !strcmp(a, "--fp16"))
				bf16 = 1;
			else if (!strcmp(a, "--fp8-param-gather") || !strcmp(a, "--fp4-param-gather"))
				fp8_params = 1;
			else if (!strcmp(a, "--overlap-moe-expert-parallel-comm"))
				put(o, "moe.overlap_ep_comm", "yes");
			else if (!strcmp(a, "--moe-router-fusion"))
				put(o, "moe.router_fusion", "yes");
			else if (!strcmp(a, "--moe-permute-fusion"))
				put(o, "moe.permute_fusion", "yes");
			else if (!strcmp(a, "--moe-pad-expert-input-to-capacity"))
				pad = 1;
			continue;
		}
		if (i + 1 >= n || (w[i + 1].text[0] == '-' && w[i + 1].text[1] == '-'))
			return imp_error(file, w[i].line, "import --from megatron: %s needs a value", a);
		val = w[++i].text;
		if (mflags[k].kind == M_SKIP)
			continue;
		if (mflags[k].kind == M_INT || !strcmp(a, "--max-position-embeddings") || !strncmp(a, "--num-layers-per", 16) ||
		    !strncmp(a, "--num-virtual", 13) || !strncmp(a, "--decoder-", 10) || !strncmp(a, "--train-", 8) ||
		    !strcmp(a, "--moe-shared-expert-intermediate-size")) {
			if (parse_int(val, &v) < 0)
				return imp_error(file, w[i].line, "import --from megatron: %s %s: expected a whole number", a, val);
		}
		if (mflags[k].kind == M_INT) {
			put(o, mflags[k].key, "%ld", v);
			if (!strncmp(mflags[k].key, "model.", 6))
				model = 1;
			if (!strcmp(a, "--num-layers"))
				layers = v;
			else if (!strcmp(a, "--pipeline-model-parallel-size"))
				pp = v;
			else if (!strcmp(a, "--seq-length"))
				seq = v;
			else if (!strcmp(a, "--global-batch-size"))
				gb = v;
		} else if (!strcmp(a, "--max-position-embeddings")) {
			maxpos = v;
		} else if (!strcmp(a, "--position-embedding-type")) {
			rope = strcmp(val, "learned_absolute") != 0;
		} else if (!strcmp(a, "--normalization")) {
			if (strcmp(val, "LayerNorm") && strcmp(val, "RMSNorm"))
				return imp_error(file, w[i].line, "import --from megatron: --normalization %s: allowed are LayerNorm, RMSNorm", val);
			put(o, "model.norm", "%s", val[0] == 'R' ? "rmsnorm" : "layernorm");
		} else if (!strcmp(a, "--attention-dropout") || !strcmp(a, "--hidden-dropout")) {
			dropout0 += strtod(val, NULL) == 0;
		} else if (!strcmp(a, "--moe-shared-expert-intermediate-size")) {
			put(o, "model.shared_experts", "1");
			put(o, "model.shared_ffn", "%ld", v);
		} else if (!strcmp(a, "--num-layers-per-virtual-pipeline-stage")) {
			vpl = v;
		} else if (!strcmp(a, "--num-virtual-stages-per-pipeline-rank")) {
			vps = v;
		} else if (!strcmp(a, "--decoder-first-pipeline-num-layers")) {
			first = v;
		} else if (!strcmp(a, "--decoder-last-pipeline-num-layers")) {
			last = v;
		} else if (!strcmp(a, "--data-parallel-sharding-strategy")) {
			static const char *const st[] = {"no_shard", "optim", "optim_grads", "optim_grads_params"};
			strategy = -1;
			for (int j = 0; j < 4; j++)
				if (!strcmp(val, st[j]))
					strategy = j;
			if (strategy < 0)
				return imp_error(file, w[i].line, "import --from megatron: --data-parallel-sharding-strategy %s: "
				                 "allowed are no_shard, optim, optim_grads, optim_grads_params", val);
		} else if (!strcmp(a, "--recompute-granularity")) {
			if (strcmp(val, "full") && strcmp(val, "selective"))
				return imp_error(file, w[i].line, "import --from megatron: --recompute-granularity %s: allowed are full, selective", val);
			put(o, "parallel.recompute", "%s", val);
		} else if (!strcmp(a, "--recompute-method")) {
			if (strcmp(val, "uniform") && strcmp(val, "block"))
				return imp_error(file, w[i].line, "import --from megatron: --recompute-method %s: allowed are uniform, block", val);
			snprintf(rc_method, sizeof rc_method, "%s", val);
		} else if (!strcmp(a, "--recompute-num-layers")) {
			if (parse_int(val, &rc_layers) < 0 || rc_layers < 1)
				return imp_error(file, w[i].line, "import --from megatron: --recompute-num-layers %s: allowed is an "
				                 "integer >= 1", val);
		} else if (!strcmp(a, "--recompute-modules")) {
			/* nargs='*' in arguments.py: the names follow as one value each; the words
			 * after this one that do not start with "--" */
			snprintf(rc_modules, sizeof rc_modules, "%s", val);
			while (i + 1 < n && strncmp(w[i + 1].text, "--", 2) &&
			       strlen(rc_modules) + strlen(w[i + 1].text) + 2 < sizeof rc_modules) {
				i++;
				snprintf(rc_modules + strlen(rc_modules), sizeof rc_modules - strlen(rc_modules), ",%s", w[i].text);
			}
		} else if (!strcmp(a, "--moe-token-dispatcher-type")) {
			if (strcmp(val, "alltoall") && strcmp(val, "allgather") && strcmp(val, "flex"))
				return imp_error(file, w[i].line, "import --from megatron: --moe-token-dispatcher-type %s: allowed are "
				                 "alltoall, allgather, flex", val);
			snprintf(disp, sizeof disp, "%s", val);
		} else if (!strcmp(a, "--moe-flex-dispatcher-backend")) {
			if (strcmp(val, "deepep") && strcmp(val, "hybridep"))
				return imp_error(file, w[i].line, "import --from megatron: --moe-flex-dispatcher-backend %s: allowed "
				                 "are deepep, hybridep (ncclep is not modelled)", val);
			snprintf(backend, sizeof backend, "%s", val);
		} else if (!strcmp(a, "--moe-expert-capacity-factor")) {
			char *end;
			capacity = strtod(val, &end);
			if (*end || !(capacity >= 0))
				return imp_error(file, w[i].line, "import --from megatron: --moe-expert-capacity-factor %s: expected "
				                 "a number >= 0", val);
			cap_line = w[i].line;
		} else if (!strcmp(a, "--attention-backend")) {
			put(o, "training.flash_attention", "%s", !strcmp(val, "unfused") || !strcmp(val, "local") ? "no" : "yes");
		} else if (!strcmp(a, "--fp8-format")) {
			fp8 = fp8 > 1 ? fp8 : 1;
		} else if (!strcmp(a, "--fp8-recipe")) {
			/* Megatron-LM TransformerConfig.fp8_recipe: mxfp8 is the block-scaled recipe;
			 * tensorwise, delayed and blockwise are per-tensor or per-block FP8 (fp8-te /
			 * fp8-params; blockwise's 128-element scales are not modelled apart) */
			if (!strcmp(val, "mxfp8"))
				fp8 = 2;
			else if (strcmp(val, "tensorwise") && strcmp(val, "delayed") && strcmp(val, "blockwise"))
				return imp_error(file, w[i].line, "import --from megatron: --fp8-recipe %s is not modelled "
				                 "(allowed: tensorwise, delayed, blockwise, mxfp8)", val);
		} else if (!strcmp(a, "--fp4-format") || !strcmp(a, "--fp4-recipe")) {
			if (!strcmp(a, "--fp4-recipe") && strcmp(val, "nvfp4"))
				return imp_error(file, w[i].line, "import --from megatron: --fp4-recipe %s is not modelled "
				                 "(allowed: nvfp4)", val);
			fp8 = 3;
		} else if (!strcmp(a, "--train-samples")) {
			samples = v;
		} else if (!strcmp(a, "--train-iters")) {
			iters = v;
		}
	}
	/* the token dispatcher: flex takes its backend (Megatron-Core's default deepep,
	 * transformer_config.py at commit d98e8a6); Megatron-Core's own default type is
	 * allgather */
	if (disp[0])
		put(o, "moe.dispatcher", "%s", strcmp(disp, "flex") ? disp : backend);
	else if (got(o, "model.experts"))
		put(o, "moe.dispatcher", "allgather");
	/* a capacity without padding drops tokens, which the plan does not model */
	if (capacity > 0) {
		if (!pad)
			return imp_error(file, cap_line, "import --from megatron: --moe-expert-capacity-factor without "
			                 "--moe-pad-expert-input-to-capacity drops tokens without padding, which is not "
			                 "modelled (allowed: with the padding flag)");
		put(o, "model.capacity_factor", "%g", capacity);
	}
	/* Megatron-LM's defaults for what the list leaves out */
	if (model) {
		if (!got(o, "model.mlp"))
			put(o, "model.mlp", "gelu");
		if (!got(o, "model.norm"))
			put(o, "model.norm", "layernorm");
		if (!got(o, "model.tied_embeddings"))
			put(o, "model.tied_embeddings", "yes");
		if (!got(o, "model.bias"))
			put(o, "model.bias", "yes");
		put(o, "model.dropout", "%s", dropout0 == 2 ? "no" : "yes");
		put(o, "model.max_pos", "%ld", rope ? 0 : maxpos > 0 ? maxpos : 0);
		if (!got(o, "model.kv_heads") && got(o, "model.heads"))
			put(o, "model.kv_heads", "%s", got(o, "model.heads"));
	}
	if (!got(o, "parallel.sp"))
		put(o, "parallel.sp", "no");
	if (!got(o, "parallel.recompute"))
		put(o, "parallel.recompute", "none");
	/* full: uniform with one layer is the plan's default (no keys); the modules of
	 * selective granularity (Megatron-Core's default core_attn is 'selective') */
	if (!strcmp(got(o, "parallel.recompute"), "full") && (strcmp(rc_method, "uniform") || rc_layers != 1)) {
		put(o, "parallel.recompute_method", "%s", rc_method);
		put(o, "parallel.recompute_num_layers", "%ld", rc_layers);
	}
	if (!strcmp(got(o, "parallel.recompute"), "selective") && rc_modules[0] && strcmp(rc_modules, "core_attn")) {
		put(o, "parallel.recompute", "modules");
		put(o, "parallel.recompute_modules", "%s", rc_modules);
	}
	put(o, "parallel.zero", "%d", fsdp ? strategy : zero);
	/* --fp8-param-gather builds the model with TE's FP8 parameters (fp8_model_init) */
	/* --fp8-recipe mxfp8 and --fp4-format are the block-scaled recipes (their parameters
	 * held in the block format, as Megatron-Bridge runs them) */
	if (fp8 >= 2 && fp8_params)
		put(o, "training.recipe", "%s", fp8 == 3 ? "nvfp4" : "mxfp8");
	else if (fp8 >= 2)
		return imp_error(file, 0, "import --from megatron: %s without %s (BF16 parameters with block-scaled "
		                 "copies) is not modelled: add %s (recipe %s)", fp8 == 3 ? "--fp4-format" : "--fp8-recipe mxfp8",
		                 fp8 == 3 ? "--fp4-param-gather" : "--fp8-param-gather",
		                 fp8 == 3 ? "--fp4-param-gather" : "--fp8-param-gather", fp8 == 3 ? "nvfp4" : "mxfp8");
	else
		put(o, "training.recipe", "%s", fp8 ? (fp8_params ? "fp8-params" : "fp8-te") : bf16 ? "megatron" : "fp32");
	if (layers < 0)
		layers = base->model.layers;
	if (vpl > 0 || vps > 1) {
		long vpp = vps > 1 ? vps : layers / (pp * vpl);
		put(o, "parallel.vpp", "%ld", vpp);
		put(o, "parallel.schedule", "interleaved");
	} else {
		put(o, "parallel.vpp", "1");
		put(o, "parallel.schedule", "1f1b");
	}
	if (pp > 1 && (first > 0 || last > 0)) {
		char list[512] = "";
		long mid_stages = pp - (first > 0) - (last > 0), rest = layers - first - last;
		if (mid_stages <= 0 || rest % mid_stages)
			return imp_error(file, 0, "import --from megatron: %ld layers, %ld stages: the first and last stage sizes "
			                 "leave %ld layers that do not split evenly over the other stages", layers, pp, rest);
		for (long s = 0; s < pp; s++) {
			long l = s == 0 && first > 0 ? first : s == pp - 1 && last > 0 ? last : rest / mid_stages;
			snprintf(list + strlen(list), sizeof list - strlen(list), "%s%ld", s ? "," : "", l);
		}
		put(o, "parallel.layers_per_stage", "%s", list);
	}
	if (seq < 0)
		seq = base->seq_len;
	if (gb < 0)
		gb = base->global_batch;
	if (samples >= 0)
		put(o, "training.tokens", "%.17g", (double)samples * seq);
	else if (iters >= 0)
		put(o, "training.tokens", "%.17g", (double)iters * gb * seq);
	if (nodes > 0 && ppn > 0) {
		put(o, "cluster.nodes", "%ld", nodes);
		put(o, "cluster.gpus_per_node", "%ld", ppn);
	}
	put(o, "parallel.dp", "0");
	return 0;
}

/* ------------------------------------------------------------------------ */
/* torchtitan: the TOML of torchtitan/config/job_config.py. */

static const char *const tt_sections[] = {
	"training", "parallelism", "activation_checkpoint",
	/* sections of no use to the plan */
	"job", "profiling", "metrics", "model", "optimizer", "lr_scheduler", "checkpoint", "compile", "float8",
	"mx", "quantize", "comm", "memory_estimation", "fault_tolerance", "experimental", "validation", "debug",
	NULL};
static const char *const tt_training[] = {"local_batch_size", "global_batch_size", "seq_len", "steps",
	"mixed_precision_param", NULL};
static const char *const tt_training_skip[] = {"dataset", "dataset_path", "max_norm", "enable_cpu_offload",
	"mixed_precision_reduce", "gc_freq", "seed", "deterministic", "warmup_steps", NULL};
static const char *const tt_parallelism[] = {"data_parallel_replicate_degree", "data_parallel_shard_degree",
	"fsdp_reshard_after_forward", "tensor_parallel_degree", "pipeline_parallel_degree",
	"pipeline_parallel_schedule", "pipeline_parallel_microbatch_size", "pipeline_parallel_layers_per_stage",
	"context_parallel_degree", "expert_parallel_degree", "expert_tensor_parallel_degree", NULL};
static const char *const tt_parallelism_skip[] = {"disable_loss_parallel", "enable_async_tensor_parallel",
	"enable_compiled_autograd", "pipeline_parallel_split_points", "module_fqns_per_model_part",
	"pipeline_parallel_first_stage_less_layers", "pipeline_parallel_last_stage_less_layers",
	"pipeline_parallel_schedule_csv", "context_parallel_rotate_method", "pipeline_parallel_expert_parallel_overlap",
	NULL};
static const char *const tt_ac[] = {"mode", NULL};
static const char *const tt_ac_skip[] = {"selective_ac_option", "per_op_sac_force_recompute_mm_shapes_by_fqns",
	"early_stop", "memory_budget", "visualize_memory_budget_pareto", NULL};

static int in_list(const char *const *l, const char *s)
{
	for (int i = 0; l[i]; i++)
		if (!strcmp(l[i], s))
			return 1;
	return 0;
}

static void join(const char *const *l, char *buf, size_t n)
{
	buf[0] = 0;
	for (int i = 0; l[i]; i++)
		snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", i ? ", " : "", l[i]);
}

static int unknown_name(const char *file, int line, const char *what, const char *name, const char *const *allowed,
                        const char *const *skip)
{
	struct calc_suggest s;
	char dym[160], list[1024];
	calc_suggest_init(&s, name);
	for (int i = 0; allowed[i]; i++)
		calc_suggest_offer(&s, allowed[i]);
	for (int i = 0; skip && skip[i]; i++)
		calc_suggest_offer(&s, skip[i]);
	join(allowed, list, sizeof list);
	return imp_error(file, line, "import: unknown %s '%s'; allowed: %s%s", what, name, list,
	                 calc_suggest_text(&s, dym, sizeof dym));
}

static int import_torchtitan(char *text, const char *file, const struct calc_plan *base, struct ini_out *o)
{
	char section[64] = "";
	long rep = 1, shard = -1, tp = 1, pp = 1, cp = 1, lbs = -1, gbs = -1, seq = -1, steps = -1, lps = 0, mb = -1, v;
	int line = 0, reshard_never = 0, sched = CALC_SCHED_1F1B;
	for (char *ln = text, *next; ln && *ln; ln = next) {
		char *p, *eq, *key, *val;
		int q = 0;
		next = strchr(ln, '\n');
		if (next)
			*next++ = 0;
		line++;
		for (p = ln; *p; p++) { /* '#' outside a string starts a comment */
			if (*p == '"')
				q = !q;
			else if (*p == '#' && !q) {
				*p = 0;
				break;
			}
		}
		while (isspace((unsigned char)*ln))
			ln++;
		for (p = ln + strlen(ln); p > ln && isspace((unsigned char)p[-1]);)
			*--p = 0;
		if (!*ln)
			continue;
		if (*ln == '[') {
			char *end = strchr(ln, ']');
			if (!end || end[1])
				return imp_error(file, line, "import --from torchtitan: a section header is [NAME]");
			*end = 0;
			snprintf(section, sizeof section, "%s", ln + 1);
			if (!in_list(tt_sections, section))
				return unknown_name(file, line, "torchtitan section", section, tt_sections, NULL);
			continue;
		}
		if (!(eq = strchr(ln, '=')))
			return imp_error(file, line, "import --from torchtitan: expected KEY = VALUE");
		*eq = 0;
		key = ln;
		for (p = eq; p > key && isspace((unsigned char)p[-1]);)
			*--p = 0;
		val = eq + 1;
		while (isspace((unsigned char)*val))
			val++;
		if (*val == '"') {
			size_t l = strlen(val);
			if (l < 2 || val[l - 1] != '"')
				return imp_error(file, line, "import --from torchtitan: %s: unterminated string", key);
			val[l - 1] = 0;
			val++;
		}
		if (!section[0])
			return imp_error(file, line, "import --from torchtitan: %s before any [section]", key);
		if (!strcmp(section, "training")) {
			if (in_list(tt_training_skip, key))
				continue;
			if (!in_list(tt_training, key))
				return unknown_name(file, line, "[training] key", key, tt_training, tt_training_skip);
		} else if (!strcmp(section, "parallelism")) {
			if (in_list(tt_parallelism_skip, key))
				continue;
			if (!in_list(tt_parallelism, key))
				return unknown_name(file, line, "[parallelism] key", key, tt_parallelism, tt_parallelism_skip);
		} else if (!strcmp(section, "activation_checkpoint")) {
			if (in_list(tt_ac_skip, key))
				continue;
			if (!in_list(tt_ac, key))
				return unknown_name(file, line, "[activation_checkpoint] key", key, tt_ac, tt_ac_skip);
			if (strcmp(val, "none") && strcmp(val, "selective") && strcmp(val, "full"))
				return imp_error(file, line, "import --from torchtitan: mode = \"%s\": allowed are none, selective, full", val);
			put(o, "parallel.recompute", "%s", val);
			continue;
		} else {
			continue; /* a section of no use to the plan */
		}
		if (!strcmp(key, "fsdp_reshard_after_forward")) {
			if (strcmp(val, "default") && strcmp(val, "always") && strcmp(val, "never"))
				return imp_error(file, line, "import --from torchtitan: %s = \"%s\": allowed are default, always, never", key, val);
			reshard_never = !strcmp(val, "never");
			continue;
		}
		if (!strcmp(key, "mixed_precision_param")) {
			if (!strcmp(val, "float32"))
				put(o, "training.recipe", "fp32");
			continue;
		}
		if (!strcmp(key, "pipeline_parallel_schedule")) {
			static const struct { const char *tt; int s; } names[] = {
				{"GPipe", CALC_SCHED_GPIPE}, {"1F1B", CALC_SCHED_1F1B},
				{"Interleaved1F1B", CALC_SCHED_INTERLEAVED}, {"DualPipeV", CALC_SCHED_DUALPIPE}};
			sched = -1;
			for (size_t j = 0; j < sizeof names / sizeof names[0]; j++)
				if (!strcmp(val, names[j].tt))
					sched = names[j].s;
			if (sched < 0)
				return imp_error(file, line, "import --from torchtitan: pipeline_parallel_schedule = \"%s\": the plan "
				                 "models GPipe, 1F1B, Interleaved1F1B, DualPipeV", val);
			continue;
		}
		if (parse_int(val, &v) < 0 && !(strcmp(key, "data_parallel_shard_degree") == 0 && !strcmp(val, "-1")) &&
		    !(strcmp(key, "global_batch_size") == 0 && !strcmp(val, "-1")))
			return imp_error(file, line, "import --from torchtitan: %s = %s: expected a whole number", key, val);
		v = strtol(val, NULL, 10);
		if (!strcmp(key, "data_parallel_replicate_degree")) rep = v;
		else if (!strcmp(key, "data_parallel_shard_degree")) shard = v;
		else if (!strcmp(key, "tensor_parallel_degree")) tp = v;
		else if (!strcmp(key, "pipeline_parallel_degree")) pp = v;
		else if (!strcmp(key, "context_parallel_degree")) cp = v;
		else if (!strcmp(key, "pipeline_parallel_microbatch_size")) mb = v;
		else if (!strcmp(key, "pipeline_parallel_layers_per_stage")) lps = v;
		else if (!strcmp(key, "expert_parallel_degree")) put(o, "parallel.ep", "%ld", v);
		else if (!strcmp(key, "expert_tensor_parallel_degree")) put(o, "parallel.etp", "%ld", v);
		else if (!strcmp(key, "local_batch_size")) lbs = v;
		else if (!strcmp(key, "global_batch_size")) gbs = v;
		else if (!strcmp(key, "seq_len")) seq = v;
		else if (!strcmp(key, "steps")) steps = v;
	}
	put(o, "parallel.tp", "%ld", tp);
	put(o, "parallel.pp", "%ld", pp);
	put(o, "parallel.cp", "%ld", cp);
	put(o, "parallel.sp", "%s", tp > 1 ? "yes" : "no");
	if (shard > 0) {
		long dp = rep * shard;
		put(o, "parallel.dp", "%ld", dp);
		put_gpus(o, dp * tp * pp * cp, base);
		if (lbs > 0 && gbs <= 0)
			gbs = lbs * dp;
	} else {
		put(o, "parallel.dp", "0");
	}
	if (shard > 1) {
		put(o, "parallel.zero", "%d", reshard_never ? 2 : 3);
		if (!reshard_never) {
			put(o, "parallel.fsdp", "yes");
			if (rep > 1)
				put(o, "parallel.hsdp", "%ld", shard * cp);
		}
	} else {
		put(o, "parallel.zero", "0");
	}
	if (gbs > 0)
		put(o, "training.global_batch", "%ld", gbs);
	if (seq > 0)
		put(o, "training.seq_len", "%ld", seq);
	if (mb > 0)
		put(o, "training.micro_batch", "%ld", mb);
	if (steps > 0)
		put(o, "training.tokens", "%.17g", (double)steps * (gbs > 0 ? gbs : base->global_batch) *
		                                   (seq > 0 ? seq : base->seq_len));
	put(o, "parallel.schedule", "%s", calc_schedule_name((enum calc_schedule)sched));
	if (sched == CALC_SCHED_INTERLEAVED) {
		long vpp = lps > 0 ? base->model.layers / (pp * lps) : 2;
		put(o, "parallel.vpp", "%ld", vpp);
	} else {
		put(o, "parallel.vpp", "1");
	}
	if (!got(o, "parallel.recompute"))
		put(o, "parallel.recompute", "selective"); /* torchtitan's default mode */
	return 0;
}

/* ------------------------------------------------------------------------ */
/* DeepSpeed: the config JSON of docs/_pages/config-json.md. */

static const char *const ds_keys[] = {"train_batch_size", "train_micro_batch_size_per_gpu",
	"gradient_accumulation_steps", "bf16", "fp16", "zero_optimization", "tensor_parallel", "pipeline",
	"sequence_parallel_size", "activation_checkpointing", NULL};
static const char *const ds_skip[] = {"optimizer", "scheduler", "gradient_clipping", "steps_per_print",
	"wall_clock_breakdown", "zero_allow_untested_optimizer", "communication_data_type", "prescale_gradients",
	"gradient_predivide_factor", "flops_profiler", "tensorboard", "wandb", "csv_monitor", "comms_logger",
	"checkpoint", "data_types", "amp", "elasticity", "autotuning", "aio", "dump_state", "memory_breakdown",
	"sparse_attention", "data_efficiency", "compression_training", "zero_force_ds_cpu_optimizer", NULL};

/* Line of the first '"name"' in the text, for messages (jansson keeps no key lines). */
static int key_line(const char *text, const char *name)
{
	char pat[160];
	const char *at;
	int line = 1;
	snprintf(pat, sizeof pat, "\"%s\"", name);
	if (!(at = strstr(text, pat)))
		return 0;
	for (const char *p = text; p < at; p++)
		line += *p == '\n';
	return line;
}

static int ds_int(json_t *root, const char *text, const char *file, const char *name, long *v)
{
	json_t *j = json_object_get(root, name);
	if (!j)
		return 0;
	if (!json_is_integer(j) || json_integer_value(j) < 1)
		return imp_error(file, key_line(text, name), "import --from deepspeed: \"%s\": expected a positive integer "
		                 "(\"auto\" is filled in by the launcher; give the number)", name);
	*v = (long)json_integer_value(j);
	return 0;
}

static int import_deepspeed(const char *text, const char *file, const struct calc_plan *base, struct ini_out *o)
{
	json_error_t err;
	json_t *root = json_loads(text, 0, &err), *j;
	const char *k;
	long tbs = -1, mbs = -1, gas = -1, tp = 1, pp = 1, cp = 1, dp;
	int rc = 0, half = 0;
	if (!root)
		return imp_error(file, err.line, "import --from deepspeed: %s", err.text);
	if (!json_is_object(root)) {
		json_decref(root);
		return imp_error(file, 1, "import --from deepspeed: the config is a JSON object");
	}
	json_object_foreach(root, k, j) {
		if (in_list(ds_skip, k))
			continue;
		if (!in_list(ds_keys, k)) {
			rc = unknown_name(file, key_line(text, k), "DeepSpeed key", k, ds_keys, ds_skip);
			goto out;
		}
	}
	if ((rc = ds_int(root, text, file, "train_batch_size", &tbs)) || (rc = ds_int(root, text, file, "train_micro_batch_size_per_gpu", &mbs)) ||
	    (rc = ds_int(root, text, file, "gradient_accumulation_steps", &gas)) ||
	    (rc = ds_int(root, text, file, "sequence_parallel_size", &cp)))
		goto out;
	if ((j = json_object_get(root, "tensor_parallel")) && (rc = ds_int(j, text, file, "autotp_size", &tp)))
		goto out;
	if ((j = json_object_get(root, "pipeline")) && json_object_get(j, "stages") &&
	    (rc = ds_int(j, text, file, "stages", &pp)))
		goto out;
	if ((j = json_object_get(root, "zero_optimization"))) {
		json_t *st = json_object_get(j, "stage");
		if (st && (!json_is_integer(st) || json_integer_value(st) < 0 || json_integer_value(st) > 3)) {
			rc = imp_error(file, key_line(text, "stage"), "import --from deepspeed: zero_optimization.stage: allowed are 0, 1, 2, 3");
			goto out;
		}
		put(o, "parallel.zero", "%d", st ? (int)json_integer_value(st) : 0);
	} else {
		put(o, "parallel.zero", "0");
	}
	for (int h = 0; h < 2; h++) {
		json_t *prec = json_object_get(root, h ? "fp16" : "bf16");
		half |= prec && json_is_true(json_object_get(prec, "enabled"));
	}
	if (!half)
		put(o, "training.recipe", "fp32");
	put(o, "parallel.recompute", "%s", json_object_get(root, "activation_checkpointing") ? "full" : "none");
	/* the section's partition_activations and cpu_checkpointing (deepspeed.checkpointing.configure)
	 * are the plan keys of the same names; with TP and the plan's SP the checkpoint is the
	 * 1/t shard already (export --for deepspeed writes true for it), so the key is left */
	if ((j = json_object_get(root, "activation_checkpointing"))) {
		if (json_is_true(json_object_get(j, "partition_activations")) && !(tp > 1 && base->sp))
			put(o, "parallel.partition_activations", "yes");
		if (json_is_true(json_object_get(j, "cpu_checkpointing")))
			put(o, "parallel.cpu_checkpointing", "yes");
	}
	if (tbs < 0 && mbs > 0 && gas > 0) {
		rc = imp_error(file, 0, "import --from deepspeed: train_batch_size is needed with the data-parallel ranks "
		               "unknown (train_batch_size = micro-batch x accumulation steps x data-parallel ranks)");
		goto out;
	}
	if (mbs < 0 && tbs > 0 && gas > 0)
		mbs = 1;
	if (gas < 0)
		gas = 1;
	if (mbs < 0)
		mbs = base->micro_batch;
	if (tbs > 0) {
		if (tbs % (mbs * gas)) {
			rc = imp_error(file, key_line(text, "train_batch_size"), "import --from deepspeed: train_batch_size %ld is not "
			               "a multiple of train_micro_batch_size_per_gpu x gradient_accumulation_steps = %ld", tbs, mbs * gas);
			goto out;
		}
		dp = tbs / (mbs * gas);
		put(o, "training.global_batch", "%ld", tbs);
		put(o, "parallel.dp", "%ld", dp);
		put_gpus(o, dp * tp * pp * cp, base);
	}
	put(o, "training.micro_batch", "%ld", mbs);
	put(o, "parallel.tp", "%ld", tp);
	put(o, "parallel.pp", "%ld", pp);
	put(o, "parallel.cp", "%ld", cp);
	put(o, "parallel.sp", "%s", tp > 1 && json_is_true(json_object_get(json_object_get(root, "activation_checkpointing"),
	                                                                    "partition_activations")) ? "yes" : "no");
	put(o, "parallel.vpp", "1");
	put(o, "parallel.schedule", "1f1b");
out:
	json_decref(root);
	return rc;
}

/* ------------------------------------------------------------------------ */

static char *read_all(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	size_t cap = 1 << 14, n = 0;
	char *buf;
	if (!f)
		return NULL;
	buf = malloc(cap);
	while (buf) {
		size_t r;
		if (n + 1 >= cap) {
			char *nb = cap > (64u << 20) ? NULL : realloc(buf, cap *= 2);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
		}
		r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
		if (r == 0)
			break;
	}
	if (buf)
		buf[n] = 0;
	if (f != stdin)
		fclose(f);
	*len = n;
	return buf;
}

int cmd_import(int argc, char **argv)
{
	static const char *const fws[] = {"megatron", "torchtitan", "deepspeed", NULL};
	struct cli_opts o;
	struct calc_plan base;
	struct ini_out out = {0};
	const char *fw = NULL, *path = NULL, *name;
	char *text;
	size_t len;
	int rc, which = -1;

	if ((rc = cli_parse(argc, argv, &o)) != 0)
		return rc;
	if (o.format_given || o.nsets)
		return cli_error("import: writes a plan (INI); --format and --set are not taken");
	for (int i = 0; i < o.nrest; i++) {
		const char *v;
		if ((v = cli_opt(&o, &i, "--from")))
			fw = v;
		else if (o.rest[i][0] == '-' && o.rest[i][1])
			return cli_error("import: unknown argument '%s' (allowed: --from FRAMEWORK, FILE, --plan BASE)", o.rest[i]);
		else if (path)
			return cli_error("import: one file at a time");
		else
			path = o.rest[i];
	}
	if (!fw)
		return cli_error("import: name the framework: --from megatron|torchtitan|deepspeed");
	for (int k = 0; fws[k]; k++)
		if (!strcmp(fw, fws[k]))
			which = k;
	if (which < 0) {
		struct calc_suggest s;
		char dym[160];
		calc_suggest_init(&s, fw);
		for (int k = 0; fws[k]; k++)
			calc_suggest_offer(&s, fws[k]);
		calc_suggest_offer(&s, "nemo");
		return cli_error("import: unknown framework '%s': allowed are megatron, torchtitan, deepspeed "
		                 "(NeMo is written by export only)%s", fw,
		                 calc_suggest_text(&s, dym, sizeof dym));
	}
	if (!path)
		return cli_error("import: name the file to read ('-' reads standard input)");
	if (o.plan && !strcmp(o.plan, "-") && !strcmp(path, "-"))
		return cli_error("import: standard input can be read once");
	if ((rc = cli_load(&o, &base)) != 0)
		return rc;
	name = strcmp(path, "-") ? path : "<stdin>";
	if (!(text = read_all(path, &len)))
		return cli_error("%s: cannot read: %s", name, strerror(errno ? errno : ENOMEM));
	if (strlen(text) != len) {
		free(text);
		return imp_error(name, 0, "import: the file holds a NUL byte; expected text");
	}
	switch (which) {
	case 0: rc = import_megatron(text, name, &base, &out); break;
	case 1: rc = import_torchtitan(text, name, &base, &out); break;
	default: rc = import_deepspeed(text, name, &base, &out); break;
	}
	free(text);
	if (rc)
		return rc;
	write_ini(&out, fw, name, o.plan && strcmp(o.plan, "-") ? o.plan : NULL, stdout);
	return 0;
}
