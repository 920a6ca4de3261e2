/*
 * cmd_search.c -- `trainplan search`: every valid split of the plan's model over its
 * cluster, the rejects by reason, the best K with their breakdowns and the runner-up
 * on each axis.  The planner itself is search.c.
 *
 *   trainplan search [--plan FILE] [--set K=V]... [--format text|csv|json|md|tsv]
 *                    [--gpus N | A-B | A,B,...] [--top K] [--objective time|cost|memory|effective-days|total-cost]
 *                    [--vary recipe] [--even] [--min-headroom BYTES] [--max-mb N] [--max-cp N] [--max-vpp N]
 *                    [--threads N] [--no-recheck] [--all] [--stats] [--table NAME]
 * --gpus A-B doubles from A to B; --all writes every configuration (csv for
 * spreadsheets); --stats prints only the counts and the elapsed time as JSON (keys
 * evaluated, rejected, elapsed_s).  CSV, Markdown and TSV print one table, top unless
 * --table names breakdown, axes or rejects.  Exit status 1 when no configuration fits.
 * A search that runs a second or more shows its progress on stderr, only when stderr
 * is a terminal and the output is text or Markdown (never beside JSON, CSV or TSV):
 * the share of the work done, weighted by the leaves of each item (search.h), and the
 * time left at the rate so far.
 */
#include "cli.h"
#include "../calc/files.h"
#include "../calc/output.h"
#include "../calc/search.h"

#include <limits.h>
#include <stdarg.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GB 1e9

static int progress_shown;

/* One progress line, rewritten in place: share done, elapsed, and the time left if the
 * rest goes at the rate so far (elapsed x (1 - done) / done). */
static void progress(void *arg, double done, double elapsed)
{
	(void)arg;
	if (elapsed < 1.0)
		return;
	if (done > 0 && done < 1)
		fprintf(stderr, "\rsearch: %3.0f%% (%.1f s, about %.0f s left)   ", done * 100, elapsed,
		        ceil(elapsed * (1 - done) / done));
	else
		fprintf(stderr, "\rsearch: %3.0f%% (%.1f s)                    ", done * 100, elapsed);
	fflush(stderr);
	progress_shown = 1;
}

static int parse_int(const char *opt, const char *v, int lo, int hi, int *out)
{
	char *end;
	long n = strtol(v, &end, 10);
	if (!*v || *end || n < lo || n > hi)
		return cli_error("search: %s %s: expected an integer in %d .. %d", opt, v, lo, hi);
	*out = (int)n;
	return 0;
}

/* "N", "A-B" (doubling from A while <= B) or "A,B,C". */
static int parse_gpus(const char *v, struct calc_search_opts *o)
{
	const char *dash = strchr(v, '-');
	o->ngpus = 0;
	if (dash && !strchr(v, ',')) {
		char a[32];
		int lo, hi;
		snprintf(a, sizeof a, "%.*s", (int)(dash - v), v);
		if (parse_int("--gpus", a, 1, 1 << 24, &lo) || parse_int("--gpus", dash + 1, 1, 1 << 24, &hi))
			return 2;
		if (hi < lo)
			return cli_error("search: --gpus %s: the range is empty", v);
		for (long n = lo; n <= hi && o->ngpus < CALC_SEARCH_MAX_GPUS; n *= 2)
			o->gpus[o->ngpus++] = (int)n;
		return 0;
	}
	while (*v) {
		char a[32];
		size_t k = strcspn(v, ",");
		snprintf(a, sizeof a, "%.*s", (int)(k < 31 ? k : 31), v);
		if (o->ngpus == CALC_SEARCH_MAX_GPUS)
			return cli_error("search: --gpus: at most %d GPU counts", CALC_SEARCH_MAX_GPUS);
		if (parse_int("--gpus", a, 1, 1 << 24, &o->gpus[o->ngpus]))
			return 2;
		o->ngpus++;
		v += k + (v[k] == ',');
	}
	return 0;
}

/* The recommendation and its rule (calc_search_pick, pick.c: the same in the report and
 * for a plan without a split). */
struct pick {
	int rank, safe, kept;   /* rank in the ranking (0: nothing ranked), 1: leaves the margin,
	                           the top K the rule looked at */
	struct calc_search_row r;
	struct calc_pick_why why; /* what the rule found (pick.c) */
	double fastest_time;      /* step time of the fastest that leaves the margin */
	double sim;               /* its step time with the pipeline simulator (NAN: not run) */
};

