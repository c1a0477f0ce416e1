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
	{ .name = "expect-bytes", .type = OPT_SIZE, .offset = MO(expect_bytes), .metavar = "BYTES", .max = 1e19, .help = "fail unless exactly this many bytes arrive" },
	{ .name = "max-bytes", .type = OPT_SIZE, .offset = MO(max_bytes), .metavar = "BYTES", .min = 1, .max = 1e19, .help = "stop reading after this many bytes (producers that never stop)" },
	{ .name = "chunk", .type = OPT_SIZE, .offset = MO(chunk), .metavar = "BYTES", .min = 4096, .max = 1e10, .help = "the most one splice() moves (smaller hand-overs let both sides overlap)", .def = "256K" },
	{ .name = "pipe-size", .type = OPT_SIZE, .offset = MO(pipe_size), .metavar = "BYTES", .min = 4096, .max = 1e10, .help = "set the pipe's size (F_SETPIPE_SZ)" },
	{ .name = "producer-cpu", .type = OPT_UINT, .offset = MO(producer_cpu), .metavar = "CPU", .max = 4095, .help = "pin the producer to this CPU" },
	{ .name = "consumer-cpu", .type = OPT_UINT, .offset = MO(consumer_cpu), .metavar = "CPU", .max = 4095, .help = "pin the consumer (the meter or pv) to this CPU" },
	{ .name = "cpu", .type = OPT_UINT, .offset = MO(cpu), .metavar = "CPU", .max = 4095, .help = "compute mode: pin the program to this CPU" },
	{ .name = "consumer", .type = OPT_STRING, .offset = MO(consumer), .metavar = "splice|read|pv", .help = "how to drain the pipe", .def = "splice" },
	{ .name = "wait", .type = OPT_STRING, .offset = MO(wait), .metavar = "auto|spin|sleep", .help = "how the consumer waits on an empty pipe (auto: spin where it has a CPU of its own)", .def = "auto" },
	{ .name = "sink", .type = OPT_STRING, .offset = MO(sink), .metavar = "null|stdout", .help = "where the bytes go (null: /dev/null)", .def = "null" },
	{ .name = "preload", .type = OPT_STRING, .offset = MO(preload), .metavar = "LIB", .help = "LD_PRELOAD this library into the program (allocators)" },
	{ .name = "env-pad", .type = OPT_SIZE, .offset = MO(env_pad), .metavar = "BYTES", .max = 65536, .help = "add an environment variable of BYTES bytes for the program (a layout: it moves the stack)" },
	{ .name = "report", .type = OPT_STRING, .offset = MO(report), .metavar = "FILE", .help = "append one JSON line per run to FILE" },
	{ .name = "timeout", .type = OPT_DOUBLE, .offset = MO(timeout), .metavar = "SECONDS", .max = 1e6, .help = "kill the program after this long (0: never)", .def = "0" },
	{ .name = "compute", .type = OPT_FLAG, .offset = MO(compute), .help = "compute mode: no pipe, output to /dev/null" },
	OPTION_GROUP(options_global, struct meter_args, g),
	{ .name = NULL },
};

const struct command_def cmd_meter_def = {
	.name = "meter",
	.synopsis = "-- PROGRAM [ARGS...]",
	.summary = "the pipe consumer hyperfine times (splice, read or pv)",
	.options = meter_options,
	.min_pos = 1,
	.max_pos = -1,
	.order = OPTIONS_FIRST,
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
