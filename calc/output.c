/*
 * output.c -- whole-or-absent files: temporary files in the same folder, then rename.
 *
 * rename(2) within one file system replaces a file atomically (POSIX.1-2008, rename):
 * a reader sees the old file or the new one, never a part.  Writing every temporary
 * before the first rename keeps files that belong together (report.html and
 * report.pdf) from a state where one is new and the other failed; a file replaced before
 * a later rename failed is put back from a hard link to the old one (link(2)), so that
 * the set is replaced together or not at all.  SIGXFSZ, SIGINT, SIGTERM, SIGHUP and
 * SIGPIPE are held while the files are written and renamed: a file size limit
 * (setrlimit RLIMIT_FSIZE, whose signal terminates by default) becomes the write's
 * EFBIG, and an interruption is taken once the temporaries are renamed or removed, so
 * that no PATH.tmp.PID is left behind.
 */
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
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

/* The name of the hard link that keeps the old 'path' until the set is renamed. */
static char *keep_name(const char *path)
{
	size_t n = strlen(path) + 32;
	char *t = xmalloc(n);
	snprintf(t, n, "%s.old.%ld", path, (long)getpid());
	return t;
}

int calc_output_write(const struct calc_output *outs, int n, struct calc_diag *d)
{
	char **tmp = xcalloc((size_t)(n > 0 ? n : 1), sizeof *tmp);
	char **keep = xcalloc((size_t)(n > 0 ? n : 1), sizeof *keep);
	int *existed = xcalloc((size_t)(n > 0 ? n : 1), sizeof *existed);
	int rc = 0, written = 0, renamed = 0;
	sigset_t hold, saved;
	struct sigaction ign, old_xfsz;

	/* SIGXFSZ ignored: a write past the size limit fails with EFBIG (POSIX.1-2008,
	 * write: "[EFBIG] ... SIGXFSZ ... if the signal is ignored"); the others held */
	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGXFSZ, &ign, &old_xfsz);
	sigemptyset(&hold);
	sigaddset(&hold, SIGINT);
	sigaddset(&hold, SIGTERM);
	sigaddset(&hold, SIGHUP);
	sigaddset(&hold, SIGPIPE);
	sigprocmask(SIG_BLOCK, &hold, &saved);

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
	/* keep the old files of a set of more than one by a second name */
	for (int i = 0; rc == 0 && n > 1 && i < n; i++) {
		if (access(outs[i].path, F_OK) != 0)
			continue;
		existed[i] = 1;
		keep[i] = keep_name(outs[i].path);
		unlink(keep[i]);
		if (link(outs[i].path, keep[i]) != 0) {
			free(keep[i]);
			keep[i] = NULL;
		}
	}
	for (; rc == 0 && renamed < n; renamed++) {
		if (rename(tmp[renamed], outs[renamed].path) != 0) {
			rc = calc_error(d, outs[renamed].path, 0, "cannot write: %s", strerror(errno));
			break;
		}
		free(tmp[renamed]);
		tmp[renamed] = NULL;
	}
	/* a later rename failed: the files already renamed get their old contents back, or go
	 * where there was none */
	for (int i = 0; rc != 0 && i < renamed; i++) {
		if (keep[i] && rename(keep[i], outs[i].path) == 0) {
			free(keep[i]);
			keep[i] = NULL;
		} else if (!existed[i]) {
			unlink(outs[i].path);
		}
	}
	for (int i = 0; i < n; i++) {
		if (tmp[i]) {
			unlink(tmp[i]);
			free(tmp[i]);
		}
		if (keep[i]) {
			unlink(keep[i]);
			free(keep[i]);
		}
	}
	free(tmp);
	free(keep);
	free(existed);
	sigaction(SIGXFSZ, &old_xfsz, NULL);
	sigprocmask(SIG_SETMASK, &saved, NULL);
	return rc;
}
