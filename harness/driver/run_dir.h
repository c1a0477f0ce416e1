/* run_dir.h: the run folder: its id, its lock, and whether --resume may
 * finish it.
 *
 * One run per folder: a second one, at once or later, would mix its cells
 * into the first one's journal.  run_dir_lock() takes DIR/.lock for the
 * life of the process (the kernel drops it when the process ends, however
 * it ends); a folder in use by another run is refused, and so is a folder
 * that already holds a run, unless resuming it.
 */
#ifndef FLAGBENCH_RUN_DIR_H
#define FLAGBENCH_RUN_DIR_H

/* "<UTC time>-<suite>-<profile>" */
char *run_dir_new_id(const char *suite, const char *profile);
/* The name of a run in the folder out the user chose (-o): the folder's
 * own name, "results/zstd-march" is "zstd-march"; NULL where out names no
 * folder of its own ("", ".", ".."). A name, not an id: two runs may share
 * it (a nightly's folder), never an id. */
char *run_dir_name_of_out(const char *out);
/* 0 with the lock held (its fd stays open), -1 after a message. */
int run_dir_lock(const char *dir, int resuming);
/* Whether --resume dir may go on with this suite, profile and statistic
 * (the journal's cells belong to those only): 0 with *id the run's id,
 * -1 after a message. */
int run_dir_resume_id(const char *dir, const char *suite, const char *profile, double quantile, char **id);
/* Tables, plots and index.html from DIR/results.json (plots/render.sh,
 * its output on stderr); a failed render is a warning: results.json stays. */
void run_dir_render(const char *dir);

#endif
