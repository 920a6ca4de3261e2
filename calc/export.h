/*
 * export.h -- a plan's settings as a framework's launch flags or config (export.c).
 */
#ifndef CALC_EXPORT_H
#define CALC_EXPORT_H

#include <stdio.h>

#include "diag.h"
#include "plan.h"

enum calc_export_fw { CALC_EXPORT_MEGATRON, CALC_EXPORT_NEMO, CALC_EXPORT_TORCHTITAN, CALC_EXPORT_DEEPSPEED,
                          CALC_EXPORT_TORCHTITAN_PY, CALC_EXPORT_N };
/* "megatron", "nemo", "torchtitan" (the job TOML of torchtitan up to commit 238fa995),
 * "deepspeed", "torchtitan-py" (a config_registry.py function of torchtitan at commit
 * b5bcd76c), then NULL: the names `export --for` takes. */
extern const char *const calc_export_names[CALC_EXPORT_N + 1];
/* The framework of that name, or -1. */
int calc_export_find(const char *name);
/* Write plan p as framework fw takes it to f: Megatron-LM's pretrain_gpt.py flags,
 * a Megatron-Bridge recipe override, a torchtitan TOML or config_registry.py function,
 * a DeepSpeed JSON.  Notes that the
 * format has no comments for (DeepSpeed's JSON) go to 'notes' (none when NULL).  A plan
 * the framework cannot express is an error at the plan key's file and line in d, with
 * nothing written to f; returns 0, or -1 after the diagnostic. */
int calc_export(const struct calc_plan *p, int fw, FILE *f, FILE *notes, struct calc_diag *d);

#endif
