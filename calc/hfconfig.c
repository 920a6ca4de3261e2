/*
 * hfconfig.c -- a model read from a Hugging Face config.json (through jansson).
 *
 * calc_model_from_hf turns the configuration fields of a transformers decoder-only
 * model into a struct calc_model, or refuses the file.  A config.json leaves out
 * what its configuration class implies, so the reader knows each family it reads
 * (the table 'families' below): whether the MLP is gated (three matrices: gate, up
 * and down, whatever hidden_act names: Gemma's gelu_pytorch_tanh is gated as
 * LlamaMLP's silu is), the default of tie_word_embeddings (the default of the
 * family's config class in transformers), biases and the norm.  The sources are the
 * transformers modelling files of each family (modeling_llama.py, modeling_gemma2.py,
 * modeling_falcon.py, ...), and the parameter counts they imply are model.c's.
 *
 * Fields read, beyond the sizes:
 *   head_dim                   per-head width when it is not hidden / heads (Gemma)
 *   num_kv_heads, multi_query, Falcon: with new_decoder_architecture the K/V heads are
 *   new_decoder_architecture   num_kv_heads (Falcon-40B: 8); otherwise multi_query
 *                              means one K/V head (Falcon-7B) and its absence as many
 *                              as query heads (FalconAttention in modeling_falcon.py)
 *   parallel_attn              attention and MLP side by side: the same matrices, so
 *                              the same count (Falcon-7B shares one norm between them:
 *                              2h of its 6.9 B parameters per layer are counted twice)
 *   bias, attention_bias,      linear-layer biases (model.bias: every linear layer)
 *   mlp_bias
 *   text_config                a multimodal config (LLaVA, Mistral 3, PaliGemma): the
 *                              language model in text_config is what is planned; the
 *                              vision encoder is not counted
 * What the model does not hold is left out, each well under 0.01 % of a model:
 * Qwen2's q, k and v biases ((a + 2 g) d per layer), the extra pair of norms of
 * Gemma 2 and 3 (2 h per layer) and the q/k norms of Qwen3 (2 d per layer).
 *
 * Refused, with the field named, because the count would be wrong: mixture-of-experts
 * configs (num_local_experts, n_routed_experts, num_experts, ...), MLA attention
 * (kv_lora_rank, q_lora_rank), state-space and recurrent layers (Mamba, Jamba, RWKV,
 * Griffin), encoder-decoder and encoder-only models, cross-attention layers, layer
 * types other than full or sliding-window attention, and a model_type this reader
 * does not know.  A config without model_type (a hand-written one) is read field by
 * field: silu/swish gated, tied embeddings unless it says otherwise.
 */
#include "calc.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ======================================================================== */
/* Families                                                                  */
/* ======================================================================== */

/* What a family's config.json leaves to its configuration and modelling classes. */
struct hf_family {
	const char *type;    /* model_type */
	int gated;           /* 1: gate, up and down projections (3 h f), whatever hidden_act says */
	int tie;             /* tie_word_embeddings when the file leaves it out */
	int bias;            /* 1: every linear layer carries a bias */
	enum calc_norm norm; /* the norm of the family */
	int falcon;          /* 1: Falcon's K/V head fields (num_kv_heads, multi_query, ...) */
};

