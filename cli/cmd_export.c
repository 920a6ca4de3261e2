/*
 * cmd_export.c -- `trainplan export --for megatron|nemo|torchtitan|torchtitan-py|deepspeed`:
 * the plan's split and training settings as that framework takes them (calc/export.c).
 * torchtitan is the job TOML of torchtitan up to commit 238fa995, torchtitan-py the
 * config_registry.py function of torchtitan at commit b5bcd76c.
 *
 *   trainplan export --for FRAMEWORK [--plan FILE] [--set KEY=VALUE]...
 *
 * The export is written to memory first, so that a plan the framework cannot express
 * leaves stdout empty: one message at the plan key's file and line, exit status 2.
 */
#include "cli.h"
#include "../calc/export.h"
#include "../calc/suggest.h"

#include <stdlib.h>
#include <string.h>

int cmd_export(int argc, char **argv)
{
	struct cli_opts o;
	struct calc_plan plan;
	const char *fw = NULL;
	int which = -1, rc;

	if ((rc = cli_parse(argc, argv, &o)) != 0)
		return rc;
	if (o.format_given)
		return cli_error("export: the format follows the framework (--for); --format is not taken");
	for (int i = 0; i < o.nrest; i++) {
		const char *v;
		const char *val, *opt = cli_next("export", &o, &i, &val);
		if (!opt)
			return 2;
		if (cli_is(opt, "--for") && (v = val))
			fw = v;
		else if (!*opt)
			return cli_extra("export", val);
		else
			return cli_unhandled("export", opt);
	}
	if (!fw)
		return cli_error("export: name the framework: --for megatron|nemo|torchtitan|torchtitan-py|deepspeed");
	which = calc_export_find(fw);
	if (which < 0) {
		struct calc_suggest s;
		char dym[160];
		calc_suggest_init(&s, fw);
		for (int k = 0; k < CALC_EXPORT_N; k++)
			calc_suggest_offer(&s, calc_export_names[k]);
		return cli_error("export: unknown framework '%s': allowed are megatron, nemo, torchtitan, torchtitan-py, deepspeed%s", fw,
		                 calc_suggest_text(&s, dym, sizeof dym));
	}
	if ((rc = cli_load(&o, &plan)) != 0)
		return rc;
	struct calc_diag d = {0};
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return cli_error("export: out of memory");
	rc = calc_export(&plan, which, m, stderr, &d);
	fclose(m);
	if (rc < 0) {
		free(buf);
		return cli_fail(&d);
	}
	fwrite(buf, 1, len, stdout);
	free(buf);
	calc_diag_free(&d);
	return 0;
}
