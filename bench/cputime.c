/*
 * bench/cputime.c -- the CPU time (user + system, of the command and every process it
 * waited for) and the wall time of one run of a command, for `make bench`'s goals
 * (bench/goals.sh): "CPU_S WALL_S" on stdout.  The command's stdout goes to FILE
 * (-o FILE) or /dev/null; its stderr is left as it is.  Exit status: the command's.
 *
 *   build/bench/cputime [-o FILE] COMMAND [ARG]...
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *out = "/dev/null";
	struct timespec t0, t1;
	struct rusage ru;
	int status, i = 1;
	pid_t pid;
	if (argc > 2 && !strcmp(argv[1], "-o")) {
		out = argv[2];
		i = 3;
	}
	if (i >= argc) {
		fputs("usage: cputime [-o FILE] COMMAND [ARG]...\n", stderr);
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0) {
		perror("cputime: fork");
		return 2;
	}
	if (pid == 0) {
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0666);
		if (fd < 0 || dup2(fd, 1) < 0) {
			perror(out);
			_exit(127);
		}
		execvp(argv[i], argv + i);
		perror(argv[i]);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("cputime: wait4");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%.6f %.6f\n", ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6,
	       (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
