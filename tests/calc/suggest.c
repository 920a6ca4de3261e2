/*
 * suggest.c -- unit tests of the edit distance and the did-you-mean choice
 * (calc/suggest.c).  Expected distances are counted by hand: each comment names
 * the edits.
 */
#include "testutil.h"
#include "suggest.h"

#include <string.h>

static void test_distance(void **state)
{
	(void)state;
	assert_int_equal(calc_suggest_distance("", ""), 0);
	assert_int_equal(calc_suggest_distance("abc", ""), 3);          /* 3 deletions */
	assert_int_equal(calc_suggest_distance("", "tp"), 2);           /* 2 insertions */
	assert_int_equal(calc_suggest_distance("kitten", "sitting"), 3); /* k->s, e->i, +g */
	assert_int_equal(calc_suggest_distance("memroy", "memory"), 1); /* swap r,o */
	assert_int_equal(calc_suggest_distance("tpp", "tp"), 1);        /* delete p */
	assert_int_equal(calc_suggest_distance("ppp", "pp"), 1);
	assert_int_equal(calc_suggest_distance("Memory", "memory"), 0); /* case ignored */
	assert_int_equal(calc_suggest_distance("ca", "abc"), 3);        /* OSA: no edit of a swapped pair */
	assert_int_equal(calc_suggest_distance("flaw", "lawn"), 2);     /* -f, +n */
	/* symmetric */
	assert_int_equal(calc_suggest_distance("sitting", "kitten"), 3);
}

static void test_choice(void **state)
{
	static const char *const cmds[] = {"memory", "comm", "step", "bubble", "schedule", "search",
	                                   "get", "table", "data", "presets", "validate", NULL};
	struct calc_suggest s;
	char buf[64];
	(void)state;

	calc_suggest_init(&s, "memroy");
	for (int i = 0; cmds[i]; i++)
		calc_suggest_offer(&s, cmds[i]);
	assert_non_null(s.best);
	assert_string_equal(s.best, "memory");
	assert_string_equal(calc_suggest_text(&s, buf, sizeof buf), "; did you mean 'memory'?");

	/* "serch": 1 edit from search (insert a), more from every other */
	calc_suggest_init(&s, "serch");
	for (int i = 0; cmds[i]; i++)
		calc_suggest_offer(&s, cmds[i]);
	assert_string_equal(s.best, "search");

	/* nothing close: no suggestion, empty text */
	calc_suggest_init(&s, "frobnicate");
	for (int i = 0; cmds[i]; i++)
		calc_suggest_offer(&s, cmds[i]);
	assert_null(s.best);
	assert_string_equal(calc_suggest_text(&s, buf, sizeof buf), "");

	/* short words allow one edit only: "xy" is 2 from "tp" */
	calc_suggest_init(&s, "xy");
	calc_suggest_offer(&s, "tp");
	assert_null(s.best);

	/* a prefix of a longer name: "h200" is the start of "h200-141g" (0 edits + 1) */
	calc_suggest_init(&s, "h200");
	calc_suggest_offer(&s, "a100-80g");
	calc_suggest_offer(&s, "h200-141g");
	assert_string_equal(s.best, "h200-141g");

	/* the first of equally close candidates wins, and the word itself is skipped */
	calc_suggest_init(&s, "tpp");
	calc_suggest_offer(&s, "tpp");
	calc_suggest_offer(&s, "tp");
	calc_suggest_offer(&s, "pp");
	assert_string_equal(s.best, "tp");

	/* case: "llama3-70B" is llama3-70b in another case (0 edits), not llama2-70b, one
	 * substitution away and offered first as in the preset table's order */
	calc_suggest_init(&s, "llama3-70B");
	calc_suggest_offer(&s, "llama2-70b");
	calc_suggest_offer(&s, "llama3-8b");
	calc_suggest_offer(&s, "llama3-70b");
	assert_string_equal(s.best, "llama3-70b");
	assert_int_equal(s.dist, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_distance),
		cmocka_unit_test(test_choice),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
