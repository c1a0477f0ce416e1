/* build_progress.c: see build_progress.h */
#include "pipeline/build_progress.h"

#include <string.h>

#include "core/heartbeat.h"
#include "core/util.h"

void build_progress_begin(struct build_progress *bp, FILE *out, size_t total, size_t cached, unsigned jobs,
			  double now)
{
	*bp = (struct build_progress){ .out = out, .total = total, .cached = cached, .jobs = jobs ? jobs : 1,
				       .start = now, .last_line = now };
	if (!out || !total)
		return;
	heartbeat_spoke();
	fprintf(out, "flagbench: building %zu program%s, %u at a time%s", total, total == 1 ? "" : "s", bp->jobs,
		cached ? "" : "\n");
	if (cached)
		fprintf(out, " (%zu more in the build cache)\n", cached);
	fflush(out);
}

void build_progress_finished(struct build_progress *bp, double seconds, int ok)
{
	bp->done++;
	bp->failed += !ok;
	bp->done_s += seconds;
}

double build_progress_eta(const struct build_progress *bp, double now, const struct build_running *run,
			  size_t nrun)
{
	if (!bp->done)
		return -1;
	double mean = bp->done_s / (double)bp->done;
	size_t waiting = bp->total > bp->done + nrun ? bp->total - bp->done - nrun : 0;
	double work = (double)waiting * mean, longest = 0;
	for (size_t i = 0; i < nrun; i++) {
		double left = mean - (now - run[i].started);
		if (left < mean / 10)
			left = mean / 10;
		work += left;
		if (left > longest)
			longest = left;
	}
	double spread = work / (double)bp->jobs;
	return spread > longest ? spread : longest;
}

/* A compile's name for the progress line: explain's and tune's builds are
 * a cell with dozens of flags, so past BUILD_PROGRESS_NAME characters the
 * words that fit are kept and the rest counted ("and 21 more flags"). */
void build_progress_name(const char *what, char *out, size_t n)
{
	size_t len = strlen(what), keep = 0, after = 0;
	if (len <= BUILD_PROGRESS_NAME) {
		snprintf(out, n, "%s", what);
		return;
	}
	/* the last space that leaves room for " and N more flags" */
	for (size_t i = 0; i < len && i <= BUILD_PROGRESS_NAME - 24; i++)
		if (what[i] == ' ')
			keep = i;
	if (!keep) {
		snprintf(out, n, "%.*s...", (int)(BUILD_PROGRESS_NAME - 3), what);
		return;
	}
	for (size_t i = keep; i < len; i++)
		after += what[i] == ' ' && what[i + 1] && what[i + 1] != ' ';
	snprintf(out, n, "%.*s and %zu more flag%s", (int)keep, what, after, after == 1 ? "" : "s");
}

void build_progress_tick(struct build_progress *bp, double now, const struct build_running *run, size_t nrun)
{
	if (!bp->out || now - bp->last_line < BUILD_PROGRESS_S)
		return;
	bp->last_line = now;
	const struct build_running *slowest = NULL;
	for (size_t i = 0; i < nrun; i++)
		if (!slowest || run[i].started < slowest->started)
			slowest = &run[i];
	char spent[32], eta[32] = "?", slow[32] = "", longest[512] = "";
	format_duration(now - bp->start, spent, sizeof(spent));
	double e = build_progress_eta(bp, now, run, nrun);
	if (e >= 0)
		format_duration(e, eta, sizeof(eta));
	if (slowest) {
		format_duration(now - slowest->started, slow, sizeof(slow));
		char name[BUILD_PROGRESS_NAME + 32];
		build_progress_name(slowest->what, name, sizeof(name));
		snprintf(longest, sizeof(longest), " (the longest: %s, for %s)", name, slow);
	}
	heartbeat_spoke();
	fprintf(bp->out, "flagbench: building: %zu of %zu done, %zu running%s after %s; builds eta %s\n", bp->done,
		bp->total, nrun, longest, spent, eta);
	fflush(bp->out);
}

void build_progress_end(struct build_progress *bp, double now)
{
	if (!bp->out || !bp->total)
		return;
	char spent[32];
	format_duration(now - bp->start, spent, sizeof(spent));
	fprintf(bp->out, "flagbench: built %zu of %zu in %s", bp->done - bp->failed, bp->total, spent);
	if (bp->failed)
		fprintf(bp->out, "; %zu failed", bp->failed);
	fprintf(bp->out, "\n");
	fflush(bp->out);
}