/* One configuration as a JSON object (units named in j). */
static json_t *json_row(struct cli_json *j, const struct calc_search_result *r0, const struct calc_search_row *x,
                        double sim)
{
	const struct calc_recipe *r = calc_recipe_at(x->c.recipe);
	json_t *o = json_object();
	cli_json_num(j, o, "gpus", x->c.gpus, "GPUs");
	cli_json_num(j, o, "tp", x->c.tp, "1");
	cli_json_num(j, o, "pp", x->c.pp, "1");
	cli_json_num(j, o, "dp", x->c.dp, "1");
	cli_json_num(j, o, "cp", x->c.cp, "1");
	cli_json_num(j, o, "vpp", x->c.vpp, "1");
	cli_json_num(j, o, "micro_batch", x->c.micro_batch, "sequences");
	cli_json_bool(o, "sp", x->c.sp);
	json_object_set_new(o, "recompute", json_string(calc_recompute_name((enum calc_recompute)x->c.recompute)));
	cli_json_num(j, o, "zero", x->c.zero, "1");
	json_object_set_new(o, "schedule", json_string(calc_schedule_name((enum calc_schedule)x->c.schedule)));
	json_object_set_new(o, "recipe", json_string(r ? r->name : "?"));
	if (x->c.uneven) { /* the plan keys that reproduce the placement of the layers */
		char buf[CALC_LAYOUT_MAX + 64];
		json_object_set_new(o, "split", json_string(calc_search_split_cell(r0, &x->c, buf, sizeof buf)));
	}
	if (r0->opts.offload_optimizer > 0) /* training.offload_optimizer of the configuration */
		cli_json_num(j, o, "offload_optimizer", x->c.offload, "1");
	cli_json_num(j, o, "memory", x->memory, "B");
	cli_json_num(j, o, "headroom", x->headroom, "B");
	cli_json_num(j, o, "worst_stage", x->worst, "1");
	cli_json_num(j, o, "step_time", x->step_time, "s");
	if (!isnan(sim))
		cli_json_num(j, o, "step_time_sim", sim, "s");
	cli_json_num(j, o, "mfu", x->mfu, "1");
	cli_json_num(j, o, "tokens_per_s", x->tokens_per_s, "tokens/s");
	cli_json_num(j, o, "run_time", x->run_time, "s");
	cli_json_num(j, o, "cost", x->cost, "currency");
	return o;
}

/* The counts of a search into 'data': evaluated, measured, ranked, and "rejected":
 * [{"reason": "tp-divides", "configurations": N}, ...] (a list: the reason "memory"
 * is not the field memory of a configuration). */
static void json_counts(struct cli_json *j, json_t *data, const struct calc_search_result *r)
{
	json_t *rej = json_array();
	cli_json_num(j, data, "evaluated", (double)r->evaluated, "1");
	cli_json_num(j, data, "measured", (double)r->measured, "1");
	cli_json_num(j, data, "ranked", (double)r->ranked, "1");
	for (int i = 1; i < CALC_REJ_N; i++)
		if (calc_search_reject_shown(r, (enum calc_reject)i)) {
			json_t *o = json_object();
			json_object_set_new(o, "reason", json_string(calc_reject_name((enum calc_reject)i)));
			cli_json_num(j, o, "configurations", (double)r->rejected[i], "1");
			json_array_append_new(rej, o);
		}
	json_object_set_new(data, "rejected", rej);
}

static int print_stats(const struct calc_plan *p, const struct calc_search_result *r)
{
	double el = r->elapsed_s > 0 ? r->elapsed_s : 1e-9, cpu = r->cpu_s > 0 ? r->cpu_s : 1e-9;
	struct cli_json j;
	json_t *data = json_object();
	cli_json_begin(&j, "search", p);
	json_counts(&j, data, r);
	cli_json_num(&j, data, "elapsed_s", r->elapsed_s, "s");
	cli_json_num(&j, data, "cpu_s", r->cpu_s, "s");
	cli_json_num(&j, data, "threads", r->threads, "1");
	cli_json_num(&j, data, "configs_per_s", round(r->evaluated / el), "1/s");
	cli_json_num(&j, data, "configs_per_cpu_s", round(r->evaluated / cpu), "1/s");
	cli_json_num(&j, data, "measured_per_s", round(r->measured / el), "1/s");
	cli_json_num(&j, data, "measured_per_cpu_s", round(r->measured / cpu), "1/s");
	return cli_json_end(&j, data, stdout);
}

static int print_json(const struct calc_plan *p, const struct calc_search_result *r, const struct pick *pick)
{
	struct cli_json j;
	json_t *data = json_object(), *top = json_array(), *axes = json_object();
	cli_json_begin(&j, "search", p);
	json_object_set_new(data, "objective", json_string(calc_objective_name(r->opts.objective)));
	json_counts(&j, data, r);
	if (pick->rank) { /* the recommendation (calc_search_pick) and whether it leaves the margin */
		/* its simulated time where the ranking shown holds it (the written plan's step.time) */
		json_t *rec = json_row(&j, r, &pick->r, pick->sim);
		cli_json_num(&j, rec, "rank", pick->rank, "1");
		json_object_set_new(rec, "leaves_margin", json_boolean(pick->safe));
		cli_json_num(&j, rec, "memory_margin", p->memory_margin, "1");
		if (pick->safe) { /* the band rule (pick.c): the fastest that leaves the margin, the band */
			cli_json_num(&j, rec, "fastest_rank", pick->why.fastest, "1");
			if (isfinite(pick->why.band))
				cli_json_num(&j, rec, "band", pick->why.band, "1");
		}
		json_object_set_new(data, "recommended", rec);
	}
	for (int i = 0; i < r->ntop; i++)
		json_array_append_new(top, json_row(&j, r, &r->top[i].r, r->top[i].sim_ok ? r->top[i].sim_time : NAN));
	json_object_set_new(data, "top", top);
	for (int a = 0; a < CALC_AXIS_N; a++) {
		char key[64];
		if (!r->have_axis[a])
			continue;
		calc_json_key(calc_search_axis_name(a), key, sizeof key);
		json_object_set_new(axes, key, json_row(&j, r, &r->axis[a], NAN));
	}
	json_object_set_new(data, "axes", axes);
	return cli_json_end(&j, data, stdout);
}

