/*
 * catalog_args.c -- the named arguments of catalog tables and datasets
 * ("recipes=seed,megatron", "p=4 m=8"), as the CLI and the report's directives pass them.
 */
#include "catalog.h"

#include <string.h>

const char *calc_args_get(const struct calc_args *a, const char *key)
{
	for (int i = 0; a && i < a->n; i++)
		if (!strcmp(a->key[i], key))
			return a->val[i];
	return NULL;
}