static const struct hf_family families[] = {
	{"llama", 1, 0, 0, CALC_NORM_RMSNORM, 0},       /* LlamaConfig, LlamaMLP */
	{"mistral", 1, 0, 0, CALC_NORM_RMSNORM, 0},     /* MistralConfig */
	{"qwen2", 1, 0, 0, CALC_NORM_RMSNORM, 0},       /* Qwen2Config; q/k/v biases not counted */
	{"qwen2_vl", 1, 0, 0, CALC_NORM_RMSNORM, 0},    /* Qwen2-VL: the Qwen2 decoder, fields flat */
	{"qwen3", 1, 0, 0, CALC_NORM_RMSNORM, 0},       /* Qwen3Config */
	{"phi3", 1, 0, 0, CALC_NORM_RMSNORM, 0},        /* Phi3MLP: one fused gate_up projection */
	{"gemma", 1, 1, 0, CALC_NORM_RMSNORM, 0},       /* GemmaMLP gated, hidden_act "gelu" */
	{"gemma2", 1, 1, 0, CALC_NORM_RMSNORM, 0},      /* gelu_pytorch_tanh, gated */
	{"gemma3_text", 1, 1, 0, CALC_NORM_RMSNORM, 0}, /* Gemma 3's language model */
	{"gpt2", 0, 1, 1, CALC_NORM_LAYERNORM, 0},      /* GPT2Config: learned positions n_positions */
	{"gpt_neox", 0, 0, 1, CALC_NORM_LAYERNORM, 0},  /* GPTNeoXConfig: embed_out untied */
	{"falcon", 0, 1, 0, CALC_NORM_LAYERNORM, 1},    /* FalconConfig */
	{"RefinedWeb", 0, 1, 0, CALC_NORM_LAYERNORM, 1},      /* Falcon-40B's first config */
	{"RefinedWebModel", 0, 1, 0, CALC_NORM_LAYERNORM, 1}, /* Falcon-7B's first config */
};
#define NFAMILIES (int)(sizeof families / sizeof families[0])

/* Multimodal configs: the language model's family when text_config has no model_type. */
static const char *const wrappers[][2] = {
	{"llava", "llama"}, {"llava_next", "llama"}, {"mistral3", "mistral"},
	{"paligemma", "gemma"}, {"gemma3", "gemma3_text"},
};
#define NWRAPPERS (int)(sizeof wrappers / sizeof wrappers[0])

/* model_type values of architectures the model does not have, and what they hold. */
static const char *const unmodelled_types[][2] = {
	{"mamba", "state-space (Mamba) layers"}, {"mamba2", "state-space (Mamba) layers"},
	{"falcon_mamba", "state-space (Mamba) layers"}, {"jamba", "state-space (Mamba) layers"},
	{"zamba", "state-space (Mamba) layers"}, {"zamba2", "state-space (Mamba) layers"},
	{"bamba", "state-space (Mamba) layers"}, {"falcon_h1", "state-space (Mamba) layers"},
	{"nemotron_h", "state-space (Mamba) layers"}, {"rwkv", "recurrent (RWKV) layers"},
	{"recurrent_gemma", "recurrent (Griffin RG-LRU) layers"}, {"xlstm", "recurrent (xLSTM) layers"},
	{"t5", "encoder-decoder models"}, {"mt5", "encoder-decoder models"}, {"umt5", "encoder-decoder models"},
	{"bart", "encoder-decoder models"}, {"mbart", "encoder-decoder models"},
	{"pegasus", "encoder-decoder models"}, {"marian", "encoder-decoder models"},
	{"whisper", "encoder-decoder models"}, {"bert", "encoder-only models"},
	{"roberta", "encoder-only models"}, {"modernbert", "encoder-only models"},
	{"mixtral", "MoE models"}, {"qwen2_moe", "MoE models"}, {"qwen3_moe", "MoE models"},
	{"deepseek_v2", "MoE models"}, {"deepseek_v3", "MoE models"}, {"dbrx", "MoE models"},
	{"olmoe", "MoE models"}, {"llama4", "MoE models"}, {"llama4_text", "MoE models"},
	{"mllama", "cross-attention layers"},
};
#define NUNMODELLED (int)(sizeof unmodelled_types / sizeof unmodelled_types[0])

/* Fields that name something the model does not have (when not null, false or 0). */
static const char *const unmodelled_fields[][2] = {
	{"mamba_d_state", "state-space (Mamba) layers"}, {"mamba_expand", "state-space (Mamba) layers"},
	{"mamba_d_conv", "state-space (Mamba) layers"}, {"ssm_cfg", "state-space (Mamba) layers"},
	{"state_size", "state-space (Mamba) layers"}, {"attn_layer_period", "state-space (Mamba) layers"},
	{"hybrid_override_pattern", "state-space (Mamba) layers"},
	{"is_encoder_decoder", "encoder-decoder models"}, {"num_decoder_layers", "encoder-decoder models"},
	{"encoder_layers", "encoder-decoder models"}, {"cross_attention_layers", "cross-attention layers"},
	{"num_local_experts", "MoE models"}, {"n_routed_experts", "MoE models"}, {"num_experts", "MoE models"},
	{"moe_num_experts", "MoE models"}, {"n_shared_experts", "MoE models"},
	{"moe_intermediate_size", "MoE models"}, {"num_experts_per_tok", "MoE models"},
	{"kv_lora_rank", "MLA attention (DeepSeek)"}, {"q_lora_rank", "MLA attention (DeepSeek)"},
};
#define NUNFIELDS (int)(sizeof unmodelled_fields / sizeof unmodelled_fields[0])