static void print_pick(const struct calc_plan *p, const struct calc_search_result *r, const struct pick *k)
{
	if (!k->rank)
		return;
	printf("recommended: rank %d, tp %d, pp %d, dp %d, cp %d", k->rank, k->r.c.tp, k->r.c.pp, k->r.c.dp, k->r.c.cp);
	if (p->model.moe.experts > 0)
		printf(", ep %d, etp %d", k->r.c.ep, k->r.c.etp);
	printf(", vpp %d, micro-batch %d, %s, recompute %s, ZeRO %d", k->r.c.vpp, k->r.c.micro_batch,
	       calc_schedule_name((enum calc_schedule)k->r.c.schedule),
	       calc_recompute_name((enum calc_recompute)k->r.c.recompute), k->r.c.zero);
	if (k->r.c.uneven) { /* the keys that place its layers, as the table's column "split" */
		char buf[CALC_LAYOUT_MAX + 64];
		printf(", layers placed by %s", calc_search_split_cell(r, &k->r.c, buf, sizeof buf));
	}
	if (r->opts.offload_optimizer > 0)
		printf(", optimizer offload %g", k->r.c.offload);
	printf(" (%.3f s per step, %.1f GB) -- ", k->r.step_time, k->r.memory / GB);
	if (k->safe && k->why.rank != k->why.fastest)
		/* the rules of calc/pick.c: without a framework (plan.framework = any, or a stack
		 * of none) no ZeRO stage counts as more sharding, and the schedules go 1F1B,
		 * interleaved, then the rest */
		printf("of the top %d that leave plan.memory_margin = %.0f%% of the usable memory (%.2f GB) free, the "
		       "simplest within %s = %.1f%% of the fastest (rank %d, %.3f s): %s%sfewer pipeline stages, less CP, %s",
		       k->kept, 100 * p->memory_margin, p->memory_margin * p->gpu_memory / GB, calc_pick_band_key(p),
		       100 * k->why.band, k->why.fastest, k->fastest_time,
		       p->seq_len < 8192 ? "no CP below 8,192 tokens per sequence, " : "",
		       calc_plan_framework(p, NULL) ? "no more ZeRO than the framework's recipes run, " : "",
		       calc_plan_framework(p, NULL) ? "the framework's default schedule"
		                                    : "1F1B, then interleaved, then the other schedules (no framework named)");
	else if (k->safe && isfinite(k->why.band))
		printf("the first of the top %d that leaves plan.memory_margin = %.0f%% of the usable memory (%.2f GB) "
		       "free; none simpler within %s = %.1f%% of it", k->kept, 100 * p->memory_margin,
		       p->memory_margin * p->gpu_memory / GB, calc_pick_band_key(p), 100 * k->why.band);
	else if (k->safe)
		printf("the first of the top %d that leaves plan.memory_margin = %.0f%% of the usable memory (%.2f GB) "
		       "free", k->kept, 100 * p->memory_margin, p->memory_margin * p->gpu_memory / GB);
	else
		printf("the first: none of the top %d leaves plan.memory_margin = %.0f%% of the usable memory (%.2f GB) "
		       "free", k->kept, 100 * p->memory_margin, p->memory_margin * p->gpu_memory / GB);
	if (k->safe && k->why.window_short)
		printf("; every one of the top %d is inside the band: more were not read", k->kept);
	printf("; the report and a plan without a split take the same\n");
}

/* search --offload-optimizer as given (0: not given), for the grid line's reason */
static double want_offload;

