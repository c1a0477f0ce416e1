# mk/render.mk: the plots and pages laid out from the results model
# (harness/report/: `flagbench tables`).
#   make plots [RUN=DIR]          render one run folder, or every run under results/ with a results.json
#   make publish RUNS="DIR..." [PUBLIC=public]   cross-machine tables and a static site
# Rendering needs build/flagbench (the tables), jq (the pages) and gnuplot (the plots).
# Variables set on make's command line reach the recipes through the environment, so
# the scripts get RUN and PUBLIC as single arguments whatever characters they hold.

plots: $(BUILD)/flagbench
	$(Q)if [ -n "$${RUN:-}" ]; then \
		plots/render.sh "$$RUN"; \
	elif [ -d results ]; then \
		find results -mindepth 2 -name results.json -not -path '*/.*' \
			-exec sh -c 'rc=0; for f; do plots/render.sh "$${f%/results.json}" || rc=1; done; exit $$rc' sh {} +; \
	else \
		echo "flagbench: no results/ folder: nothing to render (make plots RUN=DIR renders one run)" >&2; \
	fi

publish: $(BUILD)/flagbench
	$(Q)if [ -z "$${RUNS:-}" ]; then echo 'flagbench: usage: make publish RUNS="DIR..." [PUBLIC=public]' >&2; exit 2; fi; \
	set -f; plots/publish.sh "$${PUBLIC:-public}" $$RUNS
