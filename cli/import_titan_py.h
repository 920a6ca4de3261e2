/*
 * import_titan_py.h -- current torchtitan's Python configuration (config_registry.py
 * functions returning Trainer.Config, pytorch/torchtitan at commit b5bcd76c) read as the
 * job TOML that cmd_import.c's torchtitan reader takes (import_titan_py.c).
 */
#ifndef CALC_CLI_IMPORT_TITAN_PY_H
#define CALC_CLI_IMPORT_TITAN_PY_H

/* A message about the input: its line (0: none), an error (1) or a note (0). */
typedef void (*ttpy_msg_fn)(void *ctx, int line, int is_error, const char *text);

struct ttpy_out {
	char *toml;          /* the job TOML the function stands for (owned) */
	int *map;            /* map[i]: the input line of the TOML's line i (owned) */
	int nmap;
	int sp;              /* parallelism.enable_sequence_parallel: 1 or 0 */
	int sp_line;
	const char *dispatcher; /* moe.dispatcher the TOML cannot say (hybridep), or NULL */
	int dispatcher_line;
};

/* 1 when text looks like Python (a def, an import) rather than TOML or command words. */
int ttpy_is_python(const char *text, int *line);

/*
 * Read the function 'config' (NULL: the file's only Trainer.Config function, else an
 * error listing them) of the Python text, with torchtitan's --SECTION.KEY VALUE overrides
 * 'ovr' (novr words, applied over it as torchtitan's ConfigManager does), for the model
 * family 'module' (NULL: from the file).  Returns 0 with *out filled, or -1 after at least
 * one error message; out->toml is then what could be read (NULL when no function was),
 * for the TOML reader's own checks.
 */
int ttpy_read(const char *text, const char *config, const char *module, char *const *ovr, int novr,
              ttpy_msg_fn msg, void *ctx, struct ttpy_out *out);

#endif
