/*
 * json-check.c -- checks the envelope of a trainplan JSON output (README,
 * "Machine-readable output") read from standard input:
 *
 *   json-check COMMAND plan|noplan < output.json
 *
 * The keys schema, command, plan, units, data first and in that order; schema
 * "trainplan/1"; command COMMAND; plan an object with file, model, gpus, tp, pp, dp,
 * cp, ep, vpp, schedule and sp (a boolean), or null for noplan; every numeric field
 * of data named in units with a non-empty unit; no key with a space or a capital;
 * no yes/no text and no 0/1 where a yes/no is meant (the fields below).  Exit status
 * 0 when it holds, 1 with one line per fault on stderr.
 */
#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

static int faults;

static void fault(const char *path, const char *what)
{
	fprintf(stderr, "json-check: %s: %s\n", path, what);
	faults++;
}

/* Fields that are a yes/no wherever they appear: a table column "fits" and the
 * catalog's yes/no quantities (their descriptions read "1 when ..."). */
static int meant_bool(const char *key)
{
	static const char *const names[] = {"fits", "sp", "memory.fits", "fp8.te.fits", "fp8.lm.fits",
	                                    "checkpoint.async", "checkpoint.optimizer", "plan.sp",
	                                    "plan.flash_attention", "plan.post_validation", NULL};
	for (int i = 0; names[i]; i++)
		if (!strcmp(key, names[i]))
			return 1;
	return 0;
}

static void walk(const json_t *v, const char *key, const char *path, const json_t *units)
{
	char sub[512];
	if (json_is_object(v)) {
		const char *k;
		json_t *x;
		json_object_foreach((json_t *)v, k, x) {
			snprintf(sub, sizeof sub, "%s.%s", path, k);
			for (const char *p = k; *p; p++)
				if (*p == ' ' || isupper((unsigned char)*p)) {
					fault(sub, "key is not snake_case");
					break;
				}
			walk(x, k, sub, units);
		}
	} else if (json_is_array(v)) {
		size_t i;
		json_t *x;
		json_array_foreach(v, i, x) {
			snprintf(sub, sizeof sub, "%s[%zu]", path, i);
			walk(x, key, sub, units);
		}
	} else if (json_is_number(v)) {
		const json_t *u = key ? json_object_get(units, key) : NULL;
		if (!u || !json_is_string(u) || !*json_string_value(u))
			fault(path, "numeric field without a unit in units");
		if (key && meant_bool(key))
			fault(path, "a number where a boolean is meant");
	} else if (json_is_string(v)) {
		if (!strcmp(json_string_value(v), "yes") || !strcmp(json_string_value(v), "no"))
			fault(path, "yes/no as text, not a boolean");
	}
}

int main(int argc, char **argv)
{
	static const char *const order[] = {"schema", "command", "plan", "units", "data"};
	static const char *const ints[] = {"gpus", "tp", "pp", "dp", "cp", "ep", "vpp"};
	json_error_t err;
	json_t *root, *plan, *units;
	void *it;

	if (argc != 3 || (strcmp(argv[2], "plan") && strcmp(argv[2], "noplan"))) {
		fprintf(stderr, "usage: json-check COMMAND plan|noplan < output.json\n");
		return 2;
	}
	if (!(root = json_loadf(stdin, JSON_REJECT_DUPLICATES, &err))) {
		fprintf(stderr, "json-check: not JSON: line %d: %s\n", err.line, err.text);
		return 1;
	}
	if (!json_is_object(root)) {
		fault("$", "not an object");
		return 1;
	}
	it = json_object_iter(root);
	for (size_t i = 0; i < 5; i++, it = it ? json_object_iter_next(root, it) : NULL)
		if (!it || strcmp(json_object_iter_key(it), order[i]))
			fault("$", "the keys do not start schema, command, plan, units, data");
	if (!json_is_string(json_object_get(root, "schema")) ||
	    strcmp(json_string_value(json_object_get(root, "schema")), "trainplan/1"))
		fault("$.schema", "not \"trainplan/1\"");
	if (!json_is_string(json_object_get(root, "command")) ||
	    strcmp(json_string_value(json_object_get(root, "command")), argv[1]))
		fault("$.command", "not the command run");
	plan = json_object_get(root, "plan");
	if (!strcmp(argv[2], "noplan")) {
		if (!json_is_null(plan))
			fault("$.plan", "not null");
	} else if (!json_is_object(plan))
		fault("$.plan", "not an object");
	else {
		for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
			if (!json_is_integer(json_object_get(plan, ints[i])) ||
			    json_integer_value(json_object_get(plan, ints[i])) < 1)
				fault("$.plan", "a degree or the GPU count is missing or not a positive integer");
		if (!json_is_string(json_object_get(plan, "file")) || !json_is_string(json_object_get(plan, "model")) ||
		    !json_is_string(json_object_get(plan, "schedule")))
			fault("$.plan", "file, model or schedule missing");
		if (!json_is_boolean(json_object_get(plan, "sp")))
			fault("$.plan.sp", "not a boolean");
	}
	units = json_object_get(root, "units");
	if (!json_is_object(units))
		fault("$.units", "not an object");
	if (!json_object_get(root, "data"))
		fault("$.data", "missing");
	walk(json_object_get(root, "data"), NULL, "$.data", units);
	json_decref(root);
	return faults ? 1 : 0;
}
