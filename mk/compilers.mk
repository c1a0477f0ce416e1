# mk/compilers.mk: compiler versions, flag sets and `flagbench explain` (issue 13).
# Globs and flag sets live in config.c/plan.c, PGO and .text sizes in build.c;
# explain.c attributes a speedup to single flags.
HARNESS_SRCS += harness/explain.c
UNIT_TESTS += tests/unit/test_explain.c
