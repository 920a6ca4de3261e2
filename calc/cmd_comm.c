/*
 * cmd_comm.c -- `trainplan comm`: not yet available.
 */
#include "cli.h"

int cmd_comm(int argc, char **argv)
{
	return cli_unavailable("comm");
}
