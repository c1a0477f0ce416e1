/* yes/vmsplice_1m: vmsplice.c with 1 MiB chunks and a 1 MiB pipe, the
 * seed's faster setting: fewer hand-overs between producer and consumer
 * (each one a wake-up, costly across CPUs in a VM). */
#define YES_CHUNK_DEFAULT (1024 * 1024)
#include "vmsplice.c"
