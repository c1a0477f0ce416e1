/* history.c: see history.h */
#define _GNU_SOURCE
#include "driver/history.h"

#include <string.h>

int history_analyse(struct history *h, const char *profile, enum metric m, double alarm_rate,
		    struct history_analysis *out)
{
	struct history_data d;
	if (history_load(h, profile, NULL, &d) < 0) {
		memset(out, 0, sizeof(*out));
		return -1;
	}
	history_analyse_data(&d, m, alarm_rate, out);
	out->owns = 1;
	return 0;
}
