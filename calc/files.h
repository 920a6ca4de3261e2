/*
 * files.h -- opening input files that must be regular files (docs/architecture.md §8).
 */
#ifndef CALC_FILES_H
#define CALC_FILES_H

#include <stddef.h>
#include <stdio.h>

/*
 * Open 'path' for reading ('mode' "r" or "rb") if it is a regular file.  A FIFO, a
 * device, a socket or a directory is refused at once, without waiting for a writer or
 * reading without end: the file is opened without blocking and its type checked on the
 * open descriptor.  Returns the stream, or NULL with the reason in why ("a directory,
 * not a file", or strerror's text for a file that cannot be opened).
 */
FILE *calc_file_open(const char *path, const char *mode, char *why, size_t nwhy);

/*
 * Is 'path' inside folder 'dir' once both are resolved (symbolic links, "..")?  Returns 1
 * when it is, 0 when it is not or cannot be resolved (with the reason in why).
 */
int calc_file_inside(const char *path, const char *dir, char *why, size_t nwhy);

/*
 * Confinement of this thread's calc_file_open_confined to the folders dirs[0..n) (at
 * most CALC_FILE_CONFINE_MAX; the strings must live until the next call); n = 0 lifts
 * it.  The chapters' `with hf_config=` reads are confined to the project and the plan's
 * folder (README, "What a chapter may read").
 */
#define CALC_FILE_CONFINE_MAX 4
void calc_file_confine(const char *const *dirs, int n);
/*
 * calc_file_open, and then, while this thread is confined (calc_file_confine), a check
 * of the file opened, not of the name: where its descriptor lies once resolved must be
 * inside one of the folders, so that a symbolic link swapped between a check and the
 * open cannot lead outside.  NULL with the reason in why otherwise.
 */
FILE *calc_file_open_confined(const char *path, const char *mode, char *why, size_t nwhy);

/*
 * The first byte of s[0..n) that is not text: a NUL byte, or a byte that does not
 * belong to well-formed UTF-8 (Unicode 15, Table 3-7: no overlong forms, no surrogates,
 * nothing past U+10FFFF).  Returns its offset [B], or -1 when all n bytes are text;
 * *nul is set to 1 when that byte is a NUL.
 */
long calc_text_check(const char *s, size_t n, int *nul);

/*
 * The first byte of the string s that does not belong in a one-line text value: a
 * control character (U+0000..U+001F, U+007F, and the C1 controls U+0080..U+009F, which
 * a terminal takes as escape sequences) or a byte that is not well-formed UTF-8.
 * Returns its offset [B], or -1 when s is plain text.
 */
long calc_text_plain(const char *s);

/*
 * s as it may be shown on one line of any text output (a terminal, a comment of a
 * generated script or config file, a message): each byte that calc_text_plain refuses
 * is written as \xHH (two hex digits), every other byte as it is, cut at a character
 * boundary to fit n bytes with the NUL.  Returns dst.
 */
char *calc_text_shown(char *dst, size_t n, const char *s);

#endif
