# flagbench: the harness build, the tests, and rendering.
#   make            build/flagbench and build/flagbench-meter (what hyperfine times)
#   make test       unit tests (cmocka, under ASan/UBSan) and end-to-end tests (bats)
#   make plots [RUN=DIR]        render one run, or every run under results/
#   make publish RUNS="DIR..."  cross-machine tables and the public/ site
#   make clean
# Quiet unless V=1.

CC ?= cc
PKG_CONFIG ?= pkg-config
BUILD := build
PKGS := jansson nettle

ifeq ($(V),1)
Q :=
else
Q := @
endif

WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
# Stages at the top of harness/, their helpers in folders by kind.
HARNESS_INC := -Iharness -Iharness/core -Iharness/system -Iharness/checks -Iharness/tables
BASE_CFLAGS := -std=c11 $(WARN) -MMD -MP $(HARNESS_INC)
PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS = $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null || echo $(patsubst %,-l%,$(PKGS))) $(EXTRA_LIBS)
GIT_DESC := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
CFLAGS ?= -O2 -g
ALL_CFLAGS = $(BASE_CFLAGS) $(CFLAGS) $(PKG_CFLAGS) -DFLAGBENCH_GIT='"$(GIT_DESC)"'
SAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

# The harness: one .c/.h pair per stage (see each header for its protocol).
HARNESS_SRCS := \
	harness/core/util.c harness/core/sha256.c harness/core/runcmd.c harness/core/options.c harness/core/jsonpos.c \
	harness/config.c harness/plan.c harness/build.c harness/verify.c \
	harness/measure.c harness/meter.c harness/system/cooldown.c harness/core/stats.c \
	harness/system/sysinfo.c harness/results.c harness/run.c harness/system/counters.c \
	harness/checks/check.c harness/checks/check_yes.c
HARNESS_MAIN := harness/main.c
UNIT_TESTS := tests/unit/test_core.c tests/unit/test_runcmd.c
E2E_TESTS := $(wildcard tests/e2e/*.bats)

# Each feature area adds its sources and tests here.
-include $(sort $(wildcard mk/*.mk))

HARNESS_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(HARNESS_SRCS))
SAN_OBJS := $(patsubst %.c,$(BUILD)/san/%.o,$(HARNESS_SRCS))
UNIT_BINS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_TESTS))

.PHONY: all test unit e2e deps deps-test plots publish clean bench
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
# run (harness/meter.h).  Static and on musl where musl-gcc is installed:
# glibc's start-up (static or dynamic) asks the CPU its features with some
# thirty cpuid instructions, each a VM exit on a virtual machine, about
# 0.3 ms per run; musl's start-up makes a handful of system calls.
METER_SRCS := harness/meter_main.c harness/meter.c harness/core/runcmd.c harness/core/options.c harness/core/util.c
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

# Dependencies first, in a separate make, so pkg-config sees them.
test: deps-test
	$(Q)$(MAKE) --no-print-directory unit e2e

unit: $(UNIT_BINS) $(BUILD)/flagbench $(BUILD)/san/flagbench
	$(Q)scripts/run-unit-tests.sh $(UNIT_BINS)

e2e: $(BUILD)/flagbench $(BUILD)/flagbench-meter $(BUILD)/san/flagbench $(BUILD)/san/flagbench-meter
	$(Q)FLAGBENCH=$(CURDIR)/$(BUILD)/san/flagbench bats --print-output-on-failure tests/e2e

bench: $(BUILD)/flagbench $(BUILD)/flagbench-meter
	$(Q)for b in bench/*.sh; do echo "== $$b"; $$b || exit 1; done

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
