/* cooldown.c: see cooldown.h */
#define _GNU_SOURCE
#include "system/cooldown.h"

#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "system/thermal.h"
#include "core/util.h"

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

void cooldown_log_append(const char *path, const struct cooldown_record *rec)
{
	json_t *j = cooldown_record_to_json(rec);
	char *line = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, line);
	sb_adds(&sb, "\n");
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd >= 0) {
		ssize_t w = write(fd, sb.buf, sb.len);
		(void)w;
		close(fd);
	}
	sb_release(&sb);
	free(line);
	json_decref(j);
}
