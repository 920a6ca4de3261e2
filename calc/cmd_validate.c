/*
 * cmd_validate.c -- `trainplan validate`: not yet available.
 */
#include "cli.h"

int cmd_validate(int argc, char **argv)
{
	return cli_unavailable("validate");
}
