/*
 * tests/calc/output.c -- whole-or-absent outputs (calc/output.c).
 *
 * Each case writes into a fresh folder and reads the files back; the expected
 * contents are the literal strings written.
 */
#include "testutil.h"

#include "../../calc/output.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64];

static void slurp(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	size_t r = fread(buf, 1, n - 1, f);
	buf[r] = 0;
	fclose(f);
}

static int entries(const char *d)
{
	int n = 0;
	DIR *dp = opendir(d);
	struct dirent *e;
	while ((e = readdir(dp)))
		n += e->d_name[0] != '.';
	closedir(dp);
	return n;
}

static void test_together(void **state)
{
	char a[128], b[128], bad[128], got[64];
	struct calc_diag d = {0};
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/calc-output-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(a, sizeof a, "%s/report.html", dir);
	snprintf(b, sizeof b, "%s/report.pdf", dir);
	snprintf(bad, sizeof bad, "%s/no-such-folder/report.pdf", dir);

	struct calc_output two[2] = {{a, "html 1", 6}, {b, "pdf 1", 5}};
	assert_int_equal(calc_output_write(two, 2, &d), 0);
	slurp(a, got, sizeof got);
	assert_string_equal(got, "html 1");
	slurp(b, got, sizeof got);
	assert_string_equal(got, "pdf 1");

	/* the second cannot be written: the first keeps its old contents, no temporary */
	struct calc_output fail[2] = {{a, "html 2", 6}, {bad, "pdf 2", 5}};
	assert_int_equal(calc_output_write(fail, 2, &d), -1);
	assert_int_equal(d.nerrors, 1);
	assert_string_equal(d.recs[0].file, bad);
	slurp(a, got, sizeof got);
	assert_string_equal(got, "html 1");
	assert_int_equal(entries(dir), 2);

	unlink(a);
	unlink(b);
	rmdir(dir);
	calc_diag_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_together),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