/* ======================================================================== */
/* Reading                                                                   */
/* ======================================================================== */

/* A config.json is a few kB; reading stops here so that an endless file ends. */
#define HF_MAX_BYTES (1 << 20)

struct hf_reader {
	FILE *f;
	size_t total; /* bytes handed to jansson */
	int toobig;   /* 1: the file went past HF_MAX_BYTES */
	char *text;   /* the bytes read, NUL-terminated (to find the line of a field) */
};

/* json_load_callback's reader: fread, up to HF_MAX_BYTES in all, keeping a copy. */
static size_t hf_read(void *buf, size_t n, void *data)
{
	struct hf_reader *r = data;
	size_t got = fread(buf, 1, n, r->f);
	if (got == 0 && ferror(r->f))
		return (size_t)-1;
	if (r->total + got > HF_MAX_BYTES) {
		r->total += got;
		r->toobig = 1;
		return (size_t)-1;
	}
	r->text = xrealloc(r->text, r->total + got + 1);
	memcpy(r->text + r->total, buf, got);
	r->total += got;
	r->text[r->total] = 0;
	return got;
}

/* What a diagnostic needs: the file, its text, and where the model's object starts. */
struct hf_ctx {
	const char *path;
	const char *text; /* the file (NULL when not kept) */
	size_t from;      /* offset of the model's object (text_config) in text */
	const char *where; /* "config.json" or "config.json text_config" */
	struct calc_diag *d;
};

/* Line of the first "name": at or after the model's object, 0 when not found. */
static int field_line(const struct hf_ctx *c, const char *name)
{
	size_t n = strlen(name);
	const char *s;
	if (!c->text)
		return 0;
	for (s = c->text + c->from; (s = strchr(s, '"')) != NULL; s++) {
		const char *t = s + 1 + n;
		if (strncmp(s + 1, name, n) || *t != '"')
			continue;
		for (t++; *t == ' ' || *t == '\t' || *t == '\r' || *t == '\n'; t++)
			;
		if (*t == ':') {
			int line = 1;
			for (const char *p = c->text; p < s; p++)
				line += *p == '\n';
			return line;
		}
	}
	return 0;
}

/* A JSON value as compact text, at most 60 bytes, into buf. */
static void value_text(const json_t *v, char *buf, size_t n)
{
	char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
	snprintf(buf, n, "%.60s%s", s ? s : "?", s && strlen(s) > 60 ? "..." : "");
	free(s);
}

/* Read an integer field, trying each name in turn; 0 when none is present. */
static int json_int(json_t *obj, const char *const *names, long *out)
{
	for (int i = 0; names[i]; i++) {
		json_t *v = json_object_get(obj, names[i]);
		if (v && json_is_integer(v)) {
			*out = (long)json_integer_value(v);
			return 1;
		}
	}
	return 0;
}

/* A boolean field: 'def' when absent or null; -1 with a diagnostic when not a boolean. */
static int json_flag(const struct hf_ctx *c, json_t *obj, const char *name, int def)
{
	json_t *v = json_object_get(obj, name);
	char val[80];
	if (!v || json_is_null(v))
		return def;
	if (json_is_boolean(v))
		return json_is_true(v);
	value_text(v, val, sizeof val);
	return calc_error(c->d, c->path, field_line(c, name), "%s: %s = %s is not a boolean (allowed: true, false)",
	                  c->where, name, val);
}

