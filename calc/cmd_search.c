/*
 * cmd_search.c -- `trainplan search`: not yet available.
 */
#include "cli.h"

int cmd_search(int argc, char **argv)
{
	return cli_unavailable("search");
}
