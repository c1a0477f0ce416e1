/* tune_space_dims.c: see tune_space_dims.h */
#include "pipeline/tune_space_dims.h"

#include <string.h>

/* ---- what is left out, and why ---- */

struct exclusion {
	char kind;       /* 'f': -f flags (on/off and =choice), 'p': --param */
	const char *name;
	int prefix;      /* name is a prefix: stack-protector covers -all, -strong ... */
	const char *why;
};

static const struct exclusion exclusions[] = {
	/* floating point and overflow semantics: a faster build that prints
	 * other numbers is no win */
	{ 'f', "fast-math", 0, WHY_RESULTS },
	{ 'f', "unsafe-math-optimizations", 0, WHY_RESULTS },
	{ 'f', "finite-math-only", 0, WHY_RESULTS },
	{ 'f', "trapping-math", 0, WHY_RESULTS },
	{ 'f', "associative-math", 0, WHY_RESULTS },
	{ 'f', "reciprocal-math", 0, WHY_RESULTS },
	{ 'f', "signed-zeros", 0, WHY_RESULTS },
	{ 'f', "math-errno", 0, WHY_RESULTS },
	{ 'f', "rounding-math", 0, WHY_RESULTS },
	{ 'f', "signaling-nans", 0, WHY_RESULTS },
	{ 'f', "cx-limited-range", 0, WHY_RESULTS },
	{ 'f', "cx-fortran-rules", 0, WHY_RESULTS },
	{ 'f', "excess-precision", 0, WHY_RESULTS },
	{ 'f', "single-precision-constant", 0, WHY_RESULTS },
	{ 'f', "fp-contract", 0, WHY_RESULTS },
	{ 'f', "float-store", 0, WHY_RESULTS },
	{ 'f', "fp-int-builtin-inexact", 0, WHY_RESULTS },
	{ 'f', "honor-nans", 0, WHY_RESULTS },
	{ 'f', "honor-infinities", 0, WHY_RESULTS },
	{ 'f', "approx-func", 0, WHY_RESULTS },
	{ 'f', "protect-parens", 0, WHY_RESULTS },
	{ 'f', "strict-float-cast-overflow", 0, WHY_RESULTS },
	{ 'f', "wrapv", 0, WHY_RESULTS },
	{ 'f', "wrapv-pointer", 0, WHY_RESULTS },
	{ 'f', "trapv", 0, WHY_RESULTS },
	{ 'f', "strict-overflow", 0, WHY_RESULTS },
	/* assumptions about the program that a correct C program may break
	 * (aliasing through casts, null objects, endless loops, races) */
	{ 'f', "allow-store-data-races", 0, WHY_RESULTS },
	{ 'f', "delete-null-pointer-checks", 0, WHY_RESULTS },
	{ 'f', "strict-aliasing", 0, WHY_RESULTS },
	{ 'f', "ipa-strict-aliasing", 0, WHY_RESULTS },
	{ 'f', "isolate-erroneous-paths-attribute", 0, WHY_RESULTS },
	{ 'f', "finite-loops", 0, WHY_RESULTS },
	{ 'f', "unsafe-loop-optimizations", 0, WHY_RESULTS },
	{ 'f', "sched-spec-load-dangerous", 0, WHY_RESULTS },
	/* C wants distinct objects at distinct addresses */
	{ 'f', "merge-all-constants", 0, WHY_RESULTS },

	{ 'f', "short-enums", 0, WHY_ABI },
	{ 'f', "short-wchar", 0, WHY_ABI },
	{ 'f', "pack-struct", 0, WHY_ABI },
	{ 'f', "pcc-struct-return", 0, WHY_ABI },
	{ 'f', "reg-struct-return", 0, WHY_ABI },
	{ 'f', "leading-underscore", 0, WHY_ABI },
	{ 'f', "common", 0, WHY_ABI },
	{ 'f', "exceptions", 0, WHY_ABI },
	{ 'f', "non-call-exceptions", 0, WHY_ABI },
	{ 'f', "unwind-tables", 0, WHY_ABI },
	{ 'f', "asynchronous-unwind-tables", 0, WHY_ABI },
	{ 'f', "strict-volatile-bitfields", 0, WHY_ABI },

	{ 'f', "stack-protector", 1, WHY_INSTRUMENTS },
	{ 'f', "stack-check", 0, WHY_INSTRUMENTS },
	{ 'f', "stack-clash-protection", 0, WHY_INSTRUMENTS },
	{ 'f', "trivial-auto-var-init", 0, WHY_INSTRUMENTS },
	{ 'f', "cf-protection", 0, WHY_INSTRUMENTS },
	{ 'f', "harden-", 1, WHY_INSTRUMENTS },
	{ 'f', "sanitize", 1, WHY_INSTRUMENTS },
	{ 'f', "instrument", 1, WHY_INSTRUMENTS },
	{ 'f', "live-patching", 0, WHY_INSTRUMENTS },
	{ 'f', "split-stack", 0, WHY_INSTRUMENTS },
	{ 'f', "trampolines", 0, WHY_INSTRUMENTS },
	{ 'f', "patchable-function-entry", 0, WHY_INSTRUMENTS },

	{ 'f', "profile", 1, WHY_PROFILE },
	{ 'f', "auto-profile", 0, WHY_PROFILE },
	{ 'f', "branch-probabilities", 0, WHY_PROFILE },
	{ 'f', "vpt", 0, WHY_PROFILE },

	{ 'f', "var-tracking", 1, WHY_DEBUG },
	{ 'f', "opt-info", 0, WHY_DEBUG },
	{ 'f', "save-optimization-record", 0, WHY_DEBUG },

	/* C++, Objective-C, Fortran and garbage-collected languages only */
	{ 'f', "devirtualize", 1, WHY_NOT_C },
	{ 'f', "nothrow-opt", 0, WHY_NOT_C },
	{ 'f', "threadsafe-statics", 0, WHY_NOT_C },
	{ 'f', "rtti", 0, WHY_NOT_C },
	{ 'f', "fold-simple-inlines", 0, WHY_NOT_C },
	{ 'f', "strict-enums", 0, WHY_NOT_C },
	{ 'f', "delete-dead-exceptions", 0, WHY_NOT_C },
	{ 'f', "handle-exceptions", 0, WHY_NOT_C },
	{ 'f', "unconstrained-commons", 0, WHY_NOT_C },
	{ 'f', "keep-gc-roots-live", 0, WHY_NOT_C },

	{ 'p', "analyzer-", 1, WHY_NOT_C },
	{ 'p', "lto-", 1, WHY_NOT_C },
	{ 'p', "ggc-", 1, WHY_NOT_C },
	{ 'p', "cxx-", 1, WHY_NOT_C },
	{ 'p', "openacc-", 1, WHY_NOT_C },
	{ 'p', "parloops-", 1, WHY_NOT_C },
	{ 'p', "lazy-modules", 0, WHY_NOT_C },
	{ 'p', "use-canonical-types", 0, WHY_NOT_C },
	{ 'p', "constructive-interference-size", 0, WHY_NOT_C },
	{ 'p', "destructive-interference-size", 0, WHY_NOT_C },
	{ 'p', "tm-max-aggregate-size", 0, WHY_NOT_C },
	{ 'p', "hash-table-verification-limit", 0, WHY_NOT_C },
	{ 'p', "gimple-fe-computed-hot-bb-threshold", 0, WHY_NOT_C },
	{ 'p', "graphite-allow-codegen-errors", 0, WHY_NOT_C },
	{ 'p', "integer-share-limit", 0, WHY_NOT_C },
	{ 'p', "asan-", 1, WHY_INSTRUMENTS },
	{ 'p', "hwasan-", 1, WHY_INSTRUMENTS },
	{ 'p', "tsan-", 1, WHY_INSTRUMENTS },
	{ 'p', "ssp-buffer-size", 0, WHY_INSTRUMENTS },
	{ 'p', "stack-clash-protection-", 1, WHY_INSTRUMENTS },
	{ 'p', "use-after-scope-direct-emission-threshold", 0, WHY_INSTRUMENTS },
	{ 'p', "profile-func-internal-id", 0, WHY_PROFILE },
	{ 'p', "tracer-dynamic-coverage-feedback", 0, WHY_PROFILE },
	{ 'p', "tracer-min-branch-probability-feedback", 0, WHY_PROFILE },
	{ 'p', "hot-bb-count-ws-permille", 0, WHY_PROFILE },
	{ 'p', "ipa-cp-profile-count-base", 0, WHY_PROFILE },
	{ 'p', "max-vartrack-", 1, WHY_DEBUG },
	{ 'p', "max-debug-marker-count", 0, WHY_DEBUG },
	{ 'p', "min-nondebug-insn-uid", 0, WHY_DEBUG },
	{ 'p', "uninit-control-dep-attempts", 0, WHY_DEBUG },
	{ 'p', "min-pagesize", 0, WHY_DEBUG },
	{ 'p', "ranger-debug", 0, WHY_DEBUG },
	{ 'p', "threader-debug", 0, WHY_DEBUG },
};

const char *tune_space_excluded(enum tune_dim_kind kind, const char *name, int *unsafe)
{
	if (unsafe)
		*unsafe = 0;
	/* the -mllvm options are an allowlist already */
	if (kind == TUNE_DIM_MLLVM || kind == TUNE_DIM_OPT)
		return NULL;
	char want = kind == TUNE_DIM_PARAM ? 'p' : 'f';
	for (size_t i = 0; i < sizeof(exclusions) / sizeof(exclusions[0]); i++) {
		const struct exclusion *e = &exclusions[i];
		if (e->kind != want)
			continue;
		if (e->prefix ? strncmp(name, e->name, strlen(e->name)) : strcmp(name, e->name))
			continue;
		if (unsafe)
			*unsafe = !strcmp(e->why, WHY_RESULTS);
		return e->why;
	}
	return NULL;
}
