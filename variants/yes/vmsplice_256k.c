/* yes/vmsplice_256k: vmsplice.c with the seed's first setting, 256 KiB
 * chunks and a 256 KiB pipe.  Each full pipe is one hand-over between
 * producer and consumer; across CPUs in a VM those wake-ups cost more than
 * the copy that vmsplice saves (see yes/vmsplice, 1 MiB). */
#define YES_CHUNK_DEFAULT (256 * 1024)
#include "vmsplice.c"
