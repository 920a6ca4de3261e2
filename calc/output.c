/*
 * output.c -- whole-or-absent files: temporary files in the same folder, then rename.
 *
 * rename(2) within one file system replaces a file atomically (POSIX.1-2008, rename):
 * a reader sees the old file or the new one, never a part.  Writing every temporary
 * before the first rename keeps files that belong together (report.html and
 * report.pdf) from a state where one is new and the other failed.
 */
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The temporary for 'path', in the same folder: PATH.tmp.PID (caller frees). */
static char *temp_name(const char *path)
{
	size_t n = strlen(path) + 32;
	char *t = xmalloc(n);
	snprintf(t, n, "%s.tmp.%ld", path, (long)getpid());
	return t;
}

/* Write all of data to a new file 'tmp'.  Returns 0, or errno after removing it. */
static int write_whole(const char *tmp, const char *data, size_t len)
{
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (fd < 0)
		return errno;
	size_t done = 0;
	while (done < len) {
		ssize_t w = write(fd, data + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int e = w < 0 ? errno : EIO;
			close(fd);
			unlink(tmp);
			return e;
		}
		done += (size_t)w;
	}
	if (close(fd) != 0) {
		int e = errno;
		unlink(tmp);
		return e;
	}
	return 0;
}

int calc_output_write(const struct calc_output *outs, int n, struct calc_diag *d)
{
	char **tmp = xcalloc((size_t)(n > 0 ? n : 1), sizeof *tmp);
	int rc = 0, written = 0;
	for (; written < n; written++) {
		tmp[written] = temp_name(outs[written].path);
		int e = write_whole(tmp[written], outs[written].data, outs[written].len);
		if (e) {
			rc = calc_error(d, outs[written].path, 0, "cannot write: %s", strerror(e));
			free(tmp[written]);
			tmp[written] = NULL;
			break;
		}
	}
	for (int i = 0; rc == 0 && i < n; i++) {
		if (rename(tmp[i], outs[i].path) != 0) {
			rc = calc_error(d, outs[i].path, 0, "cannot write: %s", strerror(errno));
			break;
		}
		free(tmp[i]);
		tmp[i] = NULL;
	}
	for (int i = 0; i < n; i++)
		if (tmp[i]) {
			unlink(tmp[i]);
			free(tmp[i]);
		}
	free(tmp);
	return rc;
}
