/*
 * cmd_report.c -- `trainplan report [PLAN.ini] -o DIR`: the full HTML + PDF report for
 * a plan, from any folder, with or without a checkout.
 *
 *   trainplan report [PLAN.ini | --plan FILE] [--set KEY=VALUE]... [-o DIR] [--no-pdf]
 *                    [--share DIR]
 *   trainplan report --compare A.ini B.ini [C.ini ...] [--set KEY=VALUE]... [-o DIR] ...
 *
 * The one report pipeline (docs/architecture.md §2; `make` runs it through
 * report/report.mk): every catalog dataset (the plan's and the pick's marks among them)
 * into DIR/data, written by this process from one evaluation context, as `trainplan data
 * --all` writes them (cli_catalog_all); then every catalog table as CSV into DIR/tables
 * (`trainplan table --all`) from that context in a forked job, and for each figure script
 * SHARE/figures/NAME.gp its SVG from gnuplot over its dataset (run in SHARE, where the
 * scripts load their .gpi files; with --png a PNG too), these jobs in parallel child
 * processes (--jobs, the processors online); and trainplan-report over the chapters (the
 * .md files of SHARE/chapters, in name order), started before the datasets with --wait-fd:
 * it expands the chapters meanwhile and reads the figures, and writes, only once every
 * job has succeeded (start_reporter, finish_reporter).
 * SHARE holds chapters/ and figures/: --share, else $TRAINPLAN_SHARE, else
 * BINDIR/../share/trainplan of an installed trainplan, else the checkout that holds
 * BINDIR (build/trainplan).  trainplan-report is looked up beside this program.
 * Every file is written to NAME.tmp and renamed.  A plan on standard input (--plan -)
 * is saved as DIR/plan.ini first, since every step reads it again.
 *
 * With --compare the plans are set side by side: this program writes one Markdown
 * document DIR/compare.md of tables (compare_doc.c, the quantities of `trainplan
 * compare`, per stage, component, dimension and tier, with differences from the
 * first plan) and the datasets of its charts, gnuplot draws SHARE/figures/compare/
 * NAME.gp, and trainplan-report renders DIR/compare.html and DIR/compare.pdf from the
 * document as it renders a chapter (docs/architecture.md §10).
 */
#include "cli.h"
#include "../calc/files.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define RPT_PATH 4096
#define RPT_MAX_FILES 256

static int is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int has_share(const char *dir)
{
	char a[RPT_PATH + 16], b[RPT_PATH + 16];
	snprintf(a, sizeof a, "%s/chapters", dir);
	snprintf(b, sizeof b, "%s/figures", dir);
	return is_dir(a) && is_dir(b);
}

/* mkdir -p */
static int make_dirs(const char *path)
{
	char p[RPT_PATH];
	snprintf(p, sizeof p, "%s", path);
	for (char *s = p + 1; *s; s++)
		if (*s == '/') {
			*s = 0;
			if (mkdir(p, 0777) < 0 && errno != EEXIST)
				return -1;
			*s = '/';
		}
	return mkdir(p, 0777) < 0 && errno != EEXIST ? -1 : 0;
}

/* An interruption (SIGINT, SIGTERM, SIGHUP) of this program: it is passed on to the
 * step running (gnuplot, trainplan-report, which each remove their own temporaries) and
 * to every job (a figure's passes it on to its step in turn; the tables' job ends by it,
 * catalog_signals), no further step or job starts, the step's temporary is removed
 * (settle), and then this program ends by the same signal.  While this program writes
 * the datasets itself, the signal ends it at once (catalog_signals). */
#define RPT_MAX_JOBS 64
static volatile sig_atomic_t got_signal;
static volatile pid_t child_pid;
static volatile pid_t job_pid[RPT_MAX_JOBS];
/* trainplan-report, started before the datasets (start_reporter); rep_status its wait
 * status once reaped (rep_reaped), by run_jobs's wait or by finish_reporter */
static volatile pid_t rep_pid;
static int rep_status, rep_reaped;

static void on_signal(int sig)
{
	got_signal = sig;
	if (child_pid > 0)
		kill(child_pid, sig);
	if (rep_pid > 0)
		kill(rep_pid, sig);
	for (int i = 0; i < RPT_MAX_JOBS; i++)
		if (job_pid[i] > 0)
			kill(job_pid[i], sig);
}

/* Run argv (argv[0] a path) in folder 'cwd' (NULL: this one) with stdout to 'out'
 * (NULL: stderr, so that only the report's own summary reaches stdout).  Returns the
 * exit status, or -1 when it could not start or was interrupted. */
static int run(char *const argv[], const char *cwd, const char *out)
{
	pid_t pid;
	int status;
	fflush(stdout);
	fflush(stderr);
	if (got_signal)
		return -1;
	if ((pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		int fd = out ? open(out, O_WRONLY | O_CREAT | O_TRUNC, 0666) : dup(2);
		if (fd < 0 || dup2(fd, 1) < 0 || (cwd && chdir(cwd) < 0))
			_exit(127);
		close(fd);
		execv(argv[0], argv);
		execvp(argv[0], argv);
		_exit(127);
	}
	child_pid = pid;
	if (got_signal) /* it came between the fork and the line above */
		kill(pid, got_signal);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			child_pid = 0;
			return -1;
		}
	child_pid = 0;
	if (got_signal)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names under 'dir' ending in 'ext' (without it), sorted; returns the count or -1. */
static int list_files(const char *dir, const char *ext, char **names, int max)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;
	size_t le = strlen(ext);
	if (!d)
		return -1;
	while ((e = readdir(d)) && n < max) {
		size_t l = strlen(e->d_name);
		if (l > le && !strcmp(e->d_name + l - le, ext) && e->d_name[0] != '.')
			names[n++] = strndup(e->d_name, l - le);
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof *names, cmp_str);
	return n;
}

