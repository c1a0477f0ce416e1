/* cooldown.c: see cooldown.h */
#define _GNU_SOURCE
#include "system/cooldown.h"

#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "core/options.h"
#include "system/thermal.h"
#include "core/util.h"

struct cooldown_opts {
	double seconds, below, max_wait;
	char *log, *root;
	int log_waits;
};

#define CO(f) offsetof(struct cooldown_opts, f)
static const struct option_def cooldown_options[] = {
	{ "seconds", 0, OPT_DOUBLE, CO(seconds), "S", 0, 3600, "pause at least this long" },
	{ "below", 0, OPT_DOUBLE, CO(below), "CELSIUS", 10, 110, "then wait until the hottest sensor is below this" },
	{ "max-wait", 0, OPT_DOUBLE, CO(max_wait), "S", 0, 7200, "never wait longer than this in all" },
	{ "log", 0, OPT_STRING, CO(log), "FILE", 0, 0, "append a JSON line saying what was done" },
	{ "root", 0, OPT_STRING, CO(root), "DIR", 0, 0, "read sensors under DIR instead of / (tests)" },
	{ "log-waits", 0, OPT_FLAG, CO(log_waits), NULL, 0, 0, "log only a wait that waited" },
	{ NULL, 0, 0, 0, NULL, 0, 0, NULL },
};

void cooldown_policy_init(struct cooldown_policy *p, const struct cooldown_spec *spec, int override, const char *root)
{
	double c;
	char name[64];
	p->spec = *spec;
	p->override = override;
	p->sensor = thermal_cpu_celsius(root, &c, name, sizeof(name)) == 0;
}

int cooldown_follows_sensor(const struct cooldown_policy *p)
{
	return p->sensor && isfinite(p->spec.below_celsius) && p->spec.below_celsius > 0;
}

int cooldown_before_cell_spec(const struct cooldown_policy *p, struct cooldown_spec *out)
{
	*out = p->spec;
	if (cooldown_follows_sensor(p)) {
		/* the temperature decides; a fixed pause only when asked for */
		out->seconds = p->override ? p->spec.seconds : 0;
		return 1;
	}
	out->max_wait_seconds = out->seconds;
	return out->seconds > 0;
}

int cooldown_before_cell(const struct cooldown_policy *p, const char *root, double (*sleep_fn)(double),
			 struct cooldown_record *rec)
{
	struct cooldown_spec s;
	return cooldown_before_cell_spec(p, &s) && cooldown_run(&s, root, sleep_fn, rec) == 0;
}

int cooldown_between_runs(const struct cooldown_policy *p, double *below, double *max_wait)
{
	if (!cooldown_follows_sensor(p))
		return 0;
	*below = p->spec.below_celsius;
	*max_wait = p->spec.max_wait_seconds;
	return 1;
}

void cooldown_argv(const struct cooldown_spec *spec, const char *log, int waits_only, struct strvec *out)
{
	sv_push(out, self_exe());
	sv_push(out, "cooldown");
	sv_pushf(out, "--seconds=%g", spec->seconds);
	if (isfinite(spec->below_celsius))
		sv_pushf(out, "--below=%g", spec->below_celsius);
	sv_pushf(out, "--max-wait=%g", spec->max_wait_seconds);
	sv_pushf(out, "--log=%s", log);
	if (waits_only)
		sv_push(out, "--log-waits");
}

int cmd_cooldown(int argc, char **argv)
{
	struct cooldown_opts o;
	memset(&o, 0, sizeof(o));
	o.below = NAN;
	o.max_wait = -1;
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			printf("usage: flagbench cooldown [options]\n");
			options_help(cooldown_options, stdout);
			return 0;
		}
	if (options_parse(cooldown_options, &o, NULL, argc - 1, argv + 1, NULL, 0) < 0)
		return EXIT_USAGE;
	struct cooldown_spec spec = { o.seconds, o.below, o.max_wait < 0 ? o.seconds : o.max_wait };
	struct cooldown_record rec;
	cooldown_run(&spec, o.root ? o.root : "/", cooldown_sleep, &rec);
	if (o.log && (!o.log_waits || rec.waited_s > 0)) {
		json_t *j = cooldown_record_to_json(&rec);
		char *line = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
		struct strbuf sb = STRBUF_INIT;
		sb_adds(&sb, line);
		sb_adds(&sb, "\n");
		int fd = open(o.log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		if (fd >= 0) {
			ssize_t w = write(fd, sb.buf, sb.len);
			(void)w;
			close(fd);
		}
		sb_release(&sb);
		free(line);
		json_decref(j);
	}
	free(o.log);
	free(o.root);
	return 0;
}
