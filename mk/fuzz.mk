# mk/fuzz.mk: libFuzzer targets for the config loader and the run-folder readers
# (tests/fuzz/): clang with -fsanitize=fuzzer,address,undefined (Debian:
# clang and libclang-rt-14-dev, from scripts/deps.sh slow).  make fuzz-run
# runs each for FUZZ_SECONDS (60) from the seed corpus tests/fuzz/corpus;
# what it finds is kept in build/fuzz/ and becomes a file in
# tests/fuzz/regressions/, which tests/e2e/fuzz_regressions.bats replays.
# The fuzz build is clang's; the harness is clean under it too.
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := config results
FUZZ_CFLAGS := -std=c11 $(WARN) $(HARNESS_INC) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
.PHONY: fuzz fuzz-run
fuzz: $(patsubst %,$(BUILD)/fuzz/fuzz_%,$(FUZZ_TARGETS))

$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(HARNESS_SRCS)
	@mkdir -p $(dir $@)
	@echo "  CC[fuzz] $@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) $(PKG_CFLAGS) -DFLAGBENCH_GIT='"$(GIT_DESC)"' -o $@ $< $(HARNESS_SRCS) $(PKG_LIBS) -lm

fuzz-run: fuzz
	$(Q)for t in $(FUZZ_TARGETS); do \
		mkdir -p $(BUILD)/fuzz/corpus-$$t $(BUILD)/fuzz/found-$$t; \
		echo "== fuzz_$$t: $(FUZZ_SECONDS)s"; \
		$(BUILD)/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -close_fd_mask=3 -print_final_stats=1 \
			-artifact_prefix=$(BUILD)/fuzz/found-$$t/ $(BUILD)/fuzz/corpus-$$t tests/fuzz/corpus/$$t \
			tests/fuzz/regressions/$$t 2>&1 | grep -E '^(stat::number_of_executed_units|stat::peak_rss|==|SUMMARY|artifact_prefix|Test unit written)' ; \
		if ls $(BUILD)/fuzz/found-$$t/* >/dev/null 2>&1; then \
			echo "flagbench: fuzz_$$t found inputs that fail: $(BUILD)/fuzz/found-$$t/" >&2; exit 1; fi; \
	done