static void free_names(char **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
}

/* Absolute form of 'p' (which need not exist yet: its folder is made absolute). */
static int absolute(const char *p, char *out, size_t n)
{
	char cwd[RPT_PATH];
	if (p[0] == '/')
		return snprintf(out, n, "%s", p) < (int)n ? 0 : -1;
	if (!getcwd(cwd, sizeof cwd))
		return -1;
	return snprintf(out, n, "%s/%s", cwd, p) < (int)n ? 0 : -1;
}

/* Write 'path' atomically from 'path'.tmp after a successful step. */
static int settle(int rc, const char *path, const char *what)
{
	char tmp[RPT_PATH + 8];
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	if (rc != 0) {
		unlink(tmp);
		return cli_error("report: %s failed (exit status %d)", what, rc);
	}
	if (rename(tmp, path) < 0)
		return cli_error("report: cannot write %s: %s", path, strerror(errno));
	return 0;
}

/* The chart NAME as DIR/figures/NAME.svg (and .png with 'png'): gnuplot runs
 * SHARE/SCRIPTS/NAME.gp (after figures/style.gp) in SHARE over the dataset DATA, each
 * output written to a temporary file and renamed by settle().  0, or the exit status of
 * a failure, whose message names the figure.  One gnuplot process per figure: the
 * comparison's charts and --png; the report's SVGs are drawn by figure_worker. */
static int render_figure(const char *share, const char *scripts, const char *name, const char *data,
                         const char *dir, int png)
{
	char path[RPT_PATH * 2], expr[RPT_PATH * 6], script[RPT_PATH], what[RPT_PATH], marks[RPT_PATH * 2];
	int rc = 0, has_marks;
	struct stat st;
	/* whether plan-marks.tsv lies beside the dataset, which figures/style.gp would ask of
	 * ls(1) through a shell where the caller does not say: as `ls` does, a name that is
	 * there (lstat) */
	snprintf(marks, sizeof marks, "%.*splan-marks.tsv", (int)(strrchr(data, '/') ? strrchr(data, '/') + 1 - data : 0),
	         data);
	has_marks = lstat(marks, &st) == 0;
	for (int dev = 0; dev < 1 + !!png && !rc; dev++) {
		const char *ext = dev ? "png" : "svg";
		snprintf(path, sizeof path, "%s/figures/%s.%s", dir, name, ext);
		snprintf(expr, sizeof expr, "datafile='%s'; outfile='%s.tmp'; device='%s'; has_marks=%d", data, path, ext,
		         has_marks);
		snprintf(script, sizeof script, "%s/%s.gp", scripts, name);
		snprintf(what, sizeof what, "figure %s: gnuplot (%s)", name, ext);
		char *gp[] = {"gnuplot", "-e", expr, "figures/style.gp", script, NULL};
		rc = settle(run(gp, share, NULL), path, what);
	}
	return rc;
}

/* The processors online, at least 1 and at most RPT_MAX_JOBS. */
static int processors(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > RPT_MAX_JOBS ? RPT_MAX_JOBS : (int)n;
}

/*
 * Run the jobs 0 .. n - 1 ('job' runs one and returns its exit status) in child
 * processes, at most 'jobs' at a time.  After a failure or a signal no further job
 * starts; the jobs running finish (each removes its own temporaries).  'started' (NULL:
 * none) is called in this process once job i runs.  Returns 0 when every job succeeded,
 * else the first failure's exit status (its message is the job's).
 */
static int run_jobs(int n, int jobs, int (*job)(int i, void *arg), void (*started)(int i, void *arg), void *arg)
{
	int next = 0, running = 0, rc = 0;
	if (jobs < 1)
		jobs = 1;
	if (jobs > RPT_MAX_JOBS)
		jobs = RPT_MAX_JOBS;
	while (next < n || running > 0) {
		while (!rc && !got_signal && next < n && running < jobs) {
			int slot = 0;
			while (job_pid[slot] > 0)
				slot++;
			fflush(stdout);
			fflush(stderr);
			pid_t pid = fork();
			if (pid < 0) {
				rc = cli_error("report: cannot start a job: %s", strerror(errno));
				break;
			}
			if (pid == 0) {
				memset((void *)job_pid, 0, sizeof job_pid); /* the job's own signal passes to its step only */
				int st = job(next, arg);
				fflush(stdout);
				fflush(stderr);
				_exit(st > 255 || st < 0 ? 2 : st);
			}
			job_pid[slot] = pid;
			if (got_signal) /* it came between the fork and the line above */
				kill(pid, got_signal);
			if (started)
				started(next, arg);
			next++;
			running++;
		}
		if (running == 0)
			break;
		int status;
		pid_t pid = waitpid(-1, &status, 0);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pid == rep_pid) { /* trainplan-report ended before the figures: kept for finish_reporter */
			rep_pid = 0;
			rep_status = status;
			rep_reaped = 1;
			continue;
		}
		for (int i = 0; i < RPT_MAX_JOBS; i++)
			if (job_pid[i] == pid) {
				job_pid[i] = 0;
				running--;
				int st = WIFEXITED(status) ? WEXITSTATUS(status) : 2;
				if (st && !rc)
					rc = st;
			}
	}
	if (got_signal && !rc)
		rc = 2;
	return rc;
}

