/* tune_search_technique.h: the techniques of `flagbench tune`, by name.
 *
 * The word --technique and the journal give a technique, and the enum
 * tune_search_new() takes (tune_search.h says what each technique does).
 * Apart from tune_search.h, which includes it, so that a search's state
 * (tune_search_state.h) can hold its technique without including the
 * header it implements.
 */
#ifndef FLAGBENCH_TUNE_SEARCH_TECHNIQUE_H
#define FLAGBENCH_TUNE_SEARCH_TECHNIQUE_H

enum tune_technique { TUNE_TECHNIQUE_RANDOM, TUNE_TECHNIQUE_ENSEMBLE };

/* "random", "ensemble"; parse: 0, or -1 for another word. */
const char *tune_technique_name(enum tune_technique t);
int tune_technique_parse(const char *word, enum tune_technique *out);

#endif
