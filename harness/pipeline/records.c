/* records.c: see records.h */
#include "pipeline/records.h"

#include <stdio.h>
#include <string.h>

#include "core/json_util.h"

char *record_string(const json_t *j)
{
	return json_is_string(j) ? xstrdup(json_string_value(j)) : NULL;
}

int meter_run_from_json(struct meter_run *r, const json_t *j)
{
	if (!json_is_object(j))
		return -1;
	r->bytes = (uint64_t)json_integer_value(json_object_get(j, "bytes"));
	r->seconds = json_number_value(json_object_get(j, "seconds"));
	r->producer = xstrdup(jstr(j, "producer"));
	r->status = xstrdup(jstr(j, "status"));
	r->consumer = xstrdup(jstr(j, "consumer"));
	r->wait = xstrdup(jstr(j, "wait"));
	return 0;
}

int cooldown_record_from_json(struct cooldown_record *r, const json_t *j)
{
	memset(r, 0, sizeof(*r));
	if (!json_is_object(j))
		return -1;
	const char *st = jstr_opt(j, "status");
	for (int s = COOLDOWN_NONE; st && s <= COOLDOWN_INTERRUPTED; s++)
		if (!strcmp(st, cooldown_status_name((enum cooldown_status)s)))
			r->status = (enum cooldown_status)s;
	r->temp_before = jnum(j, "temp_before_c");
	r->temp_after = jnum(j, "temp_after_c");
	r->waited_s = json_number_value(json_object_get(j, "waited_s"));
	snprintf(r->sensor, sizeof(r->sensor), "%s", jstr(j, "sensor"));
	snprintf(r->reason, sizeof(r->reason), "%s", jstr(j, "reason"));
	return 0;
}

void cell_counters_from_json(struct cell_counters *k, const json_t *j)
{
	cell_counters_free(k);
	if (!json_is_object(j))
		return;
	json_t *skipped = json_object_get(j, "skipped");
	if (skipped) {
		k->state = COUNTERS_SKIPPED;
		k->why = record_string(skipped);
		return;
	}
	k->state = COUNTERS_COUNTED;
	k->source = record_string(json_object_get(j, "source"));
	k->unit = record_string(json_object_get(j, "unit"));
	k->size = (uint64_t)json_integer_value(json_object_get(j, "size"));
	k->cycles_per_unit = jnum(j, "cycles_per_unit");
	k->instructions_per_unit = jnum(j, "instructions_per_unit");
}
