# mk/compute.mk: the compute families (issue 6): chacha20 and bignum.
# Their checkers recompute the expected output: chacha20 with a reference
# ChaCha20 (harness/checks/chacha20_ref.c), bignum with GMP (harness/checks/bignum_ref.c).
# harness/system/allocators.c finds the malloc libraries a suite preloads.

HARNESS_SRCS += harness/checks/chacha20_ref.c harness/checks/check_chacha20.c \
	harness/checks/bignum_ref.c harness/checks/check_bignum.c harness/system/allocators.c
UNIT_TESTS += tests/unit/test_chacha20.c tests/unit/test_bignum.c

# GMP for the bignum checker: through pkg-config where it knows gmp
# (Debian 12 ships gmp.pc), else plainly.
ifeq ($(shell $(PKG_CONFIG) --exists gmp 2>/dev/null && echo yes),yes)
PKGS += gmp
else
EXTRA_LIBS += -lgmp
endif
