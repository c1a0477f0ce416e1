/* records.h: the stage records a child hands back as JSON.
 *
 * A meter --report line (one timed run), a cooldown --log line (one wait)
 * and counters_measure()'s object are read back by the stage that ran the
 * child and by results/results.c when it restores a cell: one parser each,
 * here, below both.
 */
#ifndef FLAGBENCH_RECORDS_H
#define FLAGBENCH_RECORDS_H

#include <jansson.h>

#include "pipeline/plan.h"
#include "system/cooldown.h"

int meter_run_from_json(struct meter_run *r, const json_t *j);
int cooldown_record_from_json(struct cooldown_record *r, const json_t *j);
void cell_counters_from_json(struct cell_counters *k, const json_t *j);

/* A copy of j's string, or NULL where j is none (numbers: jnum_value(),
 * core/json_util.h). */
char *record_string(const json_t *j);

#endif
