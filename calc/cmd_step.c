/*
 * cmd_step.c -- `trainplan step`: not yet available.
 */
#include "cli.h"

int cmd_step(int argc, char **argv)
{
	return cli_unavailable("step");
}
