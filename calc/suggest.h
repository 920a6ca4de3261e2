/*
 * suggest.h -- "did you mean ...?" for misspelt names (subcommands, plan keys,
 * presets, enum values, catalog names).  One edit distance for all of them.
 */
#ifndef CALC_SUGGEST_H
#define CALC_SUGGEST_H

#include <stddef.h>

/* The closest candidate offered so far to one misspelt word. */
struct calc_suggest {
	const char *word; /* what the user wrote */
	const char *best; /* closest candidate within the limit, or NULL */
	int dist;         /* its distance (edits) */
};

/* Optimal-string-alignment distance between 'a' and 'b': insertions, deletions,
 * substitutions and swaps of two neighbouring characters cost 1 each, letters
 * compared without case.  Returns the number of edits (0 when equal). */
int calc_suggest_distance(const char *a, const char *b);
/* Start a search for the candidate closest to 'word'. */
void calc_suggest_init(struct calc_suggest *s, const char *word);
/* Consider one candidate (not the word itself; one that differs only in case is the
 * closest, distance 0).  It is kept when it is closer than every earlier one
 * and close enough: at most 1 edit for words of up to 3 characters, 2 up to 6,
 * 3 beyond; a longer candidate also counts as its first strlen(word) characters
 * plus one edit ("h200" is 1 edit from "h200-141g").  The first of equals wins. */
void calc_suggest_offer(struct calc_suggest *s, const char *cand);
/* "; did you mean 'BEST'?" into buf, or "" when nothing was close.  Returns buf. */
const char *calc_suggest_text(const struct calc_suggest *s, char *buf, size_t n);

#endif
