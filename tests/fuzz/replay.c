/*
 * tests/fuzz/replay.c -- runs a libFuzzer harness over files without libFuzzer, so that
 * the seeds (tests/fuzz/corpus/NAME/, tests/bad, tests/expand) are a regression test of
 * make check with any C compiler: each file is read whole and handed to
 * LLVMFuzzerTestOneInput once; a crash or a failed FUZZ_CHECK aborts with the file named.
 *
 *   usage: replay-NAME FILE...      (REPLAY_VERBOSE=1 names each file before it runs)
 */
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int main(int argc, char **argv)
{
	int n = 0;
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		if (!f) {
			perror(argv[i]);
			return 2;
		}
		size_t cap = 4096, len = 0, r;
		unsigned char *buf = malloc(cap);
		while (buf && (r = fread(buf + len, 1, cap - len, f)) > 0)
			if ((len += r) == cap)
				buf = realloc(buf, cap *= 2);
		fclose(f);
		if (!buf)
			return 2;
		if (getenv("REPLAY_VERBOSE"))
			fprintf(stderr, "%s\n", argv[i]); /* the last name shown is the one that failed */
		LLVMFuzzerTestOneInput(buf, len);
		free(buf);
		n++;
	}
	printf("replayed %d inputs\n", n);
	return 0;
}
