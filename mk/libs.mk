# mk/libs.mk: libraries found at build time.
# GMP for the bignum checker (harness/checks/bignum_ref.c): through
# pkg-config where it knows gmp (Debian 12 ships gmp.pc), else plainly.
ifeq ($(shell $(PKG_CONFIG) --exists gmp 2>/dev/null && echo yes),yes)
PKGS += gmp
else
EXTRA_LIBS += -lgmp
endif
