/* run_dir.c: see run_dir.h */
#define _GNU_SOURCE
#include "driver/run_dir.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include <jansson.h>

#include "core/runcmd.h"
#include "core/stats.h"
#include "core/util.h"
#include "results/reader.h"

char *run_dir_new_id(const char *suite, const char *profile)
{
	char ts[32];
	format_utc_stamp(now_wall(), ts, sizeof(ts));
	return xasprintf("%s-%s-%s", ts, suite, profile);
}

char *run_dir_name_of_out(const char *out)
{
	size_t end = strlen(out);
	while (end > 1 && out[end - 1] == '/')
		end--;
	size_t start = end;
	while (start > 0 && out[start - 1] != '/')
		start--;
	size_t len = end - start;
	if (!len || (len == 1 && out[start] == '.') || (len == 2 && !strncmp(out + start, "..", 2)))
		return NULL;
	return xasprintf("%.*s", (int)len, out + start);
}

int run_dir_lock(const char *dir, int resuming)
{
	char *path = xasprintf("%s/.lock", dir);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		error("cannot create %s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		char pid[32] = "";
		ssize_t n = pread(fd, pid, sizeof(pid) - 1, 0);
		pid[n > 0 ? n : 0] = '\0';
		pid[strcspn(pid, "\n")] = '\0';
		error("%s is in use by another flagbench run%s%s%s; wait for it, or choose another --out", dir,
		      pid[0] ? " (pid " : "", pid, pid[0] ? ")" : "");
		close(fd);
		free(path);
		return -1;
	}
	free(path);
	char *journal = xasprintf("%s/journal.jsonl", dir), *results = xasprintf("%s/results.json", dir);
	int used = access(journal, F_OK) == 0 || access(results, F_OK) == 0;
	free(journal);
	free(results);
	if (used && !resuming) {
		error("%s already holds a run: --resume %s finishes it, or choose another --out", dir, dir);
		close(fd);
		return -1;
	}
	/* a run killed during a write (kill -9, power) leaves its temporary
	 * file; under the lock no other run is writing one */
	glob_t g;
	char *pat = xasprintf("%s/results.json.tmp.*", dir);
	if (glob(pat, GLOB_NOSORT, NULL, &g) == 0)
		for (size_t i = 0; i < g.gl_pathc; i++)
			unlink(g.gl_pathv[i]);
	globfree(&g);
	free(pat);
	char pid[32];
	int len = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) == 0 && pwrite(fd, pid, (size_t)len, 0) < 0)
		warning("cannot write the pid into %s/.lock", dir);
	return 0; /* fd stays open: it holds the lock */
}

int run_dir_resume_id(const char *dir, const char *suite, const char *profile, double quantile, char **id)
{
	/* the one reader's checks (results/reader.h): a folder whose
	 * results.json is not a run's is no run to resume */
	struct results_run old;
	int have = results_open(dir, &old) == 0;
	const char *oid = have && old.id[0] ? old.id : NULL, *osuite = have ? old.suite : NULL, *oprof = have ? old.cpu_profile : NULL;
	if (!have || (osuite && strcmp(osuite, suite)) || (oprof && strcmp(oprof, profile))) {
		if (!have)
			error("cannot resume %s: no readable results.json there", dir);
		else
			error("cannot resume %s with suite %s on cpu %s: it is a run of suite %s on cpu %s "
			      "(--resume %s --suite %s --cpu %s)", dir, suite, profile, osuite ? osuite : "?",
			      oprof ? oprof : "?", dir, osuite ? osuite : "?", oprof ? oprof : "?");
		if (have)
			results_close(&old);
		return -1;
	}
	/* the journal's cells keep the statistic they were measured with
	 * (runs older than run.statistic reported the median) */
	double oq = 0.5;
	const char *ostat = old.statistic; /* "median" where the run does not say */
	if (stats_statistic_parse(ostat, &oq) == 0 && oq != quantile) {
		char name[32];
		error("cannot resume %s with --statistic %s: it reports the %s (--resume %s --statistic %s)", dir,
		      stats_statistic_name(quantile, name, sizeof(name)), ostat, dir, ostat);
		results_close(&old);
		return -1;
	}
	*id = oid ? xstrdup(oid) : run_dir_new_id(suite, profile);
	results_close(&old);
	return 0;
}

void run_dir_render(const char *dir)
{
	char *script = xasprintf("%s/plots/render.sh", project_root());
	if (access(script, X_OK) < 0) {
		warning("%s not found: tables and plots not rendered", script);
		free(script);
		return;
	}
	char *argv[] = { script, (char *)dir, NULL };
	struct child ch = CHILD_INIT;
	ch.argv = argv;
	ch.in = CHILD_DEVNULL;
	ch.out = STDERR_FILENO; /* stdout is the summary's */
	struct child_exit ex;
	if (child_start(&ch) < 0 || child_wait(&ch, 600, &ex) < 0 || ex.outcome != CHILD_EXITED || ex.exit_code) {
		char how[128] = "did not start";
		if (ch.pid > 0)
			describe_exit(&ex, 600, how, sizeof(how));
		warning("rendering %s %s; results.json is kept", dir, how);
	}
	free(script);
}
