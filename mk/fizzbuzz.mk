# mk/fizzbuzz.mk: the FizzBuzz family (issue 3).
# The checker (`flagbench check fizzbuzz N [START]`) and its unit test; the
# variants are built by the harness and by tests/e2e/fizzbuzz_variants.bats.

HARNESS_SRCS += harness/checks/check_fizzbuzz.c
UNIT_TESTS += tests/unit/test_check_fizzbuzz.c
