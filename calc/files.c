/*
 * files.c -- opening input files that must be regular files, and the folder rule of
 * chapter reads (docs/architecture.md §8).
 *
 * fopen on a FIFO waits for a writer and a device can be read without end, so the plan,
 * a config.json, a chapter and a figure are opened with O_NONBLOCK and their type checked
 * with fstat on the descriptor (no race between a check and the open, POSIX.1-2008
 * open(2), fstat(2)); only a regular file is read.  Text is checked against the
 * well-formed UTF-8 byte sequences of Unicode 15, Table 3-7.
 */
#include "files.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind_of(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory, not a file";
	if (S_ISFIFO(m))
		return "a FIFO, not a regular file";
	if (S_ISCHR(m) || S_ISBLK(m))
		return "a device, not a regular file";
	if (S_ISSOCK(m))
		return "a socket, not a regular file";
	return "not a regular file";
}

FILE *calc_file_open(const char *path, const char *mode, char *why, size_t nwhy)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		snprintf(why, nwhy, "%s", strerror(errno));
		return NULL;
	}
	struct stat st;
	if (fstat(fd, &st) < 0) {
		snprintf(why, nwhy, "%s", strerror(errno));
		close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, nwhy, "%s", kind_of(st.st_mode));
		close(fd);
		return NULL;
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	FILE *f = fdopen(fd, mode);
	if (!f) {
		snprintf(why, nwhy, "%s", strerror(errno));
		close(fd);
	}
	return f;
}

int calc_file_inside(const char *path, const char *dir, char *why, size_t nwhy)
{
	char rp[PATH_MAX], rd[PATH_MAX];
	if (!realpath(path, rp) || !realpath(dir, rd)) {
		snprintf(why, nwhy, "%s", strerror(errno));
		return 0;
	}
	size_t n = strlen(rd);
	if (n == 1 && rd[0] == '/')
		return 1;
	if (strncmp(rp, rd, n) == 0 && (rp[n] == '/' || rp[n] == 0))
		return 1;
	snprintf(why, nwhy, "outside %s", dir);
	return 0;
}

/* The folders calc_file_open_confined allows on this thread (calc_file_confine). */
static _Thread_local const char *confine_dir[CALC_FILE_CONFINE_MAX];
static _Thread_local int confine_n;

void calc_file_confine(const char *const *dirs, int n)
{
	confine_n = n < CALC_FILE_CONFINE_MAX ? n : CALC_FILE_CONFINE_MAX;
	for (int i = 0; i < confine_n; i++)
		confine_dir[i] = dirs[i];
}

/* Is the resolved path rp inside the folder dir (resolved here)? */
static int resolved_inside(const char *rp, const char *dir)
{
	char rd[PATH_MAX];
	if (!realpath(dir, rd))
		return 0;
	size_t n = strlen(rd);
	if (n == 1 && rd[0] == '/')
		return 1;
	return strncmp(rp, rd, n) == 0 && (rp[n] == '/' || rp[n] == 0);
}

FILE *calc_file_open_confined(const char *path, const char *mode, char *why, size_t nwhy)
{
	FILE *f = calc_file_open(path, mode, why, nwhy);
	char link[64], rp[PATH_MAX];
	struct stat st, sp;
	ssize_t n;
	if (!f || confine_n == 0)
		return f;
	/* where the opened file lies: the kernel's name of the descriptor (Linux proc(5),
	 * /proc/self/fd), or else the resolved path when it still names the same file
	 * (st_dev, st_ino); a link swapped after the open changes neither */
	snprintf(link, sizeof link, "/proc/self/fd/%d", fileno(f));
	n = readlink(link, rp, sizeof rp - 1);
	if (n > 0 && rp[0] == '/') {
		rp[n] = 0;
	} else if (!realpath(path, rp) || fstat(fileno(f), &st) < 0 || stat(rp, &sp) < 0 || st.st_dev != sp.st_dev ||
	           st.st_ino != sp.st_ino) {
		fclose(f);
		snprintf(why, nwhy, "cannot tell where the opened file lies");
		return NULL;
	}
	for (int i = 0; i < confine_n; i++)
		if (resolved_inside(rp, confine_dir[i]))
			return f;
	fclose(f);
	snprintf(why, nwhy, "outside the folders it may be read from");
	return NULL;
}

long calc_text_check(const char *s, size_t n, int *nul)
{
	const unsigned char *u = (const unsigned char *)s;
	*nul = 0;
	for (size_t i = 0; i < n;) {
		unsigned c = u[i];
		if (c == 0) {
			*nul = 1;
			return (long)i;
		}
		if (c < 0x80) {
			i++;
			continue;
		}
		/* the length and the range of the second byte (Table 3-7) */
		size_t len;
		unsigned lo = 0x80, hi = 0xBF;
		if (c >= 0xC2 && c <= 0xDF)
			len = 2;
		else if (c >= 0xE0 && c <= 0xEF) {
			len = 3;
			if (c == 0xE0)
				lo = 0xA0;
			else if (c == 0xED)
				hi = 0x9F;
		} else if (c >= 0xF0 && c <= 0xF4) {
			len = 4;
			if (c == 0xF0)
				lo = 0x90;
			else if (c == 0xF4)
				hi = 0x8F;
		} else
			return (long)i;
		if (i + len > n || u[i + 1] < lo || u[i + 1] > hi)
			return (long)i;
		for (size_t k = 2; k < len; k++)
			if (u[i + k] < 0x80 || u[i + k] > 0xBF)
				return (long)i;
		i += len;
	}
	return -1;
}

/* The length of the character at s (1 .. 4) when it is plain text (calc_text_plain),
 * 0 when it is not. */
static size_t plain_char(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len = u[0] < 0x80 ? 1 : u[0] < 0xE0 ? 2 : u[0] < 0xF0 ? 3 : 4;
	int nul;
	if (u[0] < 0x20 || u[0] == 0x7F)
		return 0;
	if (len == 1)
		return 1;
	if (strnlen(s, len) < len || calc_text_check(s, len, &nul) >= 0)
		return 0;
	if (u[0] == 0xC2 && u[1] <= 0x9F) /* U+0080..U+009F, the C1 controls */
		return 0;
	return len;
}

long calc_text_plain(const char *s)
{
	for (size_t i = 0; s[i];) {
		size_t len = plain_char(s + i);
		if (!len)
			return (long)i;
		i += len;
	}
	return -1;
}

char *calc_text_shown(char *dst, size_t n, const char *s)
{
	size_t o = 0;
	if (n == 0)
		return dst;
	for (size_t i = 0; s[i];) {
		size_t len = plain_char(s + i);
		if (!len) {
			if (o + 4 >= n)
				break;
			snprintf(dst + o, 5, "\\x%02X", (unsigned char)s[i]);
			o += 4;
			i++;
			continue;
		}
		if (o + len >= n)
			break;
		memcpy(dst + o, s + i, len);
		o += len;
		i += len;
	}
	dst[o] = 0;
	return dst;
}
