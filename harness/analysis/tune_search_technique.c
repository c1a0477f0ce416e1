/* tune_search_technique.c: see tune_search_technique.h */
#include "analysis/tune_search_technique.h"

#include <string.h>

const char *tune_technique_name(enum tune_technique t)
{
	return t == TUNE_TECHNIQUE_ENSEMBLE ? "ensemble" : "random";
}

int tune_technique_parse(const char *word, enum tune_technique *out)
{
	if (!word)
		return -1;
	if (!strcmp(word, "random"))
		*out = TUNE_TECHNIQUE_RANDOM;
	else if (!strcmp(word, "ensemble"))
		*out = TUNE_TECHNIQUE_ENSEMBLE;
	else
		return -1;
	return 0;
}
