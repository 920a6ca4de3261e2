/*
 * tests/fuzz/export.c -- libFuzzer harness of `trainplan export` (cli/cmd_export.c): what
 * it writes stays in the shape of its language, whatever the plan and its file name.
 *
 * The input up to its first NUL byte is a folder name (any bytes but '/', at most 200:
 * newlines, quotes, "$(...)", ESC), the rest a plan file; without a NUL the folder is
 * "d" and the whole input the plan.  The plan is saved as FOLDER/p.ini under a private
 * temporary folder; then
 * `trainplan export --for F --plan FOLDER/p.ini` runs for each framework F with its
 * standard output in a file.  Exit status 0 or 2 only; on 0 the output has no control
 * byte but newlines, and each line is one the format allows: the Megatron-LM launch
 * script only comments, "torchrun ..." and "    --flag ..." lines (so no line of the
 * file name runs as shell), the NeMo 2 (Megatron-Bridge) launch the same with indented
 * "--recipe" and KEY=VALUE lines, the torchtitan TOML
 * comments, [tables] and "key = value", the DeepSpeed JSON one object (jansson).
 */
#include "fuzz.h"
#include "cli.h"

#include <fcntl.h>
#include <jansson.h>
#include <sys/stat.h>

static const char *const fws[] = {"megatron", "nemo", "torchtitan", "deepspeed"};

/* Every line of 'out' (n bytes) starts with one of the prefixes, or is empty when
 * 'empty_ok'. */
static int lines_ok(const char *out, size_t n, const char *const *prefixes, int empty_ok)
{
	for (size_t i = 0; i < n;) {
		size_t e = i;
		while (e < n && out[e] != '\n')
			e++;
		int ok = empty_ok && e == i;
		for (int k = 0; prefixes[k] && !ok; k++)
			ok = e - i >= strlen(prefixes[k]) && !strncmp(out + i, prefixes[k], strlen(prefixes[k]));
		if (!ok)
			return 0;
		i = e + 1;
	}
	return 1;
}

/* 1 when a TOML line is a comment, a [table] or "name = value" with a lower-case name. */
static int toml_ok(const char *out, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t e = i, k = i;
		while (e < n && out[e] != '\n')
			e++;
		if (e > i && out[i] != '#' && out[i] != '[') {
			while (k < e && ((out[k] >= 'a' && out[k] <= 'z') || out[k] == '_'))
				k++;
			if (k == i || e - k < 3 || strncmp(out + k, " = ", 3))
				return 0;
		}
		i = e + 1;
	}
	return 1;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static int saved = -1, saved_err = -1, null_fd = -1;
	char root[] = "/tmp/trainplan-fuzz-export-XXXXXX", dir[512], plan[560], outp[600];
	size_t nl = 0;
	if (size > FUZZ_MAX_INPUT || !mkdtemp(root))
		return 0;
	while (nl < size && data[nl] != 0)
		nl++;
	const unsigned char *body = nl < size ? data + nl + 1 : data; /* no NUL: all of it is the plan */
	size_t nbody = nl < size ? size - nl - 1 : size;
	if (nl == size)
		nl = 0;
	/* the folder: the bytes before the NUL without '/', "d" when that leaves nothing */
	{
		char name[201];
		size_t k = 0;
		for (size_t i = 0; i < nl && k < 200; i++)
			if (data[i] != '/' && data[i] != 0)
				name[k++] = (char)data[i];
		name[k] = 0;
		if (!k || !strcmp(name, ".") || !strcmp(name, ".."))
			snprintf(name, sizeof name, "d");
		snprintf(dir, sizeof dir, "%s/%s", root, name);
	}
	snprintf(plan, sizeof plan, "%s/p.ini", dir);
	snprintf(outp, sizeof outp, "%s/out", root);
	if (mkdir(dir, 0700) == 0) {
		FILE *f = fopen(plan, "wb");
		if (f) {
			fwrite(body, 1, nbody, f);
			fclose(f);
			if (saved < 0) {
				saved = dup(1);
				saved_err = dup(2);
				null_fd = open("/dev/null", O_WRONLY);
			}
			for (int k = 0; k < 4; k++) {
				char *argv[] = {"export", "--for", (char *)fws[k], "--plan", plan, NULL};
				int fd = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0600), rc;
				if (fd < 0)
					break;
				fflush(stdout);
				fflush(stderr);
				dup2(fd, 1);
				close(fd);
				dup2(null_fd, 2); /* the messages of a refusal */
				rc = cmd_export(5, argv);
				fflush(stdout);
				fflush(stderr);
				dup2(saved, 1);
				dup2(saved_err, 2);
				FUZZ_CHECK(rc == 0 || rc == 2);
				if (rc == 0) {
					FILE *in = fopen(outp, "rb");
					char *out = malloc(1 << 20);
					size_t n = in ? fread(out, 1, (1 << 20) - 1, in) : 0;
					if (in)
						fclose(in);
					out[n] = 0;
					for (size_t i = 0; i < n; i++)
						FUZZ_CHECK((unsigned char)out[i] >= 0x20 || out[i] == '\n');
					FUZZ_CHECK(!memchr(out, 0x7F, n));
					if (k == 0) {
						static const char *const p[] = {"# ", "torchrun ", "    --", NULL};
						FUZZ_CHECK(lines_ok(out, n, p, 0));
					} else if (k == 1) {
						static const char *const p[] = {"# ", "torchrun ", "    ", NULL};
						FUZZ_CHECK(lines_ok(out, n, p, 0));
					} else if (k == 2) {
						FUZZ_CHECK(toml_ok(out, n));
					} else {
						json_error_t e;
						json_t *j = json_loadb(out, n, 0, &e);
						FUZZ_CHECK(j && json_is_object(j));
						json_decref(j);
					}
					free(out);
				}
			}
		}
		unlink(plan);
		unlink(outp);
		rmdir(dir);
	}
	rmdir(root);
	return 0;
}
