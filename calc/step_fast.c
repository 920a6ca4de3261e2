/*
 * step_fast.c -- the planner's path through the step engine: the same three stages as
 * calc_step (step.c; struct calc_step_compute, struct calc_pipeline_in / out, then
 * calc_step_finish) with the closed-form bubble of the schedule (docs/references.md §3)
 * in place of the pipeline simulator, stage 1 shared by the leaves of a split, and the
 * lower bounds the planner prunes with (calc/search.c).  Nothing here holds a formula of
 * its own: every number comes from a stage function of step.c, so this path and the plain
 * walk agree bit for bit where they compute the same thing (`make check-fast`).
 */
#include "bounds.h"
#include "model.h"
#include "plan.h"
#include "step.h"

#include <string.h>

/* recompute_method = block counts the recomputed layers per chunk, so its hardware FLOPs
 * depend on vpp, which calc_step_compute does not read: computed again (NULL) then. */
static const struct calc_flops *flops_of(const struct calc_plan *plan, const struct calc_step_compute *pre)
{
	return plan->recompute == CALC_RC_FULL && plan->recompute_method == CALC_RC_METHOD_BLOCK ? NULL : &pre->flops;
}

/* calc_step_fast_with after its calc_comm_with, st->comm set. */
static void after_comm(const struct calc_plan *plan, const struct calc_step_compute *pre, struct calc_step *st)
{
	int nk = calc_model_nkinds(&plan->model);
	/* without the split's stage layers (calc_comm_pre) they are computed into buf */
	struct calc_stage_layers buf[pre->comm && pre->comm->have_sl ? 1 : CALC_MAX_STAGES];
	struct calc_pipeline_in in;
	struct calc_pipeline_out out;
	double busy;

	for (int k = 0; k < nk; k++) {
		st->kind_layer[k] = pre->kind[k];
		calc_step_layer_comm(plan, &st->comm, k, &st->kind_layer[k]);
	}
	st->layer = st->kind_layer[0];
	calc_step_pipeline_in(plan, st->kind_layer, &pre->ends, pre->comm, buf, NULL, st->comm.p2p, &in);
	calc_step_out_of(st, &out);
	busy = calc_step_pipeline(&in, NULL, &out);
	calc_step_out_to(&out, st);
	st->bubble = calc_step_closed_bubble(&in.shape, st->tf, st->tb, st->tw);
	st->makespan = busy + st->bubble;
	calc_step_finish_with(plan, st, flops_of(plan, pre), pre->comm ? pre->comm->dp_memo : NULL);
}

void calc_step_fast_with(const struct calc_plan *plan, const struct calc_step_compute *pre, struct calc_step *st)
{
	calc_comm_with(plan, pre->comm, &st->comm);
	after_comm(plan, pre, st);
}

void calc_step_fast_resched(const struct calc_plan *plan, const struct calc_step_compute *pre,
                            struct calc_step *st)
{
	calc_comm_resched(plan, pre->comm, &st->comm); /* the PP, DP and expert-DP rows alone */
	after_comm(plan, pre, st);
}

void calc_step_fast_rezero(const struct calc_plan *plan, const struct calc_step_compute *pre,
                           struct calc_step *st)
{
	/* st->kind_layer, critical, tf, tb, tw, compute, recompute, tp_comm, ep_exposed,
	 * bubble and makespan stay: calc_step_layer_comm reads only the TP, CP and EP
	 * collectives, and the pipeline stage is given no plan, only the p2p time of the
	 * collectives, none of which depends on the ZeRO stage -- but for ZeRO-3's parameter
	 * offload (training.offload_param), whose copies per layer do: timed again */
	if (plan->offload_param) {
		calc_step_fast_with(plan, pre, st);
		return;
	}
	calc_comm_rezero(plan, pre->comm, &st->comm); /* the DP and expert-DP rows alone */
	calc_step_finish_rezero(plan, st, flops_of(plan, pre), pre->comm ? pre->comm->dp_memo : NULL);
}

void calc_step_fast_busy(const struct calc_plan *plan, const struct calc_step_compute *pre,
                         struct calc_step *scratch, struct calc_step_busy *out)
{
	struct calc_stage_layers buf[pre->comm && pre->comm->have_sl ? 1 : CALC_MAX_STAGES];
	struct calc_pipeline_in in;
	struct calc_pipeline_out o;

	/* the critical GPU's busy time without collectives (stage 1's layer times): every
	 * candidate stage's compute is at most its time with them, so the maximum is too */
	(void)scratch;
	calc_step_pipeline_in(plan, pre->kind, &pre->ends, pre->comm, buf, NULL, 0, &in);
	memset(&o, 0, sizeof o);
	out->busy = calc_step_pipeline(&in, NULL, &o);
	out->tf = o.tf;
	out->tb = o.tb;
	out->tw = o.tw;
	out->uniform = in.uniform;
}