static void print_text(const struct calc_plan *p, const struct calc_search_result *r, const struct pick *pick)
{
	struct calc_table t;
	const struct calc_search_opts *o = &r->opts;
	int sim_best = 0;

	printf("plan: %s\n", p->file);
	printf("model: %s (%d layers, hidden %d, %d heads, %d KV heads, FFN %d)\n", p->model.name, p->model.layers,
	       p->model.hidden, p->model.heads, p->model.kv_heads, p->model.ffn_hidden);
	printf("cluster: %s, %.2f GB usable per GPU, %d GPUs per node; GPUs searched:", p->gpu.name,
	       p->gpu_memory / GB, p->gpus_per_node);
	for (int i = 0; i < o->ngpus; i++)
		printf(" %d", o->gpus[i]);
	printf("\ntraining: global batch %d x %d tokens, recipe %s\n", p->global_batch, p->seq_len,
	       o->vary_recipe ? "(every recipe that holds gradients)" : p->recipe->name);
	printf("grid: tp | N; pp | N/tp (%s); cp <= %d; micro-batch 1..%d; ",
	       o->even_only ? "dividing the layers" : "uneven splits allowed", o->max_cp, o->max_mb);
	/* the schedules in the search's order: those without vpp, then each vpp schedule */
	for (int k = 0, n = 0; k < 2; k++)
		for (int i = 0; i < calc_schedule_count(); i++)
			if (calc_schedule_at(i)->uses_vpp == k && (i >= 64 || (o->sched_mask >> i & 1))) {
				printf("%s%s", n++ ? ", " : "", calc_schedule_at(i)->name);
				if (k)
					printf(" vpp 2..%d", o->max_vpp);
			}
	if (!o->allow) { /* the schedules of the plan's framework (plan.framework, frameworks.c) */
		int how, n = 0;
		const struct calc_framework *f = calc_plan_framework(p, &how);
		if (f) {
			printf(" (%s runs these: plan.framework = %s%s%s; not searched:", f->title, how ? "stack, " : f->name,
			       how ? "efficiency.stack = " : "", how ? (p->stack ? p->stack->name : "megatron-core") : "");
			for (int i = 0; i < calc_schedule_count() && i < 64; i++)
				if (!(o->sched_mask >> i & 1))
					printf("%s %s", n++ ? "," : "", calc_schedule_at(i)->name);
			printf("%s)", n ? "" : " none");
		}
	}
	if (r->moe)
		printf("; ep | experts (ep x etp | tp x cp x dp), etp | tp up to a node");
	printf("; recompute %s; sp; ZeRO 0-3",
	       p->flash_attention ? "none/full (with FlashAttention selective equals none: kept as none)"
	                          : "none/selective/full");
	{ /* the optimizer offload, where the plan or --offload-optimizer asks for it */
		const char *why;
		struct calc_search_opts asked = *o;
		asked.offload_optimizer = want_offload;
		double f = calc_search_offload_share(p, &asked, &why);
		if (f > 0)
			printf("; optimizer offload none or %g (training.offload_optimizer, ZeRO >= 1; host link %.4g GB/s, "
			       "host optimizer %.4g parameters/s)", f, p->gpu.pcie_bw / 1e9, p->cpu_optimizer_rate);
		else if (why)
			printf("; optimizer offload not considered: %s", why);
	}
	printf("\n");
	for (int i = 0; i < calc_schedule_count(); i++) /* the flushed rows: ZB-H2 */
		if (calc_schedule_at(i)->flushed)
			printf("%s %s\n", calc_schedule_at(i)->name, p->post_validation
			        ? "without a flush between steps (parallel.post_validation = yes, Qi et al. 2024 §4)"
			        : "with a flush between steps (parallel.post_validation = no): bubble (p-1) max(F, "
			          "F+B-2W), not the back-to-back (p-1)(F+B-2W)");
	if (o->allow) {
		const struct calc_framework *f = o->allow_arg;
		printf("framework: %s runs schedules", f->title);
		for (int i = 0; i < CALC_FRAMEWORK_SCHEDS && f->schedules[i] >= 0; i++)
			printf("%s %s", i ? "," : "", calc_schedule_name((enum calc_schedule)f->schedules[i]));
		printf("; ZeRO");
		for (int z = 0, n = 0; z < 4; z++)
			if (f->zero >> z & 1)
				printf("%s%d", n++ ? "," : " ", z);
		if (f->zero_pp != f->zero) {
			printf(" (with pp > 1:");
			for (int z = 0, n = 0; z < 4; z++)
				if (f->zero_pp >> z & 1)
					printf("%s%d", n++ ? "," : " ", z);
			printf(")");
		}
		printf("%s%s (calc/frameworks.c)\n", f->sp_with_tp ? "; SP with every TP" : "",
		       f->cp_one ? "; cp 1" : "");
	}
	printf("searched %lld configurations: %lld valid, %lld fit and are ranked by %s\n", r->evaluated,
	       r->measured, r->ranked, calc_objective_name(o->objective));
	print_pick(p, r, pick);
	printf("\n");
	if (r->ntop) {
		calc_search_table_top(r, &t);
		calc_table_write(&t, CALC_F_TEXT, stdout);
		calc_table_free(&t);
		printf("\n");
		calc_search_table_breakdown(r, &t);
		calc_table_write(&t, CALC_F_TEXT, stdout);
		calc_table_free(&t);
		printf("\n");
		calc_search_table_axes(r, &t);
		calc_table_write(&t, CALC_F_TEXT, stdout);
		calc_table_free(&t);
		printf("\n");
	} else if (r->measured == 0)
		printf("no configuration is valid: every one breaks a rule below\n\n");
	else
		printf("no configuration fits in memory\n\n");
	calc_search_table_rejects(r, &t);
	calc_table_write(&t, CALC_F_TEXT, stdout);
	calc_table_free(&t);
	for (int i = 1; i < r->ntop; i++)
		if (r->top[i].sim_ok && r->top[0].sim_ok && r->top[i].sim_time < r->top[sim_best].sim_time)
			sim_best = i;
	if (r->ntop && r->top[0].sim_ok) {
		printf("\nsimulator re-check of the top %d: the winner takes %.3f s per step simulated (%.3f s closed "
		       "form); ", r->ntop, r->top[0].sim_time, r->top[0].r.step_time);
		if (sim_best)
			printf("rank %d is the fastest under the simulator (%.3f s)\n", sim_best + 1,
			       r->top[sim_best].sim_time);
		else
			printf("it stays the fastest under the simulator\n");
	}
}

/* ------------------------------------------------------------------------ */
/* --write-plan: the recommendation as a plan file                           */
/* ------------------------------------------------------------------------ */

#define WP_MAX 48

/* The keys the written plan sets, "section.name" and value, in order. */
struct wp_keys {
	int n;
	char key[WP_MAX][192];
	char val[WP_MAX][1024];
};

static void wp_set(struct wp_keys *k, const char *key, const char *fmt, ...)
{
	va_list ap;
	int i = 0;
	while (i < k->n && strcmp(k->key[i], key))
		i++;
	if (i == WP_MAX)
		return;
	if (i == k->n)
		snprintf(k->key[k->n++], sizeof k->key[0], "%s", key);
	va_start(ap, fmt);
	vsnprintf(k->val[i], sizeof k->val[0], fmt, ap);
	va_end(ap);
}

