/* meter_main.c: build/flagbench-meter, the meter alone (see meter.h). */
#include "system/meter.h"

int main(int argc, char **argv)
{
	return cmd_meter(argc, argv);
}
