/* run.c: see run.h */
#include "cmd/run.h"

#include "analysis/undecided.h"
#include "driver/run.h"
#include "report/model.h"
#include "report/progress.h"

/* The driver reports through the tables' own texts (report/), and spends
 * runs where an answer is still open (analysis/). */
static const struct run_view run_view_tables = {
	.cell_figure = format_cell_value,
	.summary = tables_print_run,
	.undecided = answers_undecided,
};

int cmd_run(int argc, char **argv)
{
	return run_main(argc, argv, &run_view_tables);
}
