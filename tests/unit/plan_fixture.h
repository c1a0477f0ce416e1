/* plan_fixture.h: a suite, a profile and every family, loaded for a unit
 * test that builds a plan (test_core, test_results), and freed again.
 *
 * Header-only (static functions): the Makefile builds each tests/unit/X.c as
 * its own program.  #include <cmocka.h> (and its prerequisites) and the
 * harness headers of config/ and pipeline/ first.  has_cpu_flag and
 * probe_march stand for the host (plan.h's plan_input): a test chooses what
 * the machine has.
 */
#ifndef PLAN_FIXTURE_H
#define PLAN_FIXTURE_H

#ifndef assert_int_equal
#error "#include <cmocka.h> before \"plan_fixture.h\""
#endif

struct plan_fixture {
	struct suite s;
	struct cpu_profile p;
	struct family *fams;
	int nf;
	struct plan_input in;
};

static void fixture_load(struct plan_fixture *fx, const char *suite, const char *profile,
			 int (*has_cpu_flag)(const char *flag),
			 int (*probe_march)(struct compiler *c, const char *march, char *why, size_t n))
{
	memset(fx, 0, sizeof(*fx));
	assert_int_equal(load_suite(suite, &fx->s), 0);
	assert_int_equal(load_cpu_profile(profile, &fx->p), 0);
	fx->nf = load_all_families(&fx->fams);
	assert_true(fx->nf >= 1);
	struct plan_input in = { .suite = &fx->s, .profile = &fx->p, .families = fx->fams,
				 .nfamilies = (size_t)fx->nf, .has_cpu_flag = has_cpu_flag, .probe_march = probe_march };
	fx->in = in;
}

static void fixture_free(struct plan_fixture *fx)
{
	for (int i = 0; i < fx->nf; i++)
		free_family(&fx->fams[i]);
	free(fx->fams);
	free_suite(&fx->s);
	free_cpu_profile(&fx->p);
}

#endif
