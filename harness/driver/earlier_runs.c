/* earlier_runs.c: see earlier_runs.h */
#include "driver/earlier_runs.h"

#include <stdio.h>

#include "core/json_util.h"
#include "core/util.h"

/* One line where earlier runs of this host lie beside the run: what they
 * say the ratios move from run to run, the most of it named. */
static void between_announce(const struct between_runs *b)
{
	if (!b->nruns)
		return;
	const struct between_group *most = results_between_most(b, NULL);
	struct strbuf line = STRBUF_INIT;
	sb_addf(&line, "flagbench: %zu earlier run%s of this %s beside this one (newest %s): ", b->nruns,
		b->nruns == 1 ? "" : "s", b->any_host ? "CPU model (any host)" : "host", b->run_ids[0]);
	if (most)
		sb_addf(&line, "ratios moved between them by up to %.1f %% beyond their noise (%s/%s %s); the intervals "
			       "include it, and no spare run goes where only it keeps an answer open\n",
			100 * most->drift, most->family, most->variant ? most->variant : "*",
			results_between_kind_words(most->kind));
	else
		sb_addf(&line, "no ratio moved between them beyond its noise\n");
	fputs(line.buf, stderr);
	sb_release(&line);
}

void earlier_runs_read(const char *run_dir, const char *more_dir, int any_host, const json_t *host,
		       double started_wall, struct between_runs *out)
{
	char started[32];
	format_utc(started_wall, started, sizeof(started));
	results_between_before(run_dir, more_dir, any_host ? NULL : jstr_opt(host, "hostname"),
			       jstr_opt(host, "cpu_model"), started, out);
	between_announce(out);
}
