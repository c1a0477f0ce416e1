/* check_json.h: the checks a family declares in family.json (no C).
 *
 *   "check": {"same_as": "VARIANT"}   the output equals VARIANT's, built with
 *       the run's first configuration: both programs run side by side and
 *       their streams are compared chunk by chunk (nothing of size N is
 *       stored); a difference names its first byte offset and line.
 *   "check": {"sha256": {"N": "HEX"}} the output's SHA-256 for size N.
 *   "check": {"command": ["./check.sh", "{N}"]}  the output on the
 *       command's stdin (argv, no shell, the verify timeout); exit 0 means
 *       right, else the first line of its stderr is the reason.
 *   "check": "none"                   read and accepted; the cells are
 *       marked unchecked (results.json "verification": "unchecked").
 *
 * check_json_reference() finds a same_as family's reference among a
 * built plan's cells (session.h builds one where the plan has none).
 * check_json_run() is called by the verify
 * stage in place of a built-in checker, on the program's stdout pipe
 * (read with check_read(), so the deadline holds).
 */
#ifndef FLAGBENCH_CHECK_JSON_H
#define FLAGBENCH_CHECK_JSON_H

#include "checks/check.h"
#include "pipeline/plan.h"

/* The index of the plan's first built cell of f's same_as variant, or -1. */
int check_json_reference(const struct plan *p, const struct family *f);
enum check_status check_json_run(const struct cell *c, int fd, double deadline, struct check_report *rep);

#endif
