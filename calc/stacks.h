/*
 * stacks.h -- software stacks: named conventions of a framework (stacks.c).
 */
#ifndef CALC_STACKS_H
#define CALC_STACKS_H

/* A stack preset: plan keys as "section.key=value", applied where the plan leaves the
 * key unset (efficiency.stack). */
struct calc_stack {
	const char *name;      /* "torchtitan" */
	const char *title;     /* one line */
	const char *source;    /* where its conventions come from */
	const char *knobs[12]; /* "section.key=value", NULL-terminated */
	const char *alias;     /* another stack's name: this name is that stack (its knobs unused) */
};
/* The stack of that name, an alias resolved to its stack; NULL: no such stack. */
const struct calc_stack *calc_stack_find(const char *name);
const struct calc_stack *calc_stack_at(int i);              /* NULL past the end */

#endif
