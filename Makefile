# flagbench: the harness build, the tests, and rendering.
#   make            build/flagbench and build/flagbench-meter (what hyperfine times)
#   make test       unit tests (cmocka, under ASan/UBSan) and end-to-end tests (bats): the fast tier
#   make test-slow  the slow tier: seed-sized runs, every build, every signal x phase, fuzzing
#   make plots [RUN=DIR]        render one run, or every run under results/
#   make publish RUNS="DIR..."  cross-machine tables and the public/ site
#   make install [PREFIX=~/.local]  flagbench and flagbench-meter on PATH (PREFIX/bin)
#   make clean
# Quiet unless V=1.

CC ?= cc
PKG_CONFIG ?= pkg-config
BUILD := build
# jansson (JSON), nettle (sha256), gsl (the Student t quantiles of
# compare --confirm), sqlite3 (the nightly history, results/history.h),
# hwloc (the cpu topology, system/topology.h);
# build/flagbench-meter links none of them.
PKGS := jansson nettle gsl sqlite3 hwloc

ifeq ($(V),1)
Q :=
else
Q := @
endif

WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
# One include root: every include names its layer ("pipeline/plan.h"), so
# a path says what it may include (docs/architecture.md, scripts/check-layers.sh).
HARNESS_INC := -Iharness
BASE_CFLAGS := -std=c11 $(WARN) -MMD -MP $(HARNESS_INC)
PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS = $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null || echo $(patsubst %,-l%,$(PKGS))) $(EXTRA_LIBS)
GIT_DESC := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
CFLAGS ?= -O2 -g
ALL_CFLAGS = $(BASE_CFLAGS) $(CFLAGS) $(PKG_CFLAGS) -DFLAGBENCH_GIT='"$(GIT_DESC)"'
SAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