/* 1 when a value says something is there: not null, false, 0, "" or empty. */
static int present(const json_t *v)
{
	if (!v || json_is_null(v) || json_is_false(v))
		return 0;
	if (json_is_integer(v))
		return json_integer_value(v) != 0;
	if (json_is_real(v))
		return json_real_value(v) != 0;
	if (json_is_string(v))
		return json_string_length(v) > 0;
	if (json_is_array(v))
		return json_array_size(v) > 0;
	if (json_is_object(v))
		return json_object_size(v) > 0;
	return 1;
}

/* Refuse 'obj' when a field names what the model does not have; -1 with a diagnostic. */
static int refuse_fields(const struct hf_ctx *c, json_t *obj)
{
	char val[80];
	json_t *lt = json_object_get(obj, "layer_types");
	for (int i = 0; i < NUNFIELDS; i++) {
		json_t *v = json_object_get(obj, unmodelled_fields[i][0]);
		if (!present(v))
			continue;
		value_text(v, val, sizeof val);
		return calc_error(c->d, c->path, field_line(c, unmodelled_fields[i][0]),
		                  "%s are not modelled%s: field %s = %s (trainplan models decoder-only transformers "
		                  "of dense attention and MLP layers)", unmodelled_fields[i][1],
		                  !strcmp(unmodelled_fields[i][1], "MoE models") ||
		                          !strncmp(unmodelled_fields[i][1], "MLA", 3) ? " yet" : "",
		                  unmodelled_fields[i][0], val);
	}
	/* Gemma 2/3, Qwen3 name each layer's attention; linear attention or convolution
	 * layers (Qwen3-Next, LFM2) are not attention layers */
	if (json_is_array(lt)) {
		size_t i;
		json_t *e;
		json_array_foreach(lt, i, e) {
			const char *s = json_string_value(e);
			if (!s || (strcmp(s, "full_attention") && strcmp(s, "sliding_attention"))) {
				value_text(e, val, sizeof val);
				return calc_error(c->d, c->path, field_line(c, "layer_types"),
				                  "%s: layer_types[%zu] = %s is not modelled (allowed: \"full_attention\", "
				                  "\"sliding_attention\")", c->where, i, val);
			}
		}
	}
	return 0;
}

/* The family named 'type', NULL when the reader does not know it. */
static const struct hf_family *family_find(const char *type)
{
	for (int i = 0; i < NFAMILIES; i++)
		if (!strcmp(families[i].type, type))
			return &families[i];
	return NULL;
}

/* Refuse a model_type the model does not have or the reader does not know. */
static int refuse_type(const struct hf_ctx *c, const char *type, const char *field)
{
	char known[512];
	size_t n = 0;
	for (int i = 0; i < NUNMODELLED; i++)
		if (!strcmp(unmodelled_types[i][0], type))
			return calc_error(c->d, c->path, field_line(c, field),
			                  "%s are not modelled%s: field %s = \"%s\" (trainplan models decoder-only "
			                  "transformers of dense attention and MLP layers)", unmodelled_types[i][1],
			                  !strcmp(unmodelled_types[i][1], "MoE models") ? " yet" : "", field, type);
	for (int i = 0; i < NFAMILIES && n < sizeof known; i++)
		n += (size_t)snprintf(known + n, sizeof known - n, "%s%s", i ? ", " : "", families[i].type);
	return calc_error(c->d, c->path, field_line(c, field),
	                  "%s: %s = \"%s\" is not a family trainplan reads (allowed: %s); give the model with "
	                  "the model.* keys instead", c->where, field, type, known);
}

