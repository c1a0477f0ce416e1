/* meter.h: `flagbench meter [options] -- PROGRAM ARGS`, what hyperfine times.
 *
 * Stream mode (default): starts PROGRAM with stdout on a pipe, pins the
 * producer and the meter (the consumer) to their CPUs, and drains the pipe
 * with splice() into /dev/null (read() when splice is refused), so that
 * the consumer costs next to nothing.  It fails unless exactly
 * --expect-bytes arrived; --max-bytes cuts a producer that never stops
 * (GNU yes) and then a SIGPIPE death of the producer is expected.
 * --consumer pv runs pv as the consumer instead, to compare with the
 * seeds' `| pv > /dev/null` figures (pv cannot count for us: no byte check).
 * --sink stdout forwards the bytes to the meter's stdout instead of
 * /dev/null (verification of bounded references).
 *
 * Compute mode (--compute): runs PROGRAM pinned to --cpu with stdout on
 * /dev/null; --preload sets LD_PRELOAD for it alone (allocators).
 *
 * Exit: 0 ok; 1 wrong byte count; 3 the producer failed (its message on
 * stderr, and in --report); 124 --timeout expired (the producer is
 * killed); 2 usage.  --report FILE appends one JSON line per run:
 * {"bytes","seconds","producer","status","consumer"}.
 */
#ifndef FLAGBENCH_METER_H
#define FLAGBENCH_METER_H

enum meter_exit {
	METER_OK = 0,
	METER_WRONG_BYTES = 1,
	METER_USAGE = 2,
	METER_PRODUCER_FAILED = 3,
	METER_TIMEOUT = 124,
};

int cmd_meter(int argc, char **argv);

#endif
