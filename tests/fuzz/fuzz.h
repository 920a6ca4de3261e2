/*
 * tests/fuzz/fuzz.h -- shared helpers of the libFuzzer harnesses (tests/fuzz/NAME.c).
 *
 * The engines read files by path, so a harness writes the fuzzer's bytes to a private
 * temporary file and hands its path over.  A finding the sanitizers do not catch by
 * themselves (a NaN where the contract promises a number) aborts through FUZZ_CHECK.
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The largest input a harness takes [B]: chapters and plans of the sizes that once
 * crashed (20 KB operator chains, 4,000 headings) and more; make fuzz passes it as
 * -max_len.  Keep in step with FUZZ_MAX_LEN in tests/fuzz.mk. */
#define FUZZ_MAX_INPUT (1 << 20)

/* Abort with the condition's text when 'c' is false, so libFuzzer keeps the input. */
#define FUZZ_CHECK(c)                                                                         \
	do {                                                                                    \
		if (!(c)) {                                                                     \
			fprintf(stderr, "%s:%d: fuzz check failed: %s\n", __FILE__, __LINE__, #c); \
			abort();                                                                \
		}                                                                               \
	} while (0)

/*
 * Write 'size' bytes to a fresh file "/tmp/trainplan-fuzz-XXXXXX<suffix>" and put its
 * path in 'path' (at least 64 bytes).  Returns 0, or -1 when the file cannot be written.
 * The caller unlinks the file.
 */
static inline int fuzz_write_temp(const unsigned char *data, size_t size, const char *suffix,
                                  char *path)
{
	int sl = (int)strlen(suffix);
	snprintf(path, 64, "/tmp/trainplan-fuzz-XXXXXX%s", suffix);
	int fd = mkstemps(path, sl);
	if (fd < 0)
		return -1;
	size_t off = 0;
	while (off < size) {
		ssize_t w = write(fd, data + off, size - off);
		if (w <= 0) {
			close(fd);
			unlink(path);
			return -1;
		}
		off += (size_t)w;
	}
	close(fd);
	return 0;
}

/* A NUL-terminated copy of the input (the fuzzer's bytes are not terminated). */
static inline char *fuzz_strndup(const unsigned char *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = 0;
	return s;
}

#endif
