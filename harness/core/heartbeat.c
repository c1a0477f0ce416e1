/* heartbeat.c: see heartbeat.h */
#define _GNU_SOURCE
#include "core/heartbeat.h"

#include <pthread.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>

#include "core/util.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t once = PTHREAD_ONCE_INIT;
/* steps nest (a count within the timing): the innermost is said */
#define DEPTH 4
static char stack[DEPTH][512];
static double since_at[DEPTH];
static int depth;
static double last_line;
static double every = HEARTBEAT_S;
static FILE *sink;
static int sink_set;

static void *beat(void *arg)
{
	(void)arg;
	for (;;) {
		struct timespec ts = { 0, 50 * 1000 * 1000 };
		nanosleep(&ts, NULL);
		pthread_mutex_lock(&lock);
		double now = now_monotonic();
		FILE *out = sink_set ? sink : stderr;
		int top = depth > DEPTH ? DEPTH - 1 : depth - 1;
		/* a step is said once it has run that long itself: a line printed
		 * elsewhere (a stage that does not tell the heartbeat) is not silence */
		if (depth > 0 && out && now - last_line >= every && now - since_at[top] >= every) {
			char d[32];
			format_duration(now - since_at[top], d, sizeof(d));
			fprintf(out, "flagbench: %s: %s so far\n", stack[top], d);
			fflush(out);
			last_line = now;
		}
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

static void start(void)
{
	pthread_t t;
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&t, &a, beat, NULL) != 0)
		warning("no heartbeat thread: long steps print nothing while they run");
	pthread_attr_destroy(&a);
}

void heartbeat_begin(const char *fmt, ...)
{
	pthread_once(&once, start);
	pthread_mutex_lock(&lock);
	int top = depth < DEPTH ? depth : DEPTH - 1;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(stack[top], sizeof(stack[top]), fmt, ap);
	va_end(ap);
	since_at[top] = now_monotonic();
	depth++;
	/* a step begun is no line printed: the silence goes on */
	if (last_line == 0)
		last_line = since_at[top];
	pthread_mutex_unlock(&lock);
}

void heartbeat_end(void)
{
	pthread_mutex_lock(&lock);
	if (depth > 0)
		depth--;
	pthread_mutex_unlock(&lock);
}

void heartbeat_spoke(void)
{
	pthread_mutex_lock(&lock);
	last_line = now_monotonic();
	pthread_mutex_unlock(&lock);
}

void heartbeat_to(FILE *out)
{
	pthread_mutex_lock(&lock);
	sink = out;
	sink_set = 1;
	pthread_mutex_unlock(&lock);
}

void heartbeat_every(double seconds)
{
	pthread_mutex_lock(&lock);
	every = seconds;
	pthread_mutex_unlock(&lock);
}
