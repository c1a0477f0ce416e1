/* cpu_profile.c: configs/cpus/NAME.json and the probed host profile (cpu_profile.h). */
#define _GNU_SOURCE
#include "config/cpu_profile.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

#include "config/jsoncfg.h"
#include "core/options.h"
#include "system/sysinfo.h"
#include "system/topology.h"

static int parse_pin(struct cfg *c, json_t *pin, struct cpu_profile *p)
{
	static const char *const keys[] = { "producer", "consumer", "single", "class", NULL };
	if (!json_is_object(pin))
		return cfg_error(c, "must be an object like {\"producer\": 0, \"consumer\": 2, \"single\": 0}");
	if (cfg_check_keys(c, pin, keys) < 0)
		return -1;
	double v;
	const char *names[] = { "producer", "consumer", "single" };
	int *dst[] = { &p->pin_producer, &p->pin_consumer, &p->pin_single };
	for (int i = 0; i < 3; i++) {
		v = -1;
		json_t *x = json_object_get(pin, names[i]);
		if (x && json_is_null(x))
			continue;
		if (cfg_number(c, pin, names[i], 0, 4095, 1, &v) < 0)
			return -1;
		if (v >= 0)
			*dst[i] = (int)v;
	}
	if (cfg_string(c, pin, "class", 0, &p->pin_class) < 0)
		return -1;
	enum placement_class pc;
	if (p->pin_class && placement_class_parse(p->pin_class, &pc) < 0) {
		cfg_push_key(c, "class");
		int r = cfg_error(c, "'%s' is not a placement class (" PLACEMENT_CLASS_NAMES ")", p->pin_class);
		cfg_pop(c);
		return r;
	}
	return 0;
}
/* The probed host profile: march native, pins from the online CPUs. */
static int host_profile(struct cpu_profile *p)
{
	int cpus[8];
	int n = host_cpus(cpus, 8);
	p->name = xstrdup("host");
	p->title = xasprintf("this machine (%s)", host_cpu_model());
	p->match = NULL;
	sv_push(&p->march, "native");
	/* producer and consumer on different CPUs when there are two; the
	 * placement study (flagbench topology) picks classes explicitly */
	p->pin_producer = n > 0 ? cpus[0] : PIN_NONE;
	p->pin_consumer = n > 1 ? cpus[1] : p->pin_producer;
	p->pin_single = n > 1 ? cpus[1] : p->pin_producer;
	p->cooldown_s = 0;
	p->cooldown_below_c = NAN;
	p->cooldown_max_wait_s = 0;
	p->json = json_pack("{s:s, s:s, s:[s], s:{s:i, s:i, s:i}, s:{s:f}}", "name", "host", "title", p->title,
			    "march", "native", "pin", "producer", p->pin_producer, "consumer", p->pin_consumer,
			    "single", p->pin_single, "cooldown", "seconds", 0.0);
	return 0;
}


int load_cpu_profile(const char *name, struct cpu_profile *p)
{
	memset(p, 0, sizeof(*p));
	p->pin_producer = p->pin_consumer = p->pin_single = PIN_NONE;
	p->cooldown_below_c = NAN;
	if (!strcmp(name, "host")) {
		char *over = xasprintf("%s/configs/cpus/host.json", project_root());
		int exists = access(over, R_OK) == 0;
		free(over);
		if (!exists)
			return host_profile(p);
	}
	char *path = cfg_config_path("cpus", name);
	if (access(path, R_OK) < 0 && !strchr(name, '/') && !strstr(name, ".json")) {
		free(path);
		return cfg_unknown_name("cpus", "cpu profile", name);
	}
	char *text = NULL;
	json_t *root = cfg_load_json(path, &text);
	if (!root) {
		free(path);
		return -1;
	}
	struct cfg c = { path, text, { { 0 } }, 0 };
	static const char *const keys[] = { "name", "title", "match", "march", "cflags", "pin", "cooldown", NULL };
	int r = cfg_check_keys(&c, root, keys);
	if (!r)
		r = cfg_string(&c, root, "name", 1, &p->name);
	if (!r)
		r = cfg_check_name(&c, "name", p->name);
	if (!r)
		r = cfg_string(&c, root, "title", 0, &p->title);
	if (!r)
		r = cfg_string(&c, root, "match", 0, &p->match);
	if (!r)
		r = cfg_string_list(&c, root, "march", 1, &p->march);
	if (!r)
		r = cfg_string_list(&c, root, "cflags", 0, &p->cflags);
	json_t *pin = json_object_get(root, "pin");
	if (!r && pin) {
		cfg_push_key(&c, "pin");
		r = parse_pin(&c, pin, p);
		cfg_pop(&c);
	}
	json_t *cd = json_object_get(root, "cooldown");
	if (!r && cd) {
		static const char *const ckeys[] = { "seconds", "below_celsius", "max_wait_seconds", NULL };
		cfg_push_key(&c, "cooldown");
		if (!json_is_object(cd))
			r = cfg_error(&c, "must be an object like {\"seconds\": 30}");
		if (!r)
			r = cfg_check_keys(&c, cd, ckeys);
		if (!r)
			r = cfg_number(&c, cd, "seconds", 0, 3600, 0, &p->cooldown_s);
		if (!r)
			r = cfg_number(&c, cd, "below_celsius", 10, 110, 0, &p->cooldown_below_c);
		p->cooldown_max_wait_s = p->cooldown_s;
		if (!r)
			r = cfg_number(&c, cd, "max_wait_seconds", 0, 7200, 0, &p->cooldown_max_wait_s);
		cfg_pop(&c);
	}
	if (!r)
		r = cfg_require(&c, p->march.n > 0, "march", "must name at least one -march value (\"default\" for none)");
	free(text);
	p->path = path;
	p->json = root;
	if (r < 0) {
		free_cpu_profile(p);
		return -1;
	}
	return 0;
}

void free_cpu_profile(struct cpu_profile *p)
{
	free(p->name);
	free(p->path);
	free(p->title);
	free(p->match);
	free(p->pin_class);
	sv_clear(&p->march);
	sv_clear(&p->cflags);
	json_decref(p->json);
	memset(p, 0, sizeof(*p));
}

/* "family_dirs": folders of families, relative to the suite file. */