/* The catalog's signals at their default action, or this program's handler again: a
 * process that evaluates the catalog itself (not a step it waits for) ends at once by an
 * interruption.  No temporary is left: calc_output_write holds the signals while it
 * writes and renames a file, so the signal ends the process after the rename. */
static void on_catalog_signal(int sig)
{
	/* the reporter started ahead (start_reporter) goes first, then this process by the
	 * signal's default action (SA_RESETHAND) once the handler returns */
	if (rep_pid > 0)
		kill(rep_pid, sig);
	raise(sig);
}

static void catalog_signals(int dflt)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = !dflt ? on_signal : rep_pid > 0 ? on_catalog_signal : SIG_DFL;
	sa.sa_flags = dflt && rep_pid > 0 ? SA_RESETHAND : 0;
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &sa, NULL);
}

/* The jobs of a report, after every catalog dataset has been written into DIR/data by
 * this process (one evaluation context, so that one planner search feeds the plan's
 * marks, the heatmap and the Pareto set alike): job 0 writes every table as CSV into
 * DIR/tables from that context (forked, so with the searches it has done), jobs 1 .. n
 * draw the figures (each its chart from its dataset). */
struct report_jobs {
	const char *share, *dir;
	struct calc_ctx *ctx;
	const struct calc_plan *plan;
	char **names;
	int n, png;
	int queue; /* the figures' queue of figure_worker; -1: jobs 1 .. n draw one figure each */
};

/*
 * The SVGs of the figures handed out by 'queue' (a pipe of figure indices into
 * r->names, its write end closed: a read of 0 bytes means none is left), drawn in turn by
 * one gnuplot that reads its commands from a pipe: per figure `reset session`, the
 * variables render_figure passes with -e, figures/style.gp and figures/NAME.gp loaded on
 * one line (an error ends the line, as it ends a gnuplot run over the files), then
 * GPVAL_ERRNO printed into a second pipe: 0, and the figure's NAME.svg.tmp is renamed
 * (settle); else, or where gnuplot ended, the figure fails with gnuplot's exit status
 * and this worker empties the queue, so that no figure starts after a failure.  A figure
 * script that stops early ends with `exit`, which ends only its own script
 * (figures/nodata.gpi), never `exit gnuplot`, which would end this gnuplot.  Between
 * two figures figures/between.gpi gives back the state a fresh gnuplot has and that
 * `reset session` keeps (the svg terminal's last colour, the text last estimated, which
 * became plot titles): every SVG is the one a gnuplot of its own draws, byte for byte
 * (check-figure-isolation; the four shipped plans' reports, the figures in any order).
 * gnuplot 5.4's start is about 28 ms of CPU and 53 M instructions (the dynamic linker's
 * relocations of its 82 libraries, libde265's initialiser), a small figure's drawing
 * about 5 ms: the default plan's 27 figures took 1.51 CPU-s as 27 gnuplots, 0.39 in one
 * (docs/architecture.md §11, "One gnuplot draws many figures").  Returns 0, or the exit
 * status of the failure after its message.
 */
/* The gnuplot a figure worker feeds (figure_worker): started with its commands from a
 * pipe (*to) and its replies into another (*from), in the share folder; *batch 1 where
 * it is the gnuplot whose state between figures figures/between.gpi was written for
 * (5.4 patchlevel 4, Debian's), else 0.  Returns 0, or a status after its message. */
static int gnuplot_start(const struct report_jobs *r, pid_t *pid, FILE **to, FILE **from, int *batch)
{
	int in[2], ack[2];
	char line[64];
	if (pipe(in) < 0 || pipe(ack) < 0)
		return cli_error("report: cannot start gnuplot: %s", strerror(errno));
	fflush(stdout);
	fflush(stderr);
	if (got_signal || (*pid = fork()) < 0)
		return got_signal ? 2 : cli_error("report: cannot start gnuplot: %s", strerror(errno));
	if (*pid == 0) {
		if (dup2(in[0], 0) < 0 || dup2(ack[1], 1) < 0 || (r->share && chdir(r->share) < 0))
			_exit(127);
		close(in[0]);
		close(in[1]);
		close(ack[0]);
		close(ack[1]);
		execlp("gnuplot", "gnuplot", (char *)NULL);
		_exit(127);
	}
	child_pid = *pid;
	if (got_signal) /* it came between the fork and the line above */
		kill(*pid, got_signal);
	close(in[0]);
	close(ack[1]);
	signal(SIGPIPE, SIG_IGN); /* gnuplot gone: a write fails with EPIPE, and the reply is missing */
	*to = fdopen(in[1], "w");
	*from = fdopen(ack[0], "r");
	if (!*to || !*from)
		return cli_error("report: cannot start gnuplot: %s", strerror(errno));
	/* its version; the first figure's `reset session` clears the print setting */
	fputs("set print '-'; print sprintf('%g %s', GPVAL_VERSION, GPVAL_PATCHLEVEL); unset print\n", *to);
	*batch = fflush(*to) == 0 && fgets(line, sizeof line, *from) && !strcmp(line, "5.4 4\n");
	return 0;
}

