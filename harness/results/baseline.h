/* baseline.h: stored baselines, one per cpu profile and name.
 *
 * `flagbench baseline save RUN [--dir D] [--name NAME]` copies the run's
 * results.json and the binaries it measured (RUN/bin, pipeline/store.h) into
 * D/<cpu profile>/<NAME>/ (D: the project's baselines/, NAME: latest).
 * The new baseline is assembled in a temporary folder beside and renamed
 * into place, so a reader sees the old baseline or the new one, whole.
 * `flagbench compare --baseline NAME NEW` reads D/<NEW's profile>/<NAME>:
 * each machine is compared with its own past, and --confirm can measure
 * the baseline's binaries again beside the new ones.
 * An interrupted run is refused (exit 2): its cells are incomplete.
 */
#ifndef FLAGBENCH_BASELINE_H
#define FLAGBENCH_BASELINE_H

/* The folder of baseline NAME of a profile (allocated); dir NULL means
 * the project's baselines/. */
char *baseline_path(const char *dir, const char *name, const char *profile);

int cmd_baseline(int argc, char **argv);

#endif