static int wp_has(const struct wp_keys *k, const char *sec, const char *name)
{
	char key[192];
	snprintf(key, sizeof key, "%s.%s", sec, name);
	for (int i = 0; i < k->n; i++)
		if (!strcmp(k->key[i], key))
			return 1;
	return 0;
}

/* "section.name" of an override's key: as written, or the one key of that name. */
static int wp_resolve(const char *kv, char *key, size_t n, const char **val)
{
	const char *eq = strchr(kv, '=');
	char name[64];
	int found = 0;
	if (!eq)
		return -1;
	snprintf(name, sizeof name, "%.*s", (int)(eq - kv), kv);
	*val = eq + 1;
	if (strchr(name, '.')) {
		snprintf(key, n, "%s", name);
		return 0;
	}
	for (int i = 0; calc_plan_key_at(i); i++)
		if (!strcmp(calc_plan_key_at(i)->key, name)) {
			snprintf(key, n, "%s.%s", calc_plan_key_at(i)->section, name);
			found++;
		}
	return found == 1 ? 0 : -1;
}

struct buf {
	char *s;
	size_t len, cap;
};

static void bprintf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (b->len + (size_t)n + 1 > b->cap) {
		b->cap = (b->len + (size_t)n + 1) * 2;
		b->s = realloc(b->s, b->cap);
		if (!b->s) {
			fprintf(stderr, "trainplan: out of memory\n");
			exit(2);
		}
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

/* The plan file's own lines, those of a key the written plan sets turned into comments
 * (a key twice in one file is refused), an include by a relative path made absolute
 * (the written file may lie elsewhere).  Returns 0, or 2 after a message. */
static int wp_copy(const char *file, const struct wp_keys *k, struct buf *b)
{
	char why[128], line[4096], sec[64] = "", dir[PATH_MAX];
	FILE *f = calc_file_open(file, "r", why, sizeof why);
	if (!f)
		return cli_error("%s: cannot open the plan: %s", file, why);
	if (!realpath(file, dir))
		snprintf(dir, sizeof dir, "%s", file);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	bprintf(b, "; the plan %s as written, with the split below in place of its own\n", file);
	while (fgets(line, sizeof line, f)) {
		char name[96], *t = line, *eq;
		size_t n;
		while (*t == ' ' || *t == '\t')
			t++;
		if (*t == '[' && strchr(t, ']')) {
			snprintf(sec, sizeof sec, "%.*s", (int)(strchr(t, ']') - t - 1), t + 1);
			bprintf(b, "%s", line);
			continue;
		}
		eq = strchr(t, '=');
		if (*t == ';' || *t == '#' || !eq) {
			bprintf(b, "%s", line);
			continue;
		}
		n = (size_t)(eq - t);
		while (n > 0 && (t[n - 1] == ' ' || t[n - 1] == '\t'))
			n--;
		snprintf(name, sizeof name, "%.*s", (int)n, t);
		if (!strcmp(name, "include")) {
			char path[PATH_MAX], *v = eq + 1;
			while (*v == ' ' || *v == '\t')
				v++;
			snprintf(path, sizeof path, "%.*s", (int)strcspn(v, " \t;\r\n"), v);
			if (path[0] != '/')
				bprintf(b, "include = %s/%s\n", dir, path);
			else
				bprintf(b, "%s", line);
			continue;
		}
		if (wp_has(k, sec, name) ||
		    (!strcmp(sec, "parallel") && (!strcmp(name, "recompute_modules") || !strcmp(name, "recompute_method") ||
		                                  !strcmp(name, "recompute_num_layers") ||
		                                  !strcmp(name, "layers_per_stage"))))
			bprintf(b, "; replaced below: %s", t);
		else
			bprintf(b, "%s", line);
		if (line[strlen(line) - 1] != '\n')
			bprintf(b, "\n");
	}
	fclose(f);
	return 0;
}

/* Write the recommendation 'c' of the search of 'plan' as a plan file at 'path': the
 * plan file's lines and the overrides, then every key of the split.  Returns 0 or 2.
 * Not inlined: its 70 kB frame would be the search's (struct search_locals). */
static __attribute__((noinline)) int write_plan(const char *path, const struct cli_opts *o,
                                                const struct calc_plan *plan, const struct pick *k,
                                                const struct calc_search_result *r)
{
	struct wp_keys keys = {0};
	struct buf b = {0};
	struct calc_plan won;
	const struct calc_search_cfg *c = &k->r.c;
	const struct calc_recipe *rc = calc_recipe_at(c->recipe);
	struct calc_diag d = {0};
	int rc2;

	for (int i = 0; i < o->nsets; i++) {
		char key[192];
		const char *val;
		if (wp_resolve(o->sets[i], key, sizeof key, &val) == 0)
			wp_set(&keys, key, "%s", val);
	}
	calc_search_apply(plan, c, &won);
	if (c->nodes != plan->nodes || c->gpus_per_node != plan->gpus_per_node) {
		wp_set(&keys, "cluster.nodes", "%d", c->nodes);
		wp_set(&keys, "cluster.gpus_per_node", "%d", c->gpus_per_node);
	}
	wp_set(&keys, "training.micro_batch", "%d", c->micro_batch);
	if (rc && r->opts.vary_recipe)
		wp_set(&keys, "training.recipe", "%s", rc->name);
	wp_set(&keys, "parallel.tp", "%d", c->tp);
	wp_set(&keys, "parallel.pp", "%d", c->pp);
	wp_set(&keys, "parallel.dp", "%d", c->dp);
	wp_set(&keys, "parallel.cp", "%d", c->cp);
	wp_set(&keys, "parallel.vpp", "%d", c->vpp);
	wp_set(&keys, "parallel.sp", "%s", c->sp ? "yes" : "no");
	wp_set(&keys, "parallel.zero", "%d", c->zero);
	wp_set(&keys, "parallel.recompute", "%s", calc_recompute_name((enum calc_recompute)c->recompute));
	wp_set(&keys, "parallel.schedule", "%s", calc_schedule_name((enum calc_schedule)c->schedule));
	if (r->opts.offload_optimizer > 0 || c->offload != plan->offload_optimizer) {
		char num[32]; /* the shortest text that reads back as the same share */
		snprintf(num, sizeof num, "%.15g", c->offload);
		if (strtod(num, NULL) != c->offload)
			snprintf(num, sizeof num, "%.17g", c->offload);
		wp_set(&keys, "training.offload_optimizer", "%s", num);
	}
	if (plan->model.moe.experts > 0) {
		wp_set(&keys, "parallel.ep", "%d", c->ep);
		wp_set(&keys, "parallel.etp", "%d", c->etp);
	}
	if (c->split != CALC_SPLIT_PLAN) {
		/* a Megatron-Core rule the planner tried (account_*, first/last stage layers):
		 * its own keys, which place the chunks of virtual stages as the search costed them
		 * and which export turns into the framework's flags; a stage list would be
		 * refused where vpp does not divide an end stage (3, 4, ..., 4, 3 at vpp 4) */
		char text[CALC_LAYOUT_MAX + 64], *save = NULL;
		calc_search_split_text(plan, c, text, sizeof text);
		for (char *t = strtok_r(text, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
			char *eq = strchr(t, '='), key[96];
			if (!eq)
				continue;
			*eq = 0;
			snprintf(key, sizeof key, "parallel.%s", t);
			wp_set(&keys, key, "%s", eq + 1);
		}
	} else if (won.pp > 1 && !calc_plan_has_layout(plan)) {
		/* the stages as the plan's rule splits them at this depth (the plan's own layout
		 * keys, copied with its lines, place them otherwise) */
		char list[1024] = "";
		for (int i = 0; i < won.pp && i < CALC_MAX_STAGES; i++)
			snprintf(list + strlen(list), sizeof list - strlen(list), "%s%d", i ? "," : "",
			         won.layers_per_stage[i]);
		wp_set(&keys, "parallel.layers_per_stage", "%s", list);
	}
	bprintf(&b, "; written by trainplan search --write-plan: its recommendation, rank %d by %s of %lld ranked",
	        k->rank, calc_objective_name(r->opts.objective), r->ranked);
	if (r->opts.allow)
		bprintf(&b, ", %s", ((const struct calc_framework *)r->opts.allow_arg)->title);
	bprintf(&b, "\n; closed-form step time %.6g s, worst stage %.4g GB per GPU\n", k->r.step_time, k->r.memory / GB);
	if (o->plan && (rc2 = wp_copy(o->plan, &keys, &b))) {
		free(b.s);
		return rc2;
	}
	bprintf(&b, "\n; the split (trainplan search --write-plan)\n");
	for (int pass = 0; pass < 4; pass++) {
		static const char *const secs[] = {"cluster", "training", "parallel", NULL};
		const char *sec = secs[pass];
		int head = 0;
		if (!sec) { /* the overrides' other sections */
			for (int i = 0; i < keys.n; i++) {
				const char *dot = strchr(keys.key[i], '.');
				if (!dot || !strncmp(keys.key[i], "cluster.", 8) || !strncmp(keys.key[i], "training.", 9) ||
				    !strncmp(keys.key[i], "parallel.", 9))
					continue;
				bprintf(&b, "[%.*s]\n%s = %s\n", (int)(dot - keys.key[i]), keys.key[i], dot + 1, keys.val[i]);
			}
			break;
		}
		for (int i = 0; i < keys.n; i++)
			if (!strncmp(keys.key[i], sec, strlen(sec)) && keys.key[i][strlen(sec)] == '.') {
				if (!head++)
					bprintf(&b, "[%s]\n", sec);
				bprintf(&b, "%s = %s\n", keys.key[i] + strlen(sec) + 1, keys.val[i]);
			}
	}
	struct calc_output out = {path, b.s, b.len};
	rc2 = calc_output_write(&out, 1, &d);
	free(b.s);
	if (rc2 < 0)
		return cli_fail(&d);
	calc_diag_free(&d);
	return 0;
}

/*
 * Load the plan.  The search chooses the split itself, so a plan whose own split is
 * invalid (pp = 8 for a 126-layer model, say) is loaded again with a neutral one
 * (tp = pp = cp = vpp = 1, 1f1b, micro-batch 1) and a note lists what was ignored.
 * Returns 0, or 2 after printing the diagnostics of the plan as given.
 */
static int load_for_search(const struct cli_opts *o, struct calc_plan *plan)
{
	static const char *const neutral[] = {"parallel.tp=1", "parallel.pp=1", "parallel.cp=1",
	                                      "parallel.vpp=1", "parallel.dp=0", "parallel.schedule=1f1b",
	                                      "training.micro_batch=1"};
	const char *sets[CLI_MAX_ARGS + 8];
	struct calc_diag d = {0}, d2 = {0};
	int n = 0;

	if (calc_plan_load(plan, o->plan, o->sets, o->nsets, &d) == 0) {
		calc_diag_free(&d);
		return 0;
	}
	for (int i = 0; i < o->nsets; i++)
		sets[n++] = o->sets[i];
	for (size_t i = 0; i < sizeof neutral / sizeof neutral[0]; i++)
		sets[n++] = neutral[i];
	if (calc_plan_load(plan, o->plan, sets, n, &d2) < 0) {
		calc_diag_free(&d2);
		return cli_fail(&d);
	}
	fprintf(stderr, "trainplan: note: the plan's own split is not valid; the search ignores it:\n");
	cli_fail(&d);
	calc_diag_free(&d2);
	return 0;
}

static int search_with(int argc, char **argv, struct cli_opts *o, struct calc_plan *plan,
                       struct calc_search_result *r, struct calc_table *t)
{
	struct calc_diag d = {0};
	struct calc_search_opts so;
	int rc, stats = 0, all = 0, want_top, k0;
	struct pick pick = {0};
	const char *table = "top", *write_path = NULL;
	const struct calc_framework *fw = NULL;

	if ((rc = cli_parse(argc, argv, o)))
		return rc;
	calc_search_opts_init(&so);
	so.leaves_per_thread = CALC_SEARCH_LEAVES_PER_THREAD; /* unless --threads is given */
	for (int i = 0; i < o->nrest; i++) {
		const char *v;
		const char *val, *opt = cli_next("search", o, &i, &val);
		if (!opt)
			return 2;
		if (cli_is(opt, "--gpus") && (v = val)) {
			if (parse_gpus(v, &so))
				return 2;
		} else if (cli_is(opt, "--top") && (v = val)) {
			if (parse_int("--top", v, 0, 100000, &so.top))
				return 2;
		} else if (cli_is(opt, "--objective") && (v = val)) {
			if (calc_objective_parse(v, &so.objective) < 0)
				return cli_error("search: --objective %s: allowed time, cost, memory, effective-days, total-cost", v);
		} else if (cli_is(opt, "--vary") && (v = val)) {
			if (strcmp(v, "recipe"))
				return cli_error("search: --vary %s: allowed recipe", v);
			so.vary_recipe = 1;
		} else if (cli_is(opt, "--min-headroom") && (v = val)) {
			if (calc_parse_number(v, CALC_U_BYTES, &so.min_headroom) < 0 || so.min_headroom < 0 ||
			    so.min_headroom > 1e15)
				return cli_error("search: --min-headroom %s: expected bytes with an optional unit, e.g. 8 GB or "
				                 "4 GiB", v);
		} else if (cli_is(opt, "--offload-optimizer") && (v = val)) {
			char *end;
			so.offload_optimizer = strtod(v, &end);
			if (end == v || *end || !(so.offload_optimizer > 0 && so.offload_optimizer <= 1))
				return cli_error("search: --offload-optimizer %s: expected the share of the optimizer states "
				                 "to try on the host, > 0 .. 1 (training.offload_optimizer)", v);
		} else if (cli_is(opt, "--max-mb") && (v = val)) {
			if (parse_int("--max-mb", v, 1, 1024, &so.max_mb))
				return 2;
		} else if (cli_is(opt, "--max-cp") && (v = val)) {
			if (parse_int("--max-cp", v, 1, 1 << 20, &so.max_cp))
				return 2;
		} else if (cli_is(opt, "--max-vpp") && (v = val)) {
			if (parse_int("--max-vpp", v, 1, 64, &so.max_vpp))
				return 2;
		} else if (cli_is(opt, "--threads") && (v = val)) {
			if (parse_int("--threads", v, 1, 64, &so.threads))
				return 2;
			so.leaves_per_thread = 0; /* the number given, whatever the grid */
		} else if (cli_is(opt, "--even"))
			so.even_only = 1;
		else if (cli_is(opt, "--no-recheck"))
			so.recheck = 0;
		else if (cli_is(opt, "--all"))
			all = 1;
		else if (cli_is(opt, "--stats"))
			stats = 1;
		else if (cli_is(opt, "--for") && (v = val)) {
			if (!(fw = calc_framework_find(v))) {
				char list[128] = "";
				for (int f = 0; calc_framework_at(f); f++)
					snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", f ? ", " : "",
					         calc_framework_at(f)->name);
				return cli_error("search: --for %s: allowed %s", v, list);
			}
			so.allow = calc_framework_allows;
			so.allow_arg = fw;
		} else if (cli_is(opt, "--write-plan") && (v = val))
			write_path = v;
		else if (cli_is(opt, "--table") && (v = val)) {
			if (cli_value_ok("search", "--table", v))
				return 2;
			table = v;
		} else if (!*opt)
			return cli_extra("search", val);
		else
			return cli_unhandled("search", opt);
	}
	want_offload = so.offload_optimizer;
	if (write_path && o->plan && !strcmp(o->plan, "-"))
		return cli_error("search --write-plan: the plan comes from standard input, which cannot be copied into "
		                 "the written plan; give it as a file");
	if ((rc = load_for_search(o, plan)))
		return rc;
	so.keep_all = all && !stats;
	if (isatty(2) && (o->format == CALC_F_TEXT || o->format == CALC_F_MD) && !stats) {
		so.progress = progress;
		so.progress_arg = NULL;
	}
	/* the recommendation looks at the default top K whatever --top shows, so that it is
	 * the report's and a split-less plan's (calc_plan_pick_split) */
	{
		want_top = so.top;
		if (so.top < CALC_PICK_TOP && !stats)
			so.top = CALC_PICK_TOP; /* the recommendation's window (pick.c) */
		k0 = so.top;
		if (!stats) /* its first growth kept at once (CALC_PICK_TOP_FIRST) */
			so.top = so.top < CALC_PICK_TOP_MAX / 4 ? 4 * so.top : CALC_PICK_TOP_MAX;
		so.recheck_top = want_top;
		so.breakdown_top = want_top; /* the breakdown table shows these alone */
	}
	if (calc_search(plan, &so, r, &d) < 0)
		return cli_fail(&d);
	/* the window from the rows kept, or the whole band in one more pass (pick.c) */
	if (!stats && calc_search_pick_band(plan, r, k0, &d) < 0)
		return cli_fail(&d);
	for (int k; !stats && (k = calc_search_pick_window(r, plan)) > 0;) {
		calc_search_free(r); /* the recommendation reads the whole band (pick.c) */
		so.top = k;
		if (calc_search(plan, &so, r, &d) < 0)
			return cli_fail(&d);
	}
	if (progress_shown)
		fputc('\n', stderr);
	{
		const struct calc_search_top *t = calc_search_pick(r, plan, &pick.rank);
		pick.safe = calc_search_safe_why(r, plan, &pick.why) != NULL;
		pick.fastest_time = pick.why.fastest ? r->top[pick.why.fastest - 1].r.step_time : NAN;
		pick.kept = calc_search_kept(r);
		pick.sim = NAN;
		if (t) {
			pick.r = t->r;
			if (t->sim_ok) {
				pick.sim = t->sim_time;
			} else if (!stats && r->opts.recheck && o->format == CALC_F_JSON) {
				/* the rule may pick below the rechecked top (pick.c looks at the top
				 * CALC_PICK_TOP): its simulated time, which the JSON's recommendation
				 * shows (print_json, its step_time_sim) and nothing else prints: the text,
				 * the tables and --write-plan do not run it (the 405B plan's pick, a
				 * shape of its own: 0.58 M of the command's 44.8 M instructions) */
				struct calc_plan *ap = xmalloc(sizeof *ap);
				struct calc_step *st = xmalloc(sizeof *st);
				struct calc_diag dd = {0};
				calc_search_apply(plan, &t->r.c, ap);
				if (calc_step(ap, st, &dd) == 0)
					pick.sim = st->time;
				calc_diag_free(&dd);
				free(st);
				free(ap);
			}
		}
		if (r->ntop > want_top)
			r->ntop = want_top;
		r->opts.top = so.top = want_top;
	}
	rc = 0;
	if (stats)
		rc = print_stats(plan, r);
	else if (all && o->format != CALC_F_JSON) {
		calc_search_table_rows(r, t);
		calc_table_write(t, o->format, stdout);
		calc_table_free(t);
	} else if (o->format == CALC_F_JSON)
		rc = print_json(plan, r, &pick);
	else if (o->format == CALC_F_TEXT)
		print_text(plan, r, &pick);
	else {
		if (!strcmp(table, "breakdown"))
			calc_search_table_breakdown(r, t);
		else if (!strcmp(table, "axes"))
			calc_search_table_axes(r, t);
		else if (!strcmp(table, "rejects"))
			calc_search_table_rejects(r, t);
		else
			calc_search_table_top(r, t);
		calc_table_write(t, o->format, stdout);
		calc_table_free(t);
	}
	if (!rc && write_path && pick.rank)
		rc = write_plan(write_path, o, plan, &pick, r);
	if (!rc)
		rc = r->ntop ? 0 : 1;
	calc_search_free(r);
	return rc;
}

/* The command's largest locals (the options, the plan, the result, a table: 22 kB) in
 * the heap, whose first 2 MiB page the command touches anyway (calc_heap_setup), not on
 * the stack, where each 4 KiB page below the deepest one touched so far is a page fault
 * of its own (10-20 us on the 2-core virtual machine; docs/architecture.md §11), and
 * under which every callee's frame then lay; write_plan, which --write-plan alone runs,
 * is not inlined (its 70 kB frame made the command's 104 kB).  Page faults of the main
 * thread's stack in `trainplan search --plan plans/llama3-405b-h100.ini` (perf record -e
 * page-faults -d): 18 -> 6; of the whole command (perf stat, 20 runs) 82 -> 69, the
 * default plan's 77 -> 66. */
struct search_locals {
	struct cli_opts o;
	struct calc_plan plan;
	struct calc_search_result r;
	struct calc_table t;
};

int cmd_search(int argc, char **argv)
{
	struct search_locals *l = xcalloc(1, sizeof *l);
	int rc = search_with(argc, argv, &l->o, &l->plan, &l->r, &l->t);
	free(l);
	return rc;
}
