/*
 * hfconfig.c -- a model read from a Hugging Face config.json (through jansson).
 *
 * calc_model_from_hf: the transformers configuration fields of a decoder-only model
 * become a struct calc_model.
 */
#include "calc.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

/* ======================================================================== */
/* Hugging Face config.json                                                  */
/* ======================================================================== */

/* Read an integer field, trying each name in turn; 0 when none is present. */
static int json_int(json_t *root, const char *const *names, long *out)
{
	for (int i = 0; names[i]; i++) {
		json_t *v = json_object_get(root, names[i]);
		if (v && json_is_integer(v)) {
			*out = (long)json_integer_value(v);
			return 1;
		}
	}
	return 0;
}

/* A config.json is a few kB; reading stops here so that an endless file ends. */
#define HF_MAX_BYTES (1 << 20)

struct hf_reader {
	FILE *f;
	size_t total;  /* bytes handed to jansson */
	int toobig;    /* 1: the file went past HF_MAX_BYTES */
};

/* json_load_callback's reader: fread, up to HF_MAX_BYTES in all. */
static size_t hf_read(void *buf, size_t n, void *data)
{
	struct hf_reader *r = data;
	size_t got = fread(buf, 1, n, r->f);
	if (got == 0 && ferror(r->f))
		return (size_t)-1;
	r->total += got;
	if (r->total > HF_MAX_BYTES) {
		r->toobig = 1;
		return (size_t)-1;
	}
	return got;
}

int calc_model_from_hf(struct calc_model *m, const char *path, struct calc_diag *d)
{
	json_error_t err;
	struct hf_reader rd = {fopen(path, "rb"), 0, 0};
	if (!rd.f)
		return calc_error(d, path, 0, "cannot read config.json: unable to open %s: %s", path, strerror(errno));
	json_t *root = json_load_callback(hf_read, &rd, 0, &err);
	fclose(rd.f);
	if (rd.toobig) {
		json_decref(root);
		return calc_error(d, path, 0, "more than %d bytes: not a config.json", HF_MAX_BYTES);
	}
	static const char *const n_hidden[] = {"hidden_size", "n_embd", "d_model", NULL};
	static const char *const n_layers[] = {"num_hidden_layers", "n_layer", "num_layers", NULL};
	static const char *const n_heads[] = {"num_attention_heads", "n_head", NULL};
	static const char *const n_kv[] = {"num_key_value_heads", "multi_query_group_num", NULL};
	static const char *const n_ffn[] = {"intermediate_size", "n_inner", "ffn_hidden_size", NULL};
	static const char *const n_vocab[] = {"vocab_size", "padded_vocab_size", NULL};
	static const char *const n_hdim[] = {"head_dim", NULL};
	static const char *const n_pos[] = {"n_positions", NULL};
	long hidden = 0, layers = 0, heads = 0, kv = 0, ffn = 0, vocab = 0, hdim = 0, pos = 0;
	int before = d->nerrors;

	if (!root) {
		if (err.line > 0)
			return calc_error(d, path, err.line, "config.json is not valid JSON: %s (column %d)", err.text,
			                  err.column);
		return calc_error(d, path, 0, "cannot read config.json: %s", err.text);
	}
	if (!json_is_object(root)) {
		json_decref(root);
		return calc_error(d, path, 1, "config.json: expected a JSON object at the top level");
	}
	if (!json_int(root, n_hidden, &hidden))
		calc_error(d, path, 0, "config.json has no hidden_size (or n_embd) integer");
	if (!json_int(root, n_layers, &layers))
		calc_error(d, path, 0, "config.json has no num_hidden_layers (or n_layer) integer");
	if (!json_int(root, n_heads, &heads))
		calc_error(d, path, 0, "config.json has no num_attention_heads (or n_head) integer");
	if (!json_int(root, n_vocab, &vocab))
		calc_error(d, path, 0, "config.json has no vocab_size integer");
	if (!json_int(root, n_kv, &kv))
		kv = heads;
	json_int(root, n_hdim, &hdim);
	if (!json_int(root, n_ffn, &ffn) || ffn <= 0)
		ffn = 4 * hidden; /* GPT-2 convention: n_inner null means 4 h */
	if (d->nerrors == before && (hidden <= 0 || layers <= 0 || heads <= 0 || vocab <= 0 || kv <= 0 ||
	                             hidden > 10000000 || layers > 100000 || heads > 100000 || vocab > 100000000 ||
	                             kv > 100000))
		calc_error(d, path, 0, "config.json: hidden_size = %ld, num_hidden_layers = %ld, num_attention_heads = %ld, "
		           "num_key_value_heads = %ld, vocab_size = %ld: each must be a positive integer of sane size",
		           hidden, layers, heads, kv, vocab);
	/* the optional sizes have the ranges of their plan keys (model.ffn_hidden,
	 * model.head_dim, model.max_pos), checked before they are narrowed to int */
	if (d->nerrors == before && ffn > 100000000)
		calc_error(d, path, 0, "config.json: intermediate_size = %ld is out of range (allowed: 1 .. 100000000)", ffn);
	if (d->nerrors == before && (hdim < 0 || hdim > 100000))
		calc_error(d, path, 0, "config.json: head_dim = %ld is out of range (allowed: 1 .. 100000)", hdim);
	if (d->nerrors == before && json_int(root, n_pos, &pos) && (pos < 0 || pos > 100000000))
		calc_error(d, path, 0, "config.json: n_positions = %ld is out of range (allowed: 0 .. 100000000)", pos);
	if (d->nerrors == before) {
		const char *type = json_string_value(json_object_get(root, "model_type"));
		const char *act = json_string_value(json_object_get(root, "hidden_act"));
		if (!act)
			act = json_string_value(json_object_get(root, "activation_function"));
		json_t *tie = json_object_get(root, "tie_word_embeddings");
		memset(m, 0, sizeof *m);
		snprintf(m->name, sizeof m->name, "%s", type ? type : "hf-config");
		m->layers = (int)layers;
		m->hidden = (int)hidden;
		m->heads = (int)heads;
		m->kv_heads = (int)kv;
		m->head_dim = (int)hdim;
		m->ffn_hidden = (int)ffn;
		m->vocab = (int)vocab;
		/* silu/swish activations in HF decoder configs are gated (LlamaMLP,
		 * MistralMLP, Qwen2MLP: gate, up and down projections) */
		m->mlp = act && (!strcmp(act, "silu") || !strcmp(act, "swish") || !strcmp(act, "swiglu")) ? CALC_MLP_SWIGLU
		                                                                                       : CALC_MLP_GELU;
		m->norm = json_object_get(root, "rms_norm_eps") ? CALC_NORM_RMSNORM : CALC_NORM_LAYERNORM;
		/* transformers' PretrainedConfig defaults tie_word_embeddings to true */
		m->tied_embeddings = tie ? json_is_true(tie) : 1;
		m->bias = json_is_true(json_object_get(root, "attention_bias")) ||
		          (type && (!strcmp(type, "gpt2") || !strcmp(type, "gpt_neox")));
		if (json_int(root, n_pos, &pos))
			m->max_pos = (int)pos; /* learned absolute positions (GPT-2) */
		m->dropout = 0;
	}
	json_decref(root);
	return d->nerrors > before ? -1 : 0;
}
