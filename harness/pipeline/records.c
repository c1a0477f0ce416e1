/* records.c: see records.h */
#include "pipeline/records.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

double record_number(const json_t *j)
{
	return json_is_number(j) ? json_number_value(j) : NAN;
}

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
	const char *prod = json_string_value(json_object_get(j, "producer"));
	const char *st = json_string_value(json_object_get(j, "status"));
	const char *cons = json_string_value(json_object_get(j, "consumer"));
	r->producer = xstrdup(prod ? prod : "");
	r->status = xstrdup(st ? st : "");
	r->consumer = xstrdup(cons ? cons : "");
	const char *wait = json_string_value(json_object_get(j, "wait"));
	r->wait = xstrdup(wait ? wait : "");
	return 0;
}

int cooldown_record_from_json(struct cooldown_record *r, const json_t *j)
{
	memset(r, 0, sizeof(*r));
	if (!json_is_object(j))
		return -1;
	const char *st = json_string_value(json_object_get(j, "status"));
	for (int s = COOLDOWN_NONE; st && s <= COOLDOWN_INTERRUPTED; s++)
		if (!strcmp(st, cooldown_status_name((enum cooldown_status)s)))
			r->status = (enum cooldown_status)s;
	r->temp_before = record_number(json_object_get(j, "temp_before_c"));
	r->temp_after = record_number(json_object_get(j, "temp_after_c"));
	r->waited_s = json_number_value(json_object_get(j, "waited_s"));
	const char *sensor = json_string_value(json_object_get(j, "sensor"));
	const char *reason = json_string_value(json_object_get(j, "reason"));
	snprintf(r->sensor, sizeof(r->sensor), "%s", sensor ? sensor : "");
	snprintf(r->reason, sizeof(r->reason), "%s", reason ? reason : "");
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
	k->cycles_per_unit = record_number(json_object_get(j, "cycles_per_unit"));
	k->instructions_per_unit = record_number(json_object_get(j, "instructions_per_unit"));
}
