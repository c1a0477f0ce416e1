/* meter_main.c: build/flagbench-meter, the meter alone (see system/meter.h). */
#include "cmd/meter.h"

int main(int argc, char **argv)
{
	return cmd_meter(argc, argv);
}
