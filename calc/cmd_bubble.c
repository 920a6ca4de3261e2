/*
 * cmd_bubble.c -- `trainplan bubble`: not yet available.
 */
#include "cli.h"

int cmd_bubble(int argc, char **argv)
{
	return cli_unavailable("bubble");
}
