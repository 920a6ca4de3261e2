/*
 * cmd_schedule.c -- `trainplan schedule`: not yet available.
 */
#include "cli.h"

int cmd_schedule(int argc, char **argv)
{
	return cli_unavailable("schedule");
}
