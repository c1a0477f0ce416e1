/* meter.c: see meter.h */
#include "cmd/meter.h"

#include <stdlib.h>

#include "core/util.h"
#include "system/meter.h"

struct meter_args {
	struct meter_opts m;
	struct global_opts g;
};

#define MO(f) offsetof(struct meter_args, m.f)
/* Moving at most 256 KiB per splice() lets the producer refill the pipe
 * while the consumer drains: across CPUs in bench/meter.sh (yes/vmsplice
 * with 1 MiB chunks, 4 GB) 35 GiB/s against 22 with unbounded splices, on
 * one CPU 3 % less. */
static const struct option_def meter_options[] = {
	{ "expect-bytes", 0, OPT_SIZE, MO(expect_bytes), "BYTES", 0, 1e19, "fail unless exactly this many bytes arrive" },
	{ "max-bytes", 0, OPT_SIZE, MO(max_bytes), "BYTES", 1, 1e19, "stop reading after this many bytes (producers that never stop)" },
	{ "chunk", 0, OPT_SIZE, MO(chunk), "BYTES", 4096, 1e10, "the most one splice() moves (smaller hand-overs let both sides overlap)", "256K" },
	{ "pipe-size", 0, OPT_SIZE, MO(pipe_size), "BYTES", 4096, 1e10, "set the pipe's size (F_SETPIPE_SZ)" },
	{ "producer-cpu", 0, OPT_UINT, MO(producer_cpu), "CPU", 0, 4095, "pin the producer to this CPU" },
	{ "consumer-cpu", 0, OPT_UINT, MO(consumer_cpu), "CPU", 0, 4095, "pin the consumer (the meter or pv) to this CPU" },
	{ "cpu", 0, OPT_UINT, MO(cpu), "CPU", 0, 4095, "compute mode: pin the program to this CPU" },
	{ "consumer", 0, OPT_STRING, MO(consumer), "splice|read|pv", 0, 0, "how to drain the pipe", "splice" },
	{ "sink", 0, OPT_STRING, MO(sink), "null|stdout", 0, 0, "where the bytes go (null: /dev/null)", "null" },
	{ "preload", 0, OPT_STRING, MO(preload), "LIB", 0, 0, "LD_PRELOAD this library into the program (allocators)" },
	{ "env-pad", 0, OPT_SIZE, MO(env_pad), "BYTES", 0, 65536, "add an environment variable of BYTES bytes for the program (a layout: it moves the stack)" },
	{ "report", 0, OPT_STRING, MO(report), "FILE", 0, 0, "append one JSON line per run to FILE" },
	{ "timeout", 0, OPT_DOUBLE, MO(timeout), "SECONDS", 0, 1e6, "kill the program after this long (0: never)", "0" },
	{ "compute", 0, OPT_FLAG, MO(compute), NULL, 0, 0, "compute mode: no pipe, output to /dev/null" },
	OPTION_GROUP(options_global, struct meter_args, g),
	{ NULL, 0, 0, 0, NULL, 0, 0, NULL },
};

const struct command_def cmd_meter_def = {
	"meter", "-- PROGRAM [ARGS...]", "the pipe consumer hyperfine times (splice, read or pv)",
	meter_options, 1, -1, OPTIONS_FIRST, NULL,
};

int cmd_meter(int argc, char **argv)
{
	static const struct {
		const char *name;
		enum meter_given bit;
	} optional[] = {
		{ "expect-bytes", METER_GIVEN_EXPECT },         { "max-bytes", METER_GIVEN_MAX },
		{ "producer-cpu", METER_GIVEN_PRODUCER_CPU }, { "consumer-cpu", METER_GIVEN_CONSUMER_CPU },
		{ "cpu", METER_GIVEN_CPU },
	};
	struct meter_args a = { 0 };
	unsigned char given[OPTIONS_MAX] = { 0 };
	/* the program's words, NULL-terminated for exec */
	char **prog = xcalloc((size_t)argc + 1, sizeof(*prog));
	int np = 0;
	enum parse_status st = command_parse(&cmd_meter_def, &a, given, argc, argv, prog, &np);
	int rc = parse_exit(st);
	if (st == PARSE_OK) {
		for (size_t i = 0; i < sizeof(optional) / sizeof(optional[0]); i++)
			if (option_given(meter_options, given, optional[i].name))
				a.m.given |= optional[i].bit;
		rc = meter_run(&a.m, prog);
	}
	free(prog);
	free(a.m.consumer);
	free(a.m.sink);
	free(a.m.preload);
	free(a.m.report);
	return rc;
}
