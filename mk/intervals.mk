# Intervals of the median and of speedups (harness/core/stats.c): their
# coverage, measured on skewed samples, is a unit test.
UNIT_TESTS += tests/unit/test_stats.c
