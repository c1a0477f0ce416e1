/* cooldown.h: `flagbench cooldown`, the pause hyperfine runs before every
 * timed run (--prepare) against thermal throttling.
 *
 * It waits the profile's seconds; where thermal sensors exist and
 * --below is given, it then waits until the hottest sensor reads below
 * that many degrees, at most --max-wait seconds in all.  Without sensors
 * it falls back to the fixed pause.  --log FILE appends one JSON line per
 * pause saying what it did (the run turns a fallback into a warning).
 */
#ifndef FLAGBENCH_COOLDOWN_H
#define FLAGBENCH_COOLDOWN_H

int cmd_cooldown(int argc, char **argv);

#endif
