# mk/comparison.mk: the one comparison primitive (harness/analysis/comparison.c):
# is B faster than A, by pairs, layouts or the bootstrap, and which of many leads are real.
HARNESS_SRCS += harness/analysis/comparison.c
UNIT_TESTS += tests/unit/test_comparison.c
