# mk/lint-tests.mk: scripts/lint-tests.sh names the assertions of the bats
# tests that cannot fail (&& lists, pgrep patterns ending in $, a bare ! cmd, a jq all
# with no count before it, -z "$(find ...)", a run with no status check);
# make test runs it through tests/e2e/lint_tests.bats.
.PHONY: lint-tests
lint-tests:
	$(Q)scripts/lint-tests.sh
