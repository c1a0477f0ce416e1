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
 * /dev/null; --preload sets LD_PRELOAD for it alone (allocators), and
 * --env-pad N an environment variable of N bytes (a layout moves the
 * program's stack by it, plan.h).
 *
 * Every child (the producer, pv) is started and reaped by core/runcmd in
 * its own process group.  --timeout S bounds the whole run whatever the
 * producer does (writes nothing, never exits, ignores SIGTERM, leaves
 * children holding the pipe): the pipe is read with poll() against the
 * deadline, then the producer's group gets SIGTERM, 0.2 s, SIGKILL.  A
 * SIGINT/SIGTERM to the meter (hyperfine stopped) kills the group too.
 *
 * hyperfine runs the meter on every timed run, so its fixed cost counts:
 * `make` builds it alone as build/flagbench-meter (meter.c, meter_main.c,
 * runcmd, options, util; static, on musl where musl-gcc is installed: no
 * library and no dynamic loader to start), and meter_command() gives that
 * program to measure and verify.  bench/meter-overhead.sh measures it
 * against the bare producer and `flagbench meter` (the same code).
 *
 * `flagbench meter` parses (cmd/meter.h) and meter_run() meters.
 *
 * Exit: 0 ok; 1 wrong byte count; 3 the producer failed (its message on
 * stderr, and in --report); 124 --timeout expired (the producer's group is
 * killed); 130 interrupted; 2 usage.  --report FILE appends one JSON line
 * per run: {"bytes","seconds","producer","status","consumer"}.
 */
#ifndef FLAGBENCH_METER_H
#define FLAGBENCH_METER_H

#include <stdint.h>

enum meter_exit {
	METER_OK = 0,
	METER_WRONG_BYTES = 1,
	METER_USAGE = 2,
	METER_PRODUCER_FAILED = 3,
	METER_TIMEOUT = 124,
	METER_INTERRUPTED = 130,
};

/* which of the options without a "none" value were given */
enum meter_given {
	METER_GIVEN_EXPECT = 1,       /* expect_bytes */
	METER_GIVEN_MAX = 2,          /* max_bytes */
	METER_GIVEN_PRODUCER_CPU = 4, /* producer_cpu */
	METER_GIVEN_CONSUMER_CPU = 8, /* consumer_cpu */
	METER_GIVEN_CPU = 16,         /* cpu */
};

struct meter_opts {
	uint64_t expect_bytes, max_bytes, pipe_size; /* pipe_size 0: the kernel's */
	uint64_t chunk;                              /* the most one splice() moves */
	unsigned producer_cpu, consumer_cpu, cpu;
	char *consumer;       /* splice, read or pv */
	char *wait;           /* auto, spin or sleep: how the meter waits on an empty pipe */
	char *sink;           /* null or stdout */
	char *preload, *report; /* or NULL */
	uint64_t env_pad;     /* bytes of FLAGBENCH_LAYOUT_PAD in the program's environment (a layout, plan.h) */
	double timeout;       /* 0: never */
	int compute;
	unsigned given;       /* enum meter_given */
};

/* How the meter's own consumer (splice, read) waits while the pipe is
 * empty.  Sleeping in poll() makes every hand-off a wake-up of the
 * consumer's CPU; in a VM that is an interrupt through the hypervisor,
 * and on the 2-vCPU VM this project is built on it made yes/buf (write()
 * into a pipe, 0.05 s a run) vary 72 % between the lower and upper
 * quartile of 30 runs, where spinning gives 4 %, with fizzbuzz as steady
 * as before and up to 30 % faster: the figure is the producer's, not the
 * wake-ups'.  Spinning keeps the consumer's CPU busy, so auto spins only
 * where the consumer has a CPU of its own: both pinned, to different CPUs
 * this process may use, and the consumer's pin taken; never when the
 * bytes go to stdout (verification).  The report says which it did. */
enum meter_wait {
	METER_WAIT_AUTO,
	METER_WAIT_SLEEP,
	METER_WAIT_SPIN,
};
/* The word's wait (NULL: auto); -1 for a word that is none of them. */
int meter_wait_parse(const char *word);

/* Meters prog (NULL-terminated) as o says; returns an enum meter_exit. */
int meter_run(const struct meter_opts *o, char **prog);

struct strvec;
/* Pushes the program that meters a run: build/flagbench-meter beside this
 * binary when it is there, else this binary and "meter" (with a warning:
 * about 1 ms more per run). */
void meter_command(struct strvec *out);

#endif