static int figure_worker(const struct report_jobs *r)
{
	char path[RPT_PATH * 2], data[RPT_PATH * 2], what[RPT_PATH], marks[RPT_PATH * 2], line[64];
	int idx, rc = 0, first = 1, status = 0, waited = 0, batch = 0;
	struct stat st;
	FILE *to = NULL, *from = NULL;
	pid_t pid;
	if (read(r->queue, &idx, sizeof idx) != (ssize_t)sizeof idx)
		return 0; /* the other workers drew them all */
	if ((rc = gnuplot_start(r, &pid, &to, &from, &batch)))
		return rc;
	do {
		const char *name = r->names[idx];
		if (!first && !batch) {
			/* another gnuplot than the one between.gpi knows: a fresh one per figure, as
			 * render_figure runs it, so that no chart depends on the one before */
			fclose(to);
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			child_pid = 0;
			fclose(from);
			if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0))
				return cli_error("report: gnuplot failed after a figure (exit status %d)",
				                 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
			if ((rc = gnuplot_start(r, &pid, &to, &from, &batch)))
				return rc;
			first = 1;
		}
		snprintf(data, sizeof data, "%s/data/%s.tsv", r->dir, name);
		snprintf(path, sizeof path, "%s/figures/%s.svg", r->dir, name);
		snprintf(what, sizeof what, "figure %s: gnuplot (svg)", name);
		/* has_marks as render_figure gives it */
		snprintf(marks, sizeof marks, "%s/data/plan-marks.tsv", r->dir);
		fprintf(to,
		        "%sreset session\nreset errorstate; datafile='%s'; outfile='%s.tmp'; device='svg'; has_marks=%d; "
		        "load 'figures/style.gp'; load 'figures/%s.gp'; unset output\n"
		        "set print '-'; print GPVAL_ERRNO; unset print\n",
		        first ? "" : "load 'figures/between.gpi'\n", data, path, lstat(marks, &st) == 0, name);
		first = 0;
		if (fflush(to) == 0 && fgets(line, sizeof line, from) && !strcmp(line, "0\n") && !got_signal) {
			rc = settle(0, path, what);
			continue;
		}
		/* the figure failed, or gnuplot ended, or a signal came: gnuplot's exit status */
		fclose(to);
		to = NULL;
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		waited = 1;
		rc = settle(got_signal ? -1 : WIFEXITED(status) && WEXITSTATUS(status) ? WEXITSTATUS(status) : 1, path,
		            what);
		while (read(r->queue, &idx, sizeof idx) > 0) /* no figure starts after a failure */
			;
	} while (!rc && !got_signal && read(r->queue, &idx, sizeof idx) == (ssize_t)sizeof idx);
	if (to)
		fclose(to); /* gnuplot ends at the end of its input */
	while (!waited && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	child_pid = 0;
	fclose(from);
	if (!rc && !got_signal && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
		rc = cli_error("report: gnuplot failed after the figures (exit status %d)",
		               WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return rc ? rc : got_signal ? 2 : 0;
}

/* Every catalog dataset (dataset 1) or table (0) into DIR/data or DIR/tables. */
static int catalog_write(struct calc_ctx *ctx, const struct calc_plan *plan, const char *dir, int dataset)
{
	char path[RPT_PATH * 2];
	int rc;
	snprintf(path, sizeof path, "%s/%s", dir, dataset ? "data" : "tables");
	fprintf(stderr, "report: %s\n", dataset ? "datasets" : "tables");
	catalog_signals(1);
	if (got_signal) { /* it came before the line above */
		catalog_signals(0);
		return 2;
	}
	rc = cli_catalog_all(ctx, plan, dataset, path, dataset ? CALC_F_TSV : CALC_F_CSV);
	catalog_signals(0);
	if (rc)
		return cli_error("report: the %s failed", dataset ? "datasets" : "tables");
	return 0;
}

/* Once the tables' job has its copy of the context, this process frees its own, so that
 * the figure jobs, and the gnuplot each starts, fork a small process (fork copies the
 * page tables of the whole memory, over 1 GB after DeepSeek-V3's searches). */
static void report_started(int i, void *arg)
{
	struct report_jobs *r = arg;
	if (i == 0 && r->ctx) {
		calc_ctx_free(r->ctx);
		r->ctx = NULL;
#if defined(__GLIBC__)
		malloc_trim(0); /* glibc's: the freed heap given back to the kernel */
#endif
	}
}

static int report_job(int i, void *arg)
{
	const struct report_jobs *r = arg;
	char data[RPT_PATH * 2];
	if (i == 0)
		return catalog_write(r->ctx, r->plan, r->dir, 0);
	if (r->queue >= 0)
		return figure_worker(r);
	snprintf(data, sizeof data, "%s/data/%s.tsv", r->dir, r->names[i - 1]);
	return render_figure(r->share, "figures", r->names[i - 1], data, r->dir, r->png);
}

/* Save standard input as 'path' (a plan read many times). */
static int save_stdin(const char *path)
{
	char buf[8192];
	size_t n, total = 0;
	FILE *f = fopen(path, "w");
	if (!f)
		return cli_error("report: cannot write %s: %s", path, strerror(errno));
	while ((n = fread(buf, 1, sizeof buf, stdin)) > 0) {
		total += n;
		if (total > (1 << 20) || fwrite(buf, 1, n, f) != n) {
			fclose(f);
			return cli_error("report: the plan on standard input is over 1 MiB or cannot be saved");
		}
	}
	if (fclose(f) != 0)
		return cli_error("report: cannot write %s: %s", path, strerror(errno));
	return 0;
}

/*
 * The comparison report of plans 'files' into 'outdir' (see the top of this file).  All
 * plans load before anything is written; then compare.md and the datasets, the charts,
 * and the HTML and PDF.  Returns 0, or 2 after a message.
 */
static int compare_report(const struct cli_opts *o, const char *const *files, int n, const char *reporter,
                          const char *share, const char *outdir, int no_pdf, int no_cache, int png)
{
	struct cli_cmp c;
	struct calc_diag d = {0};
	char dir[RPT_PATH], path[RPT_PATH * 2], tmp[RPT_PATH * 2 + 8], figdir[RPT_PATH * 2], md[RPT_PATH * 2];
	char title[RPT_PATH];
	char *names[RPT_MAX_FILES];
	FILE *f;
	int rc, nf;

	if ((rc = cli_cmp_load(&c, o, files, n)))
		return rc;
	/* the folder goes into gnuplot's -e commands as a quoted string: no quote to end it,
	 * no control character (a newline ends a gnuplot command); checked before it is made */
	if (absolute(outdir, dir, sizeof dir) == 0 && (strchr(dir, '\'') || calc_text_plain(dir) >= 0))
		return cli_cmp_free(&c), cli_error("report: the output folder may not contain a quote (') or a "
		                                   "control character");
	if (absolute(outdir, dir, sizeof dir) < 0 || make_dirs(dir) < 0) {
		cli_cmp_free(&c);
		return cli_error("report: cannot create %s: %s", outdir, strerror(errno));
	}
	for (const char *sub = "data"; sub; sub = !strcmp(sub, "data") ? "figures" : NULL) {
		snprintf(path, sizeof path, "%s/%s", dir, sub);
		if (make_dirs(path) < 0)
			return cli_cmp_free(&c), cli_error("report: cannot create %s: %s", path, strerror(errno));
	}

	/* the document and the datasets of its charts */
	snprintf(md, sizeof md, "%s/compare.md", dir);
	snprintf(tmp, sizeof tmp, "%s.tmp", md);
	snprintf(path, sizeof path, "%s/data", dir);
	fprintf(stderr, "report: comparison of %d plans\n", n);
	if (!(f = fopen(tmp, "w")))
		return cli_cmp_free(&c), cli_error("report: cannot write %s: %s", tmp, strerror(errno));
	rc = cli_cmp_write_md(&c, f, path, &d);
	if (fclose(f) != 0 && rc == 0)
		rc = calc_error(&d, md, 0, "cannot write: %s", strerror(errno));
	cli_cmp_free(&c);
	if (rc < 0) {
		unlink(tmp);
		return cli_fail(&d);
	}
	calc_diag_free(&d);
	if ((rc = settle(0, md, "compare.md")))
		return rc;

	/* charts: SHARE/figures/compare/NAME.gp over DIR/data/NAME.tsv */
	snprintf(figdir, sizeof figdir, "%s/figures/compare", share);
	if ((nf = list_files(figdir, ".gp", names, RPT_MAX_FILES)) < 0)
		return cli_error("report: cannot read %s: %s", figdir, strerror(errno));
	rc = 0;
	for (int i = 0; i < nf && !rc; i++) {
		char data[RPT_PATH * 2];
		snprintf(data, sizeof data, "%s/data/%s.tsv", dir, names[i]);
		fprintf(stderr, "report: figure %s\n", names[i]);
		rc = render_figure(share, "figures/compare", names[i], data, dir, png);
	}
	free_names(names, nf);
	if (rc)
		return rc;

	/* the report: the first plan, as the user named it (trainplan-report runs in this
	 * folder), is the document's plan; the title says what it is and the subtitle lists
	 * the plans */
	{
		char base[RPT_PATH * 2], sub[4096];
		char *rargv[CLI_MAX_ARGS * 2 + 24];
		int k = 0;
		snprintf(title, sizeof title, "plan.title=Comparison of %d plans", n);
		/* the title page names every plan by its letter, not only the first */
		sub[0] = 0;
		for (int i = 0; i < n; i++) {
			size_t l = strlen(sub);
			char shown[RPT_PATH];
			/* a file name's control bytes as \xHH: the subtitle is text (trainplan-report) */
			snprintf(sub + l, sizeof sub - l, "%s%c: %s", i ? " \xc2\xb7 " : "", 'A' + i,
			         calc_text_shown(shown, sizeof shown, files[i]));
		}
		snprintf(base, sizeof base, "%s/compare", dir);
		rargv[k++] = (char *)reporter;
		rargv[k++] = "--plan";
		rargv[k++] = (char *)files[0];
		for (int i = 0; i < o->nsets; i++) {
			rargv[k++] = "--set";
			rargv[k++] = (char *)o->sets[i];
		}
		rargv[k++] = "--set";
		rargv[k++] = title;
		rargv[k++] = "--set";
		rargv[k++] = "plan.date="; /* the comparison's own date (SOURCE_DATE_EPOCH or today), not plan A's */
		rargv[k++] = "--subtitle";
		rargv[k++] = sub;
		rargv[k++] = "-o";
		rargv[k++] = base;
		rargv[k++] = "--figures";
		rargv[k++] = figdir;
		if (no_pdf)
			rargv[k++] = "--no-pdf";
		if (no_cache)
			rargv[k++] = "--no-cache";
		rargv[k++] = md;
		rargv[k] = NULL;
		fprintf(stderr, "report: document\n");
		if ((rc = run(rargv, NULL, NULL)) != 0)
			return cli_error("report: trainplan-report failed (exit status %d)", rc);
	}
	printf("%s/compare.html\n", dir);
	if (!no_pdf)
		printf("%s/compare.pdf\n", dir);
	return 0;
}

/*
 * trainplan-report over the chapters (argv, argv[0] its path), started at once with
 * --wait-fd: it expands the chapters -- the planner's searches of the plan and its
 * scenarios, most of its time -- while this program writes the datasets and the jobs draw
 * the figures, and reads no figure before the pipe whose write end this returns (-1: it
 * did not start) is closed (finish_reporter).  Its standard output is this program's
 * standard error, as run() gives it.  Measured on the DeepSeek-V3 plan (docs/architecture.md
 * §11): the chapters took 1.8 s after the figures, most of it searches that read nothing
 * of this pipeline's files; the clean build 4.77 -> 4.00 s of wall time (medians of 6
 * interleaved rounds on a quiet machine), the same CPU.
 */
static int start_reporter(char **argv, int nargs)
{
	int fds[2];
	char fdarg[16];
	pid_t pid;
	if (pipe(fds) < 0)
		return -1;
	/* the write end stays out of every other process (the jobs, gnuplot): its end is
	 * when this program closes it */
	fcntl(fds[1], F_SETFD, FD_CLOEXEC);
	snprintf(fdarg, sizeof fdarg, "%d", fds[0]);
	argv[nargs] = "--wait-fd";
	argv[nargs + 1] = fdarg;
	argv[nargs + 2] = NULL;
	fflush(stdout);
	fflush(stderr);
	if (got_signal || (pid = fork()) < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		int fd = dup(2);
		close(fds[1]);
		if (fd < 0 || dup2(fd, 1) < 0)
			_exit(127);
		close(fd);
		execv(argv[0], argv);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fds[0]);
	rep_pid = pid;
	rep_reaped = 0;
	if (got_signal) /* it came between the fork and the line above */
		kill(pid, got_signal);
	return fds[1];
}

/* The end of the reporter started with write end 'wfd': with 'go' the figures are there
 * (a byte written, the pipe closed, its exit status waited for and returned, as run()
 * returns it); else the pipeline stopped before the chapters (ended by SIGTERM, before it
 * reads a figure or writes a file; its own temporaries it removes) and -1. */
static int finish_reporter(int wfd, int go)
{
	int status;
	if (!go && rep_pid > 0)
		kill(rep_pid, SIGTERM);
	/* the go-ahead is a byte: a pipe closed without one (this program ended by a signal
	 * while it wrote the datasets itself, catalog_signals) tells it to write nothing */
	if (go && !got_signal) {
		/* a reporter that has ended already (an error of its own) makes the write fail
		 * with EPIPE, not end this program by SIGPIPE */
		struct sigaction ign, old;
		memset(&ign, 0, sizeof ign);
		ign.sa_handler = SIG_IGN;
		sigemptyset(&ign.sa_mask);
		sigaction(SIGPIPE, &ign, &old);
		if (write(wfd, "1", 1) != 1 && errno != EPIPE)
			go = 0;
		sigaction(SIGPIPE, &old, NULL);
	}
	close(wfd);
	if (!rep_reaped) {
		pid_t pid = rep_pid;
		while (pid > 0 && waitpid(pid, &status, 0) < 0)
			if (errno != EINTR) {
				rep_pid = 0;
				return -1;
			}
		rep_pid = 0;
		rep_status = status;
		rep_reaped = 1;
	}
	if (!go || got_signal)
		return -1;
	return WIFEXITED(rep_status) ? WEXITSTATUS(rep_status) : -1;
}

static int report_main(int argc, char **argv);

int cmd_report(int argc, char **argv)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	struct sigaction sa;
	int rc;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &sa, NULL);
	rc = report_main(argc, argv);
	if (got_signal) {
		int sig = got_signal;
		signal(sig, SIG_DFL);
		raise(sig);
	}
	return rc;
}