int calc_model_from_hf(struct calc_model *m, const char *path, struct calc_diag *d)
{
	json_error_t err;
	struct hf_reader rd = {fopen(path, "rb"), 0, 0, NULL};
	if (!rd.f)
		return calc_error(d, path, 0, "cannot read config.json: unable to open %s: %s", path, strerror(errno));
	json_t *root = json_load_callback(hf_read, &rd, 0, &err);
	fclose(rd.f);
	if (rd.toobig) {
		json_decref(root);
		free(rd.text);
		return calc_error(d, path, 0, "more than %d bytes: not a config.json", HF_MAX_BYTES);
	}
	static const char *const n_hidden[] = {"hidden_size", "n_embd", "d_model", "n_embed", NULL};
	static const char *const n_layers[] = {"num_hidden_layers", "n_layer", "num_layers", NULL};
	static const char *const n_heads[] = {"num_attention_heads", "n_head", NULL};
	static const char *const n_kv[] = {"num_key_value_heads", "multi_query_group_num", NULL};
	static const char *const n_kv_falcon[] = {"num_kv_heads", "n_head_kv", NULL};
	static const char *const n_ffn[] = {"intermediate_size", "n_inner", "ffn_hidden_size", NULL};
	static const char *const n_vocab[] = {"vocab_size", "padded_vocab_size", NULL};
	static const char *const n_hdim[] = {"head_dim", NULL};
	static const char *const n_pos[] = {"n_positions", NULL};
	long hidden = 0, layers = 0, heads = 0, kv = 0, ffn = 0, vocab = 0, hdim = 0, pos = 0;
	int before = d->nerrors;
	struct hf_ctx c = {path, rd.text, 0, "config.json", d};
	const struct hf_family *fam = NULL;
	const char *type = NULL;
	json_t *obj;

	if (!root) {
		free(rd.text);
		if (err.line > 0)
			return calc_error(d, path, err.line, "config.json is not valid JSON: %s (column %d)", err.text,
			                  err.column);
		return calc_error(d, path, 0, "cannot read config.json: %s", err.text);
	}
	if (!json_is_object(root)) {
		json_decref(root);
		free(rd.text);
		return calc_error(d, path, 1, "config.json: expected a JSON object at the top level");
	}

	/* the family, and the object that holds the language model */
	obj = root;
	if (refuse_fields(&c, root) < 0)
		goto out;
	type = json_string_value(json_object_get(root, "model_type"));
	if (json_is_object(json_object_get(root, "text_config"))) {
		const char *outer = type;
		const char *tc = strstr(rd.text ? rd.text : "", "\"text_config\"");
		obj = json_object_get(root, "text_config");
		c.from = tc ? (size_t)(tc - rd.text) : 0;
		c.where = "config.json text_config";
		if (refuse_fields(&c, obj) < 0)
			goto out;
		type = json_string_value(json_object_get(obj, "model_type"));
		for (int i = 0; !type && outer && i < NWRAPPERS; i++)
			if (!strcmp(wrappers[i][0], outer))
				type = wrappers[i][1];
		if (!type) {
			c.from = 0;
			if (outer)
				refuse_type(&c, outer, "model_type");
			else
				calc_error(d, path, field_line(&c, "text_config"),
				           "config.json: text_config has no model_type: the language model's family is unknown");
			goto out;
		}
	}
	if (type && !(fam = family_find(type))) {
		refuse_type(&c, type, "model_type");
		goto out;
	}

	if (!json_int(obj, n_hidden, &hidden))
		calc_error(d, path, 0, "%s has no hidden_size (or n_embd) integer", c.where);
	if (!json_int(obj, n_layers, &layers))
		calc_error(d, path, 0, "%s has no num_hidden_layers (or n_layer) integer", c.where);
	if (!json_int(obj, n_heads, &heads))
		calc_error(d, path, 0, "%s has no num_attention_heads (or n_head) integer", c.where);
	if (!json_int(obj, n_vocab, &vocab))
		calc_error(d, path, 0, "%s has no vocab_size integer", c.where);
	if (fam && fam->falcon) {
		/* FalconAttention: new_decoder_architecture -> num_kv_heads K/V heads (default:
		 * as many as query heads); otherwise multi_query (default true) -> one */
		int newarch = json_flag(&c, obj, "new_decoder_architecture", !strcmp(fam->type, "RefinedWeb"));
		int mq = json_flag(&c, obj, "multi_query", 1);
		json_flag(&c, obj, "parallel_attn", 1);
		if (newarch > 0) {
			if (!json_int(obj, n_kv_falcon, &kv))
				kv = heads;
		} else
			kv = mq > 0 ? 1 : heads;
	} else if (!json_int(obj, n_kv, &kv))
		kv = heads;
	json_int(obj, n_hdim, &hdim);
	if (!json_int(obj, n_ffn, &ffn) || ffn <= 0)
		ffn = 4 * hidden; /* GPT-2 convention: n_inner null means 4 h */
	if (d->nerrors == before && (hidden <= 0 || layers <= 0 || heads <= 0 || vocab <= 0 || kv <= 0 ||
	                             hidden > 10000000 || layers > 100000 || heads > 100000 || vocab > 100000000 ||
	                             kv > 100000))
		calc_error(d, path, 0, "%s: hidden_size = %ld, num_hidden_layers = %ld, num_attention_heads = %ld, "
		           "num_key_value_heads = %ld, vocab_size = %ld: each must be a positive integer of sane size",
		           c.where, hidden, layers, heads, kv, vocab);
	/* the optional sizes have the ranges of their plan keys (model.ffn_hidden,
	 * model.head_dim, model.max_pos), checked before they are narrowed to int */
	if (d->nerrors == before && ffn > 100000000)
		calc_error(d, path, 0, "%s: intermediate_size = %ld is out of range (allowed: 1 .. 100000000)", c.where, ffn);
	if (d->nerrors == before && (hdim < 0 || hdim > 100000))
		calc_error(d, path, 0, "%s: head_dim = %ld is out of range (allowed: 1 .. 100000)", c.where, hdim);
	if (d->nerrors == before && json_int(obj, n_pos, &pos) && (pos < 0 || pos > 100000000))
		calc_error(d, path, 0, "%s: n_positions = %ld is out of range (allowed: 0 .. 100000000)", c.where, pos);
	if (d->nerrors == before) {
		const char *act = json_string_value(json_object_get(obj, "hidden_act"));
		int tie, bias;
		if (!act)
			act = json_string_value(json_object_get(obj, "hidden_activation"));
		if (!act)
			act = json_string_value(json_object_get(obj, "activation_function"));
		/* transformers' PretrainedConfig defaults tie_word_embeddings to true; a family's
		 * config class may default it otherwise (LlamaConfig: false).  A multimodal
		 * config says it at the top level or in text_config. */
		tie = json_flag(&c, obj, "tie_word_embeddings",
		                obj != root ? json_flag(&c, root, "tie_word_embeddings", fam ? fam->tie : 1)
		                            : fam ? fam->tie : 1);
		bias = fam ? (fam->falcon ? json_flag(&c, obj, "bias", 0) : fam->bias) : 0;
		if (json_flag(&c, obj, "attention_bias", 0) > 0 || json_flag(&c, obj, "mlp_bias", 0) > 0)
			bias = 1;
		if (d->nerrors > before)
			goto out;
		memset(m, 0, sizeof *m);
		snprintf(m->name, sizeof m->name, "%s", type ? type : "hf-config");
		m->layers = (int)layers;
		m->hidden = (int)hidden;
		m->heads = (int)heads;
		m->kv_heads = (int)kv;
		m->head_dim = (int)hdim;
		m->ffn_hidden = (int)ffn;
		m->vocab = (int)vocab;
		if (fam) {
			m->mlp = fam->gated ? CALC_MLP_SWIGLU : CALC_MLP_GELU;
			m->norm = fam->norm;
		} else {
			/* silu/swish activations in HF decoder configs are gated (LlamaMLP,
			 * MistralMLP, Qwen2MLP: gate, up and down projections) */
			m->mlp = act && (!strcmp(act, "silu") || !strcmp(act, "swish") || !strcmp(act, "swiglu"))
			                 ? CALC_MLP_SWIGLU
			                 : CALC_MLP_GELU;
			m->norm = json_object_get(obj, "rms_norm_eps") ? CALC_NORM_RMSNORM : CALC_NORM_LAYERNORM;
		}
		m->tied_embeddings = tie;
		m->bias = bias;
		if (json_int(obj, n_pos, &pos))
			m->max_pos = (int)pos; /* learned absolute positions (GPT-2) */
		m->dropout = 0;
	}
out:
	json_decref(root);
	free(rd.text);
	return d->nerrors > before ? -1 : 0;
}
