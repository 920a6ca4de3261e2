/*
 * suggest.c -- the edit distance behind every "did you mean ...?" (suggest.h).
 *
 * Distance: the optimal string alignment variant of the Damerau-Levenshtein
 * distance (Damerau 1964, "A technique for computer detection and correction of
 * spelling errors", CACM 7(3)): a swap of two neighbouring letters, the most
 * common typing slip ("memroy"), costs one edit like an insertion, a deletion or
 * a substitution.  Computed with three rows of the usual dynamic programme.
 */
#include "suggest.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Names longer than this are compared on their first SUGGEST_MAX characters. */
#define SUGGEST_MAX 128

static int same(char a, char b)
{
	return tolower((unsigned char)a) == tolower((unsigned char)b);
}

static int min3(int a, int b, int c)
{
	int m = a < b ? a : b;
	return m < c ? m : c;
}

/* Distance between the first la characters of a and the first lb of b. */
static int distance_n(const char *a, size_t la, const char *b, size_t lb)
{
	int rows[3][SUGGEST_MAX + 1];
	int *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
	if (la > SUGGEST_MAX)
		la = SUGGEST_MAX;
	if (lb > SUGGEST_MAX)
		lb = SUGGEST_MAX;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = (int)i;
		for (size_t j = 1; j <= lb; j++) {
			int cost = !same(a[i - 1], b[j - 1]);
			cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
			if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1]) &&
			    prev2[j - 2] + 1 < cur[j])
				cur[j] = prev2[j - 2] + 1;
		}
		int *t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb];
}

int calc_suggest_distance(const char *a, const char *b)
{
	return distance_n(a, strlen(a), b, strlen(b));
}

void calc_suggest_init(struct calc_suggest *s, const char *word)
{
	s->word = word ? word : "";
	s->best = NULL;
	s->dist = 0;
}

void calc_suggest_offer(struct calc_suggest *s, const char *cand)
{
	size_t lw = strlen(s->word), lc;
	int d, limit = lw <= 3 ? 1 : lw <= 6 ? 2 : 3;
	if (!cand || !*cand || !lw)
		return;
	lc = strlen(cand);
	if (!strcmp(s->word, cand))
		return; /* the word itself is no suggestion */
	/* the same letters in another case ("llama3-70B") are distance 0: the closest of
	 * all, ahead of a name one edit away ("llama2-70b") */
	d = calc_suggest_distance(s->word, cand);
	if (lc > lw && lw >= 3) {
		int dp = distance_n(s->word, lw, cand, lw) + 1;
		if (dp < d)
			d = dp;
	}
	if (d <= limit && (!s->best || d < s->dist)) {
		s->best = cand;
		s->dist = d;
	}
}

const char *calc_suggest_text(const struct calc_suggest *s, char *buf, size_t n)
{
	if (!n)
		return buf;
	if (s->best)
		snprintf(buf, n, "; did you mean '%s'?", s->best);
	else
		buf[0] = 0;
	return buf;
}