# The harness by layer, lowest first; a folder includes only the folders
# before it (docs/architecture.md).  One .c/.h pair per stage or command.
LAYERS := core system checks config pipeline results analysis driver report cmd
HARNESS_SRCS := $(foreach l,$(LAYERS),$(sort $(wildcard harness/$(l)/*.c)))
HARNESS_MAIN := harness/main.c
UNIT_TESTS := $(sort $(wildcard tests/unit/test_*.c))
E2E_TESTS := $(wildcard tests/e2e/*.bats)

# Package checks, rendering, workflow lint and fuzzing: one fragment each.
-include $(sort $(wildcard mk/*.mk))

HARNESS_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(HARNESS_SRCS))
SAN_OBJS := $(patsubst %.c,$(BUILD)/san/%.o,$(HARNESS_SRCS))
UNIT_BINS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_TESTS))

.PHONY: all test test-slow test-builds check-layers unit e2e deps deps-test deps-slow plots publish clean bench install
.DEFAULT_GOAL := all
all: $(BUILD)/flagbench $(BUILD)/flagbench-meter

$(BUILD)/flagbench: $(HARNESS_OBJS) $(BUILD)/obj/$(HARNESS_MAIN:.c=.o)
	@echo "  LD      $@"
	$(Q)$(CC) $(CFLAGS) -o $@ $^ $(PKG_LIBS) -lm

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/san/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC[san] $<"
	$(Q)$(CC) $(BASE_CFLAGS) $(SAN_FLAGS) $(PKG_CFLAGS) -DFLAGBENCH_GIT='"$(GIT_DESC)"' -c -o $@ $<

# build/flagbench-meter: the meter alone, what hyperfine runs on every timed
# run (harness/system/meter.h).  Static and on musl where musl-gcc is installed:
# glibc's start-up (static or dynamic) asks the CPU its features with some
# thirty cpuid instructions, each a VM exit on a virtual machine, about
# 0.3 ms per run; musl's start-up makes a handful of system calls.
METER_SRCS := harness/meter_main.c harness/cmd/meter.c harness/system/meter.c harness/core/runcmd.c harness/core/options.c harness/core/util.c
METER_CC ?= $(shell command -v musl-gcc 2>/dev/null || echo $(CC))
$(BUILD)/meter/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC[met] $<"
	$(Q)$(METER_CC) $(BASE_CFLAGS) $(CFLAGS) -c -o $@ $<

$(BUILD)/flagbench-meter: $(patsubst %.c,$(BUILD)/meter/%.o,$(METER_SRCS))
	@echo "  LD      $@"
	$(Q)$(METER_CC) $(CFLAGS) -static -o $@ $^ -lm

# The same under ASan/UBSan (dynamic), beside build/san/flagbench for the
# end-to-end tests.
$(BUILD)/san/flagbench-meter: $(patsubst %.c,$(BUILD)/san/%.o,$(METER_SRCS))
	@echo "  LD[san] $@"
	$(Q)$(CC) $(SAN_FLAGS) -o $@ $^ -lm

# The harness under ASan/UBSan, used by the end-to-end tests.
$(BUILD)/san/flagbench: $(SAN_OBJS) $(BUILD)/san/$(HARNESS_MAIN:.c=.o)
	@echo "  LD[san] $@"
	$(Q)$(CC) $(SAN_FLAGS) -o $@ $^ $(PKG_LIBS) -lm

$(BUILD)/tests/%: tests/unit/%.c $(SAN_OBJS)
	@mkdir -p $(dir $@)
	@echo "  CC[test] $<"
	$(Q)$(CC) $(BASE_CFLAGS) $(SAN_FLAGS) $(PKG_CFLAGS) -o $@ $< $(SAN_OBJS) \
		$(PKG_LIBS) $$($(PKG_CONFIG) --libs cmocka 2>/dev/null || echo -lcmocka) -lm

deps:
	$(Q)scripts/deps.sh run
deps-test:
	$(Q)scripts/deps.sh test
deps-slow:
	$(Q)scripts/deps.sh slow

# The fast tier (make test, CI on every push: at most 3 minutes on a 2-core
# VM) and the slow tier (make test-slow, nightly: seed-sized runs, every
# build of every variant, every signal in every phase, the fuzzers).
# Which tier a test is in:
#   tests/e2e/*.bats    both tiers; make test-slow sets FLAGBENCH_TIER=slow and a
#                       file that has a wider matrix asks slow_tier (helpers.bash)
#   tests/slow/*.bats   make test-slow only: a test too slow for the fast tier
#                       moves there, into a file named after its e2e file, which
#                       loads ../e2e/helpers (no tag to forget: the folder decides)
# Real runs in the fast tier take --precision 0 (the suite's runs) unless the
# test is about precision: the default target adds 13 runs or more a cell.
# Dependencies first, in a separate make, so pkg-config sees them; then the
# builds in parallel, beside the layer check; then the tests (bats files a
# few at a time, beside the unit tests).
NPROC := $(shell nproc 2>/dev/null || echo 2)
# the longest files first, so the parallel e2e run ends together
E2E_FIRST := tests/e2e/render.bats tests/e2e/faults.bats tests/e2e/tune.bats tests/e2e/tune_explain.bats tests/e2e/render_site.bats tests/e2e/session.bats \
	tests/e2e/compare.bats tests/e2e/core.bats tests/e2e/fizzbuzz_variants.bats tests/e2e/compute_variants.bats
E2E_ORDER = $(filter $(E2E_TESTS),$(E2E_FIRST)) $(filter-out $(E2E_FIRST),$(E2E_TESTS))
# The fast tier runs the end-to-end files on the plain build, but for these,
# which reach every command's input handling, error paths and journals in
# little CPU: they run on the ASan/UBSan build (as the unit tests do).  An
# ASan start costs about 80 ms of CPU: 1862 of them were a third of the
# fast tier's 773 CPU seconds (process accounting, make test of ed397a8).
# The slow tier runs every file on the ASan/UBSan build.
E2E_SAN := tests/e2e/usage.bats tests/e2e/hostile.bats tests/e2e/fuzz_regressions.bats tests/e2e/results_reader.bats \
	tests/e2e/resume.bats tests/e2e/shard.bats tests/e2e/matrix.bats tests/e2e/compare_machine.bats tests/e2e/evidence.bats \
	tests/e2e/try.bats tests/e2e/explain.bats tests/e2e/handoff_states.bats tests/e2e/same_as_baseline.bats tests/e2e/progress.bats
E2E_ENV = FLAGBENCH=$(CURDIR)/$(BUILD)/flagbench FLAGBENCH_PLAIN=$(CURDIR)/$(BUILD)/flagbench \
	FLAGBENCH_SAN=$(CURDIR)/$(BUILD)/san/flagbench E2E_SAN="$(E2E_SAN)"
E2E_ENV_SLOW = FLAGBENCH=$(CURDIR)/$(BUILD)/san/flagbench FLAGBENCH_PLAIN=$(CURDIR)/$(BUILD)/flagbench

test: deps-test
	$(Q)$(MAKE) --no-print-directory -j$(NPROC) check-layers test-builds
	$(Q)$(MAKE) --no-print-directory -j2 --output-sync=target unit e2e

test-slow: deps-slow
	$(Q)$(MAKE) --no-print-directory -j$(NPROC) test-builds
	$(Q)$(MAKE) --no-print-directory unit
	$(Q)$(E2E_ENV_SLOW) FLAGBENCH_TIER=slow SMOKE=smoke SMOKE_RUNS=5 scripts/run-e2e.sh $(E2E_ORDER) $(wildcard tests/slow/*.bats)
	$(Q)$(MAKE) --no-print-directory fuzz-run

# the harness's includes point down its layers (scripts/check-layers.sh):
# seconds of its own, so make test runs it beside the builds
check-layers:
	$(Q)scripts/check-layers.sh

test-builds: $(UNIT_BINS) $(BUILD)/flagbench $(BUILD)/flagbench-meter $(BUILD)/san/flagbench $(BUILD)/san/flagbench-meter

unit: $(UNIT_BINS) $(BUILD)/flagbench $(BUILD)/san/flagbench
	$(Q)scripts/run-unit-tests.sh $(UNIT_BINS)

e2e: $(BUILD)/flagbench $(BUILD)/flagbench-meter $(BUILD)/san/flagbench $(BUILD)/san/flagbench-meter
	$(Q)$(E2E_ENV) scripts/run-e2e.sh $(E2E_ORDER)

bench: $(BUILD)/flagbench $(BUILD)/flagbench-meter
	$(Q)for b in bench/*.sh; do echo "== $$b"; $$b || exit 1; done

# PREFIX/bin gets links to build/flagbench and build/flagbench-meter, not
# copies: flagbench finds its project (configs/, variants/, plots/, and
# results/ to write) from its own path (core/util.c project_root), and the
# meter beside it (system/meter.c), so a link keeps both in this checkout
# and a rebuild updates them.  FLAGBENCH_ROOT still overrides the project.
PREFIX ?= $(HOME)/.local
install: $(BUILD)/flagbench $(BUILD)/flagbench-meter
	$(Q)mkdir -p $(DESTDIR)$(PREFIX)/bin
	$(Q)for b in flagbench flagbench-meter; do ln -sfn $(CURDIR)/$(BUILD)/$$b $(DESTDIR)$(PREFIX)/bin/$$b || exit 1; done
	@echo "  installed $(DESTDIR)$(PREFIX)/bin/flagbench (a link into $(CURDIR)/$(BUILD))"
	@case ":$$PATH:" in *":$(PREFIX)/bin:"*) ;; *) echo "  $(PREFIX)/bin is not on PATH: export PATH=\"$(PREFIX)/bin:\$$PATH\"";; esac

clean:
	rm -rf $(BUILD)

# the compilers' dependency files: plain files only, and none of the unpacked
# Debian sources (sqlite3's tree has a folder www/search.d)
-include $(shell find $(BUILD) -path $(BUILD)/sources -prune -o -name '*.d' -type f -print 2>/dev/null)