double calc_step_fast_bound_of(const struct calc_plan *plan, const struct calc_step_busy *b,
                               struct calc_step *scratch)
{
	double lb = b->busy;

	/* With every stage holding the same layers of one kind the collectives add the same
	 * to every stage, so the critical stage is the same with and without them, and every
	 * closed form grows with its F and B at a fixed W: the bubble without collectives
	 * (and without the point-to-point sends) bounds the bubble with them. */
	(void)scratch;
	if (b->uniform) { /* calc_stage_layers_uniform, the same for every schedule of the split */
		struct calc_pipeline_shape sh;
		calc_step_pipeline_shape(plan, 0, &sh);
		lb += calc_step_closed_bubble(&sh, b->tf, b->tb, b->tw);
	}
	return lb; /* the exposed DP reduction and the optimizer only add to it */
}

double calc_step_fast_bound(const struct calc_plan *plan, const struct calc_step_compute *pre,
                            struct calc_step *scratch)
{
	struct calc_step_busy b;

	calc_step_fast_busy(plan, pre, scratch, &b);
	return calc_step_fast_bound_of(plan, &b, scratch);
}

void calc_step_dp_parts(const struct calc_plan *plan, const struct calc_comm_pre *pre, struct calc_step_dp_lb *out)
{
	double params;
	/* calc_step_finish's dp->time (the same number: comm.c dp_collectives; 0 with
	 * parallel.fsdp, whose per-unit exposure is not bounded here) and the optimizer
	 * without the routed experts' shard, which only adds to it */
	out->dp = calc_comm_dp_only(plan, pre, &params);
	out->opt = calc_step_optimizer_time(plan, params, 0, pre->group[CALC_DIM_DP].size);
}

/*
 * Why calc_step_dp_bound_at is a lower bound of the step time T of calc_step_fast_with
 * (and calc_step_fast_rezero) for every makespan M >= lb (docs/architecture.md §11):
 * calc_step_finish sets T = M + E + O + overhead with overhead >= 0, O the optimizer
 * (>= x->opt, the routed experts' shard left out) and, outside FSDP, E = D - min(ov D, Wn)
 * with D the DP collectives' time (x->dp, the same number), ov = efficiency.dp_overlap
 * and the window Wn = (z >= 2 ? m : 1)(T_B + T_W) + (z >= 3 ? m : 1) T_F of the critical
 * GPU's per micro-batch times, whose busy time is m (T_F + T_B + T_W) (calc_step_pipeline)
 * and M = busy + bubble with a bubble >= 0 (calc_pipeline_closed_flush clamps it at 0;
 * the p2p term is >= 0).  So Wn <= M / m for z <= 1 and Wn <= M for z >= 2 (m >= 1):
 * Wn <= M / k.  g(M) = M + D - min(ov D, M / k) is nondecreasing in M (slope 1 or
 * 1 - 1/k >= 0), so T >= g(M) + O >= g(lb) + x->opt.  The window is taken 1e-9 larger
 * than lb / k so that the rounding of Wn and of the sums stays on the safe side where
 * lb = M.  At a low bandwidth D >> M / k and the bound is about D + lb (1 - 1/k) where
 * (1 - ov) D + lb was all the old one knew.  Under FSDP D = 0 and E >= 0.
 */
double calc_step_dp_bound_at(const struct calc_plan *plan, const struct calc_step_dp_lb *x, double lb)
{
	double ov = plan->dp_overlap < 0 ? 0 : plan->dp_overlap > 1 ? 1 : plan->dp_overlap;
	int m = calc_plan_microbatches(plan);
	double win, hid;

	if (!(lb >= 0)) /* no makespan bound: (1 - ov) D alone, as calc_step_dp_bound */
		return (1 - ov) * x->dp + x->opt;
	if (m < 1)
		m = 1;
	win = (plan->zero >= 2 ? lb : lb / m) * (1 + 1e-9);
	hid = ov * x->dp < win ? ov * x->dp : win;
	return lb + (x->dp - hid) + x->opt;
}

double calc_step_dp_bound(const struct calc_plan *plan, const struct calc_comm_pre *pre)
{
	double ov = plan->dp_overlap < 0 ? 0 : plan->dp_overlap > 1 ? 1 : plan->dp_overlap;
	struct calc_step_dp_lb x;
	calc_step_dp_parts(plan, pre, &x);
	/* calc_step_finish: dp_exposed = dp - min(ov dp, window) >= (1 - ov) dp, plus the
	 * expert-DP reduction (>= 0); FSDP's per-unit exposure is not bounded here (dp = 0).
	 * The optimizer without the routed experts' shard, which only adds to it. */
	return (1 - ov) * x.dp + x.opt;
}

void calc_step_fast(const struct calc_plan *plan, struct calc_step *st)
{
	struct calc_step_compute pre;
	calc_step_compute(plan, &pre);
	calc_step_fast_with(plan, &pre, st);
}