static int report_main(int argc, char **argv)
{
	struct cli_opts o;
	const char *outdir = "output", *share_opt = NULL, *plan_arg = NULL;
	char self[RPT_PATH], bindir[RPT_PATH], share[RPT_PATH + 32], reporter[RPT_PATH + 32], dir[RPT_PATH];
	char plan[RPT_PATH + 16], path[RPT_PATH * 2], figdir[RPT_PATH * 2];
	char *names[RPT_MAX_FILES];
	const char *cmp_files[CLI_CMP_MAX];
	int rc, no_pdf = 0, no_cache = 0, n, compare = 0, ncmp = 0, png = 0, jobs = processors();
	ssize_t len;

	if ((rc = cli_parse(argc, argv, &o)))
		return rc;
	if (o.format_given)
		return cli_error("report: --format does not apply (the report is HTML and PDF)");
	for (int i = 0; i < o.nrest; i++) {
		const char *v, *val, *opt;
		if ((v = cli_opt(&o, &i, "--out"))) { /* the long spelling of -o, not listed */
			outdir = v;
			continue;
		}
		if (!(opt = cli_next("report", &o, &i, &val)))
			return 2;
		if (cli_is(opt, "-o") && (v = val))
			outdir = v;
		else if (cli_is(opt, "--share") && (v = val))
			share_opt = v;
		else if (cli_is(opt, "--no-pdf"))
			no_pdf = 1;
		else if (cli_is(opt, "--no-cache"))
			no_cache = 1;
		else if (cli_is(opt, "--png"))
			png = 1;
		else if (cli_is(opt, "--jobs") && (v = val)) {
			char *end;
			long j = strtol(v, &end, 10);
			if (!*v || *end || j < 1 || j > RPT_MAX_JOBS)
				return cli_error("report: --jobs %s: expected an integer in 1 .. %d", v, RPT_MAX_JOBS);
			jobs = (int)j;
		}
		else if (cli_is(opt, "--compare"))
			compare = 1;
		else if (*opt)
			return cli_unhandled("report", opt);
		else if (compare || ncmp) {
			if (ncmp >= CLI_CMP_MAX)
				return cli_error("report: --compare takes at most %d plans", CLI_CMP_MAX);
			cmp_files[ncmp++] = o.rest[i];
		} else if (plan_arg || o.plan)
			return cli_error("report: one plan at a time ('%s')", o.rest[i]);
		else
			plan_arg = o.rest[i];
	}
	if (compare) {
		/* every plan named, in order: --plan first, then the plan before --compare */
		if (o.plan || plan_arg) {
			if (ncmp >= CLI_CMP_MAX)
				return cli_error("report: --compare takes at most %d plans", CLI_CMP_MAX);
			memmove(cmp_files + (o.plan && plan_arg ? 2 : 1), cmp_files, (size_t)ncmp * sizeof *cmp_files);
			int j = 0;
			if (o.plan)
				cmp_files[j++] = o.plan;
			if (plan_arg)
				cmp_files[j++] = plan_arg;
			ncmp += j;
		}
		if (ncmp < 2)
			return cli_error("report: --compare needs two plans or more (trainplan report --compare A.ini B.ini -o DIR)");
		for (int i = 0; i < ncmp; i++)
			if (!strcmp(cmp_files[i], "-"))
				return cli_error("report: --compare reads plan files, not standard input");
	} else if (ncmp)
		return cli_error("report: one plan at a time ('%s'); --compare sets several side by side", cmp_files[0]);
	if (!plan_arg)
		plan_arg = o.plan;

	/* where this program, trainplan-report and the chapters are */
	if ((len = readlink("/proc/self/exe", self, sizeof self - 1)) <= 0)
		return cli_error("report: cannot find this program's own path; give --share DIR");
	self[len] = 0;
	snprintf(bindir, sizeof bindir, "%.*s", (int)(strrchr(self, '/') - self), self);
	snprintf(reporter, sizeof reporter, "%s/trainplan-report", bindir);
	if (access(reporter, X_OK) < 0)
		return cli_error("report: %s is missing (make install, or make build/trainplan-report)", reporter);
	if (!share_opt)
		share_opt = getenv("TRAINPLAN_SHARE");
	if (share_opt) {
		if (absolute(share_opt, share, sizeof share) < 0 || !has_share(share))
			return cli_error("report: %s holds no chapters/ and figures/", share_opt);
	} else {
		snprintf(share, sizeof share, "%s/../share/trainplan", bindir);
		if (!has_share(share)) {
			snprintf(share, sizeof share, "%s/..", bindir);
			if (!has_share(share))
				return cli_error("report: no chapters found in %s/../share/trainplan or %s/.. "
				                 "(make install, or give --share DIR)", bindir, bindir);
		}
	}

	if (compare)
		return compare_report(&o, cmp_files, ncmp, reporter, share, outdir, no_pdf, no_cache, png);

	/* the output folder absolute, since gnuplot runs in SHARE; the plan as given (only
	 * this folder's steps read it, and the report shows it as the user wrote it) */
	if (absolute(outdir, dir, sizeof dir) == 0 && (strchr(dir, '\'') || calc_text_plain(dir) >= 0))
		return cli_error("report: the output folder may not contain a quote (') or a control character");
	if (absolute(outdir, dir, sizeof dir) < 0 || make_dirs(dir) < 0)
		return cli_error("report: cannot create %s: %s", outdir, strerror(errno));
	if (plan_arg && !strcmp(plan_arg, "-")) {
		snprintf(plan, sizeof plan, "%s/plan.ini", dir);
		if ((rc = save_stdin(plan)))
			return rc;
	} else if (plan_arg) {
		if (snprintf(plan, sizeof plan, "%s", plan_arg) >= (int)sizeof plan || access(plan, R_OK) < 0)
			return cli_error("report: cannot read %s: %s", plan_arg, strerror(errno));
	}
	/* the plan must load before anything is built; the catalog is evaluated from it */
	struct calc_plan p;
	{
		struct cli_opts lo = o;
		lo.plan = plan_arg ? plan : NULL;
		if ((rc = cli_load(&lo, &p)))
			return rc;
	}
	const char *planp = plan_arg ? plan : NULL;
	for (const char *sub = "data"; sub; sub = !strcmp(sub, "data") ? "figures" : !strcmp(sub, "figures") ? "tables" : NULL) {
		snprintf(path, sizeof path, "%s/%s", dir, sub);
		if (make_dirs(path) < 0)
			return cli_error("report: cannot create %s: %s", path, strerror(errno));
	}

	/* the plan's and the pick's marks (data/plan-marks.tsv, which figures/style.gp reads
	 * beside each chart's dataset) come with every other dataset */
	snprintf(figdir, sizeof figdir, "%s/figures", share);
	if ((n = list_files(figdir, ".gp", names, RPT_MAX_FILES)) < 0)
		return cli_error("report: cannot read %s: %s", figdir, strerror(errno));
	for (int i = 0; i < n; i++) /* style.gp is read by every figure, and no figure itself */
		if (!strcmp(names[i], "style")) {
			free(names[i]);
			memmove(names + i, names + i + 1, (size_t)(n - i - 1) * sizeof *names);
			n--;
			break;
		}
	/* every figure script draws a catalog dataset of its name */
	rc = 0;
	for (int i = 0; i < n && !rc; i++)
		if (!calc_catalog_dataset(names[i]))
			rc = cli_error("report: figure %s: no dataset of that name (trainplan data --list names them)",
			               names[i]);
	/* the report itself, started at once (start_reporter): it reads the figures once the
	 * write end 'wfd' is closed, after every figure is drawn */
	char chapdir[RPT_PATH * 2], base[RPT_PATH * 2];
	char *rargv[RPT_MAX_FILES + CLI_MAX_ARGS * 2 + 16];
	char *chs[RPT_MAX_FILES];
	int k = 0, nch, wfd = -1;
	snprintf(chapdir, sizeof chapdir, "%s/chapters", share);
	nch = list_files(chapdir, ".md", chs, RPT_MAX_FILES);
	snprintf(base, sizeof base, "%s/report", dir);
	rargv[k++] = reporter;
	if (planp) {
		rargv[k++] = "--plan";
		rargv[k++] = (char *)planp;
	}
	for (int i = 0; i < o.nsets; i++) {
		rargv[k++] = "--set";
		rargv[k++] = (char *)o.sets[i];
	}
	rargv[k++] = "-o";
	rargv[k++] = base;
	rargv[k++] = "--figures";
	rargv[k++] = figdir;
	if (no_pdf)
		rargv[k++] = "--no-pdf";
	if (no_cache)
		rargv[k++] = "--no-cache";
	for (int i = 0; i < nch; i++) {
		char *cp = malloc(strlen(chapdir) + strlen(chs[i]) + 8);
		sprintf(cp, "%s/%s.md", chapdir, chs[i]);
		rargv[k++] = cp;
	}
	if (!rc && nch > 0)
		wfd = start_reporter(rargv, k);
	rargv[k] = NULL; /* start_reporter appended --wait-fd: without it, the argv of run() where it did not start */
	/* the datasets, here; then the tables and the figures, in parallel jobs */
	if (!rc && got_signal)
		rc = 2;
	if (!rc) {
		struct calc_ctx ctx;
		calc_ctx_init(&ctx, &p);
		rc = catalog_write(&ctx, &p, dir, 1);
		if (!rc) {
			/* the SVGs by at most 'jobs' gnuplot processes taking figures from a queue
			 * (figure_worker); with --png each figure by gnuplots of its own */
			struct report_jobs rj = {share, dir, &ctx, &p, names, n, png, -1};
			int q[2], workers = n < jobs ? n : jobs;
			if (!png && n > 0 && pipe(q) == 0) {
				int all[RPT_MAX_FILES];
				for (int i = 0; i < n; i++)
					all[i] = i;
				fcntl(q[0], F_SETFD, FD_CLOEXEC);
				if (write(q[1], all, n * sizeof *all) == (ssize_t)(n * sizeof *all))
					rj.queue = q[0];
				else
					close(q[0]);
				close(q[1]);
			}
			rc = run_jobs(rj.queue >= 0 ? workers + 1 : n + 1, jobs, report_job, report_started, &rj);
			if (rj.queue >= 0)
				close(rj.queue);
			if (rj.ctx) /* job 0 did not start */
				calc_ctx_free(&ctx);
		} else
			calc_ctx_free(&ctx);
	}
	free_names(names, n);
	if (rc && wfd >= 0)
		finish_reporter(wfd, 0); /* stopped before the chapters */
	if (!rc && nch <= 0)
		rc = cli_error("report: no chapters in %s", chapdir);
	if (!rc) {
		fprintf(stderr, "report: chapters\n");
		rc = wfd >= 0 ? finish_reporter(wfd, 1) : run(rargv, NULL, NULL);
		if (rc != 0)
			rc = cli_error("report: trainplan-report failed (exit status %d)", rc);
	}
	for (int i = k - (nch > 0 ? nch : 0); i < k; i++)
		free(rargv[i]);
	if (nch > 0)
		free_names(chs, nch);
	if (rc)
		return rc;
	printf("%s/report.html\n", dir);
	if (!no_pdf)
		printf("%s/report.pdf\n", dir);
	return 0;
}
