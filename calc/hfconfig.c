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
 *   text_config                a multimodal config (LLaVA, Mistral 3, PaliGemma, Gemma 3,
 *                              Llama 4): the language model in text_config is what is
 *                              planned; the vision encoder is not counted, and a note
 *                              says so where the config has a vision_config
 *   (Gemma 3 defaults)         gemma3_text without num_attention_heads, num_key_value_heads,
 *                              head_dim or vocab_size takes Gemma3TextConfig's 8, 4, 256
 *                              and 262,208, each with a note (google/gemma-3-4b-it gives
 *                              none of them)
 * What the model does not hold is left out, each well under 0.01 % of a model:
 * Qwen2's q, k and v biases ((a + 2 g) d per layer), the extra pair of norms of
 * Gemma 2 and 3 (2 h per layer) and the q/k norms of Qwen3 (2 d per layer).
 *
 * Mixture-of-experts families (Mixtral, Qwen-MoE, OLMoE, DBRX, Llama 4, DeepSeek, GPT-OSS, GLM-4.5) fill
 * model.moe (read_moe), DeepSeek's MLA fills model.mla and its MTP model.mtp_depth.
 * Llama 4's chunked attention (attention_chunk_size) fills model.attn_chunk
 * (read_llama4_layers): a plan whose sequence is longer than one chunk is refused.
 *
 * Refused, with the field named, because the count would be wrong: expert or MLA
 * fields outside the families that have them, MoE layouts the model has no rule
 * for, state-space and recurrent layers (Mamba, Jamba, RWKV, Griffin),
 * encoder-decoder and encoder-only models, cross-attention layers, layer types other
 * than full or sliding-window attention (read_window), and a model_type this reader does not know.  A config without model_type (a hand-written one) is read field by
 * field: silu/swish gated, tied embeddings unless it says otherwise.
 */
#include "bounds.h"
#include "diag.h"
#include "model.h"
#include "files.h"

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
	int moe;             /* 1: routed experts (the MoE fields are read) */
	int mla;             /* 1: MLA attention may be there (kv_lora_rank, ...) */
	int hybrid;          /* 1: a hybrid of Mamba-2, attention and MLP layers (read_hybrid);
	                        2: Qwen3-Next's gated delta-net and attention layers (read_qwen3_next);
	                        3: Jamba's Mamba-1 and attention layers (read_jamba) */
};

static const struct hf_family families[] = {
	{"llama", 1, 0, 0, CALC_NORM_RMSNORM, 0, 0, 0, 0},       /* LlamaConfig, LlamaMLP */
	{"mistral", 1, 0, 0, CALC_NORM_RMSNORM, 0, 0, 0, 0},     /* MistralConfig */
	{"qwen2", 1, 0, 0, CALC_NORM_RMSNORM, 0, 0, 0, 0},       /* Qwen2Config; q/k/v biases not counted */
	{"qwen2_vl", 1, 0, 0, CALC_NORM_RMSNORM, 0, 0, 0, 0},    /* Qwen2-VL: the Qwen2 decoder, fields flat */
	{"qwen3", 1, 0, 0, CALC_NORM_RMSNORM, 0, 0, 0, 0},       /* Qwen3Config */
	{"phi3", 1, 0, 0, CALC_NORM_RMSNORM, 0, 0, 0, 0},        /* Phi3MLP: one fused gate_up projection */
	{"gemma", 1, 1, 0, CALC_NORM_RMSNORM, 0, 0, 0, 0},       /* GemmaMLP gated, hidden_act "gelu" */
	{"gemma2", 1, 1, 0, CALC_NORM_RMSNORM, 0, 0, 0, 0},      /* gelu_pytorch_tanh, gated */
	{"gemma3_text", 1, 1, 0, CALC_NORM_RMSNORM, 0, 0, 0, 0}, /* Gemma 3's language model */
	{"gpt2", 0, 1, 1, CALC_NORM_LAYERNORM, 0, 0, 0, 0},      /* GPT2Config: learned positions n_positions */
	{"gpt_neox", 0, 0, 1, CALC_NORM_LAYERNORM, 0, 0, 0, 0},  /* GPTNeoXConfig: embed_out untied */
	{"falcon", 0, 1, 0, CALC_NORM_LAYERNORM, 1, 0, 0, 0},    /* FalconConfig */
	{"RefinedWeb", 0, 1, 0, CALC_NORM_LAYERNORM, 1, 0, 0, 0},      /* Falcon-40B's first config */
	{"RefinedWebModel", 0, 1, 0, CALC_NORM_LAYERNORM, 1, 0, 0, 0}, /* Falcon-7B's first config */
	/* mixture of experts (the fields of each: read_moe) */
	{"mixtral", 1, 0, 0, CALC_NORM_RMSNORM, 0, 1, 0, 0},      /* MixtralConfig */
	{"qwen2_moe", 1, 0, 0, CALC_NORM_RMSNORM, 0, 1, 0, 0},    /* Qwen2MoeConfig: shared expert, gated */
	{"qwen3_moe", 1, 0, 0, CALC_NORM_RMSNORM, 0, 1, 0, 0},    /* Qwen3MoeConfig */
	{"olmoe", 1, 0, 0, CALC_NORM_RMSNORM, 0, 1, 0, 0},        /* OlmoeConfig */
	{"dbrx", 1, 0, 0, CALC_NORM_LAYERNORM, 0, 1, 0, 0},       /* DbrxConfig: ffn_config, attn_config */
	{"llama4_text", 1, 0, 0, CALC_NORM_RMSNORM, 0, 1, 0, 0},  /* Llama4TextConfig: one shared expert */
	{"deepseek_v2", 1, 0, 0, CALC_NORM_RMSNORM, 0, 1, 1, 0},  /* DeepseekV2Config: MLA */
	{"deepseek_v3", 1, 0, 0, CALC_NORM_RMSNORM, 0, 1, 1, 0},  /* DeepseekV3Config: MLA, MTP */
	{"glm4_moe", 1, 0, 0, CALC_NORM_RMSNORM, 0, 1, 0, 0},     /* Glm4MoeConfig: DeepSeek's MoE fields;
	                                                          q/k/v biases not counted */
	{"gpt_oss", 1, 0, 0, CALC_NORM_RMSNORM, 0, 1, 0, 0},      /* GptOssConfig: biased attention and
	                                                          experts, a biased router */
	/* NemotronHConfig (transformers' configuration_nemotron_h.py): Mamba-2, attention and
	 * MLP layers; the MLP's relu2 is one up and one down projection (2 h f), untied */
	{"nemotron_h", 0, 0, 0, CALC_NORM_RMSNORM, 0, 0, 0, 1},
	/* Qwen3NextConfig (transformers' configuration_qwen3_next.py): gated delta-net and
	 * gated-attention layers, each followed by the MoE (read_qwen3_next, read_moe) */
	{"qwen3_next", 1, 0, 0, CALC_NORM_RMSNORM, 0, 1, 0, 2},
	/* JambaConfig (transformers' configuration_jamba.py): Mamba-1 and attention mixers,
	 * each followed by a dense or MoE SwiGLU MLP (read_jamba, read_moe); untied */
	{"jamba", 1, 0, 0, CALC_NORM_RMSNORM, 0, 1, 0, 3},
};
#define NFAMILIES (int)(sizeof families / sizeof families[0])

/* Multimodal configs: the language model's family when text_config has no model_type. */
static const char *const wrappers[][2] = {
	{"llava", "llama"}, {"llava_next", "llama"}, {"mistral3", "mistral"},
	{"paligemma", "gemma"}, {"gemma3", "gemma3_text"}, {"llama4", "llama4_text"},
};
#define NWRAPPERS (int)(sizeof wrappers / sizeof wrappers[0])

/* model_type values of architectures the model does not have, and what they hold. */
static const char *const unmodelled_types[][2] = {
	{"mamba", "state-space (Mamba) layers"}, {"mamba2", "state-space (Mamba) layers"},
	{"falcon_mamba", "state-space (Mamba) layers"},
	{"zamba", "state-space (Mamba) layers"}, {"zamba2", "state-space (Mamba) layers"},
	{"bamba", "state-space (Mamba) layers"}, {"falcon_h1", "state-space (Mamba) layers"},
	{"rwkv", "recurrent (RWKV) layers"},
	{"recurrent_gemma", "recurrent (Griffin RG-LRU) layers"}, {"xlstm", "recurrent (xLSTM) layers"},
	{"t5", "encoder-decoder models"}, {"mt5", "encoder-decoder models"}, {"umt5", "encoder-decoder models"},
	{"bart", "encoder-decoder models"}, {"mbart", "encoder-decoder models"},
	{"pegasus", "encoder-decoder models"}, {"marian", "encoder-decoder models"},
	{"whisper", "encoder-decoder models"}, {"bert", "encoder-only models"},
	{"roberta", "encoder-only models"}, {"modernbert", "encoder-only models"},
	{"mllama", "cross-attention layers"},
};
#define NUNMODELLED (int)(sizeof unmodelled_types / sizeof unmodelled_types[0])

/* Fields that name something the model does not have (when not null, false or 0). */
#define MOE_WHAT "experts outside a mixture-of-experts family"
#define MLA_WHAT "MLA attention outside the DeepSeek families"
#define SSM_WHAT "state-space (Mamba) layers"
static const char *const unmodelled_fields[][2] = {
	{"mamba_d_state", SSM_WHAT}, {"mamba_expand", SSM_WHAT},
	{"mamba_d_conv", SSM_WHAT}, {"ssm_cfg", SSM_WHAT},
	{"state_size", SSM_WHAT}, {"attn_layer_period", SSM_WHAT},
	{"hybrid_override_pattern", SSM_WHAT},
	{"is_encoder_decoder", "encoder-decoder models"}, {"num_decoder_layers", "encoder-decoder models"},
	{"encoder_layers", "encoder-decoder models"}, {"cross_attention_layers", "cross-attention layers"},
	/* from here on: allowed in the families that read them (moe, mla) */
	{"num_local_experts", MOE_WHAT}, {"n_routed_experts", MOE_WHAT}, {"num_experts", MOE_WHAT},
	{"moe_num_experts", MOE_WHAT}, {"n_shared_experts", MOE_WHAT},
	{"moe_intermediate_size", MOE_WHAT}, {"num_experts_per_tok", MOE_WHAT},
	{"kv_lora_rank", MLA_WHAT}, {"q_lora_rank", MLA_WHAT},
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
	return calc_error_id(c->d, CALC_M_HF_CONFIG, c->path, field_line(c, name), "%s: %s = %s is not a boolean (allowed: true, false)",
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

/* Refuse 'obj' when a field names what the model (or the family 'fam', which may be
 * NULL) does not have; -1 with a diagnostic. */
static int refuse_fields(const struct hf_ctx *c, json_t *obj, const struct hf_family *fam)
{
	char val[80];
	json_t *lt = json_object_get(obj, "layer_types");
	for (int i = 0; i < NUNFIELDS; i++) {
		json_t *v = json_object_get(obj, unmodelled_fields[i][0]);
		const char *what = unmodelled_fields[i][1];
		if (!present(v) || (fam && fam->moe && !strcmp(what, MOE_WHAT)) ||
		    (fam && fam->mla && !strcmp(what, MLA_WHAT)) ||
		    (fam && fam->hybrid && (!strcmp(what, SSM_WHAT) || !strcmp(what, MOE_WHAT))))
			continue;
		value_text(v, val, sizeof val);
		return calc_error_id(c->d, CALC_M_HF_CONFIG, c->path, field_line(c, unmodelled_fields[i][0]),
		                  "%s are not modelled: field %s = %s (trainplan models decoder-only transformers "
		                  "of attention and MLP or mixture-of-experts layers)", what, unmodelled_fields[i][0], val);
	}
	/* Gemma 2/3, Qwen3 name each layer's attention; linear attention or convolution
	 * layers (Qwen3-Next, LFM2) are not attention layers.  Llama 4's chunked attention
	 * is read in its family only (read_llama4_chunk) */
	if (json_is_array(lt) && !(fam && fam->hybrid == 2)) { /* Qwen3-Next's: read_qwen3_next */
		size_t i;
		json_t *e;
		int chunked = fam && !strcmp(fam->type, "llama4_text");
		json_array_foreach(lt, i, e) {
			const char *s = json_string_value(e);
			if (!s || (strcmp(s, "full_attention") && strcmp(s, "sliding_attention") &&
			           (!chunked || strcmp(s, "chunked_attention")))) {
				value_text(e, val, sizeof val);
				return calc_error_id(c->d, CALC_M_HF_CONFIG, c->path, field_line(c, "layer_types"),
				                  "%s: layer_types[%zu] = %s is not modelled (allowed: \"full_attention\", "
				                  "\"sliding_attention\"%s)", c->where, i, val,
				                  chunked ? ", \"chunked_attention\"" : "");
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
			return calc_error_id(c->d, CALC_M_HF_CONFIG, c->path, field_line(c, field),
			                  "%s are not modelled: field %s = \"%s\" (trainplan models decoder-only "
			                  "transformers of attention and MLP or mixture-of-experts layers)",
			                  unmodelled_types[i][1], field, type);
	for (int i = 0; i < NFAMILIES && n < sizeof known; i++)
		n += (size_t)snprintf(known + n, sizeof known - n, "%s%s", i ? ", " : "", families[i].type);
	return calc_error_id(c->d, CALC_M_HF_CONFIG, c->path, field_line(c, field),
	                  "%s: %s = \"%s\" is not a family trainplan reads (allowed: %s); give the model with "
	                  "the model.* keys instead", c->where, field, type, known);
}

/* An integer field in lo .. hi into *out (absent or null: 'def'); -1 with a
 * diagnostic when it is there but not an integer in range. */
static int int_field(const struct hf_ctx *c, json_t *obj, const char *name, long lo, long hi, long def, long *out)
{
	json_t *v = json_object_get(obj, name);
	char val[80];
	*out = def;
	if (!v || json_is_null(v))
		return 0;
	if (json_is_integer(v) && json_integer_value(v) >= lo && json_integer_value(v) <= hi) {
		*out = (long)json_integer_value(v);
		return 0;
	}
	value_text(v, val, sizeof val);
	return calc_error_id(c->d, CALC_M_HF_CONFIG, c->path, field_line(c, name), "%s: %s = %s is out of range (allowed: %ld .. %ld)",
	                  c->where, name, val, lo, hi);
}

/*
 * Llama 4's layer lists (Llama4TextConfig.__post_init__ in transformers'
 * configuration_llama4.py, Llama4TextDecoderLayer in modeling_llama4.py):
 *   moe_layers           the MoE layers; when absent, range(step - 1, L, step) of
 *                        interleave_moe_layer_step, the rule of calc_moe.every.  A list
 *                        that is not that rule is refused (the model has no other).
 *   attention_chunk_size a layer of layer_types "chunked_attention" attends within
 *                        chunks of this many tokens; without layer_types a layer is
 *                        chunked when it uses RoPE: no_rope_layers[i] = 1, the list
 *                        (when empty or absent) being (i + 1) % no_rope_layer_interval
 *                        != 0 (default 4: three layers of four).  Any chunked layer sets
 *                        m->attn_chunk: exact while seq_len <= the chunk, refused beyond
 *                        (calc_plan_validate).  null: every layer is full attention.
 * Returns 0, or -1 with a diagnostic naming the field.
 */
static int read_llama4_layers(const struct hf_ctx *c, json_t *obj, struct calc_model *m)
{
	json_t *ml = json_object_get(obj, "moe_layers"), *lt = json_object_get(obj, "layer_types");
	json_t *nr = json_object_get(obj, "no_rope_layers"), *e;
	int every = m->moe.every > 1 ? m->moe.every : 1, chunked = 0;
	long chunk, interval;
	size_t i, n = 0;
	char val[80];

	if (ml && !json_is_null(ml)) {
		int ok = json_is_array(ml);
		json_array_foreach(ml, i, e) {
			long want = every - 1 + (long)i * every;
			ok = ok && json_is_integer(e) && json_integer_value(e) == want;
		}
		for (long l = every - 1; l < m->layers; l += every)
			n++;
		if (!ok || json_array_size(ml) != n) {
			value_text(ml, val, sizeof val);
			return calc_error_id(c->d, CALC_M_HF_CONFIG, c->path, field_line(c, "moe_layers"),
			                  "%s: moe_layers = %s is not modelled (allowed: every interleave_moe_layer_step-th "
			                  "layer, [%d, %d, ...], or leave it out)", c->where, val, every - 1, 2 * every - 1);
		}
	}
	if (int_field(c, obj, "attention_chunk_size", 1, 100000000, 0, &chunk) < 0 ||
	    int_field(c, obj, "no_rope_layer_interval", 1, 100000, 4, &interval) < 0)
		return -1;
	if (chunk == 0)
		return 0;
	if (json_is_array(lt)) {
		json_array_foreach(lt, i, e)
			chunked = chunked || (json_is_string(e) && !strcmp(json_string_value(e), "chunked_attention"));
	} else if (json_is_array(nr) && json_array_size(nr) > 0) {
		json_array_foreach(nr, i, e)
			chunked = chunked || present(e);
	} else
		chunked = interval > 1; /* (i + 1) % interval != 0 for some layer i */
	if (chunked)
		m->attn_chunk = (int)chunk;
	return 0;
}

/*
 * The experts of an MoE family into m->moe (struct calc_moe).  Fields, by family
 * (the transformers configuration classes):
 *   experts      num_local_experts (Mixtral, Llama 4), n_routed_experts (DeepSeek),
 *                num_experts (Qwen-MoE, OLMoE), ffn_config.moe_num_experts (DBRX)
 *   top_k        num_experts_per_tok, ffn_config.moe_top_k (DBRX)
 *   expert_ffn   moe_intermediate_size (DeepSeek, Qwen-MoE); intermediate_size (Mixtral,
 *                OLMoE, Llama 4); ffn_config.ffn_hidden_size (DBRX)
 *   dense width  intermediate_size (DeepSeek, Qwen-MoE), intermediate_size_mlp (Llama 4)
 *   shared       n_shared_experts of expert_ffn (DeepSeek); one of
 *                shared_expert_intermediate_size with a sigmoid gate (Qwen2-MoE); one of
 *                expert_ffn (Llama 4)
 *   layers       first_k_dense_replace (DeepSeek); decoder_sparse_step (Qwen-MoE) and
 *                interleave_moe_layer_step (Llama 4): layer i is MoE when (i + 1) % n
 *                == 0, as calc_moe.every; DeepSeek's moe_layer_freq (i % n == 0) only
 *                as 1; Qwen's mlp_only_layers only empty
 *   router       DeepSeek-V3's topk_method "noaux_tc": a per-expert bias; topk_group of
 *                n_group > 1 groups: the node limit M
 * Routing is dropless and balanced (imbalance 1); the plan may say otherwise.
 */
static void read_moe(const struct hf_ctx *c, json_t *obj, const struct hf_family *fam, struct calc_model *m)
{
	struct calc_moe *e = &m->moe;
	const char *t = fam->type;
	json_t *fc = json_object_get(obj, "ffn_config");
	/* GLM-4.5 (glm4_moe) names its experts as DeepSeek-V3 does (n_routed_experts,
	 * n_shared_experts, first_k_dense_replace, num_nextn_predict_layers; transformers'
	 * configuration_glm4_moe.py), and its router keeps DeepSeek-V3's per-expert score
	 * correction bias (Glm4MoeTopkRouter e_score_correction_bias) without a topk_method */
	int glm = !strcmp(t, "glm4_moe");
	int dbrx = !strcmp(t, "dbrx"), ds = !strncmp(t, "deepseek", 8) || glm, qwen = !strncmp(t, "qwen", 4);
	int llama4 = !strcmp(t, "llama4_text");
	const char *n_exp = dbrx ? "moe_num_experts" : ds ? "n_routed_experts"
	                                              : qwen || !strcmp(t, "olmoe") || !strcmp(t, "jamba") ? "num_experts"
	                                                                                                : "num_local_experts";
	struct hf_ctx cf = *c;
	long v, ffn = m->ffn_hidden;
	json_t *src = dbrx ? fc : obj;

	if (dbrx && !json_is_object(fc)) {
		calc_error_id(c->d, CALC_M_HF_CONFIG, c->path, 0, "%s: dbrx without an ffn_config object", c->where);
		return;
	}
	if (dbrx)
		cf.where = "config.json ffn_config";
	if (int_field(&cf, src, n_exp, 1, 65536, 0, &v) < 0)
		return;
	if (v == 0) {
		calc_error_id(c->d, CALC_M_HF_CONFIG, c->path, 0, "%s: model_type = \"%s\" without %s (routed experts, 1 .. 65536)", c->where,
		           t, n_exp);
		return;
	}
	e->experts = (int)v;
	if (int_field(&cf, src, dbrx ? "moe_top_k" : "num_experts_per_tok", 1, 65536, 0, &v) < 0)
		return;
	if (v < 1 || v > e->experts) {
		calc_error_id(c->d, CALC_M_HF_CONFIG, c->path, field_line(c, dbrx ? "moe_top_k" : "num_experts_per_tok"),
		           "%s: %s = %ld: a token goes to 1 .. %s = %d routed experts", c->where,
		           dbrx ? "moe_top_k" : "num_experts_per_tok", v, n_exp, e->experts);
		return;
	}
	e->top_k = (int)v;
	if (dbrx) {
		if (int_field(&cf, fc, "ffn_hidden_size", 1, 100000000, 0, &v) < 0)
			return;
		e->expert_ffn = (int)(v > 0 ? v : ffn);
	} else if (ds || qwen) {
		if (int_field(c, obj, "moe_intermediate_size", 1, 100000000, 0, &v) < 0)
			return;
		if (v == 0) {
			calc_error_id(c->d, CALC_M_HF_CONFIG, c->path, 0, "%s: model_type = \"%s\" without moe_intermediate_size", c->where, t);
			return;
		}
		e->expert_ffn = (int)v;
	} else
		e->expert_ffn = (int)ffn;
	if (llama4) {
		if (int_field(c, obj, "intermediate_size_mlp", 1, 100000000, ffn, &v) < 0)
			return;
		m->ffn_hidden = (int)v; /* the dense layers' width */
		e->shared = 1;
		if (int_field(c, obj, "interleave_moe_layer_step", 1, 100000, 1, &v) < 0)
			return;
		e->every = (int)v;
		if (read_llama4_layers(c, obj, m) < 0)
			return;
	}
	if (ds) {
		if (int_field(c, obj, "n_shared_experts", 0, 64, 0, &v) < 0)
			return;
		e->shared = (int)v;
		if (int_field(c, obj, "first_k_dense_replace", 0, m->layers, 0, &v) < 0)
			return;
		e->first_dense = (int)v;
		if (int_field(c, obj, "moe_layer_freq", 1, 1, 1, &v) < 0)
			return;
		e->router_bias = glm || (json_is_string(json_object_get(obj, "topk_method")) &&
		                         !strcmp(json_string_value(json_object_get(obj, "topk_method")), "noaux_tc"));
		if (int_field(c, obj, "n_group", 0, 65536, 0, &v) < 0)
			return;
		if (v > 1) {
			if (int_field(c, obj, "topk_group", 0, v, 0, &v) < 0)
				return;
			e->node_limit = (int)v;
		}
		if (int_field(c, obj, "num_nextn_predict_layers", 0, 16, 0, &v) < 0)
			return;
		m->mtp_depth = (int)v;
	}
	if (qwen) {
		json_t *only = json_object_get(obj, "mlp_only_layers");
		if (int_field(c, obj, "decoder_sparse_step", 1, 100000, 1, &v) < 0)
			return;
		e->every = (int)v;
		if (present(only)) {
			char val[80];
			value_text(only, val, sizeof val);
			calc_error_id(c->d, CALC_M_HF_CONFIG, c->path, field_line(c, "mlp_only_layers"),
			           "%s: mlp_only_layers = %s is not modelled (allowed: [], and decoder_sparse_step)", c->where,
			           val);
			return;
		}
		if (int_field(c, obj, "shared_expert_intermediate_size", 0, 100000000, 0, &v) < 0)
			return;
		if (v > 0)
			e->shared = 1, e->shared_ffn = (int)v, e->shared_gate = 1;
	}
	/* GPT-OSS (transformers' modeling_gpt_oss.py GptOssTopKRouter: weight E x h and a bias
	 * of E; GptOssExperts: gate_up_proj_bias 2 f and down_proj_bias h per expert, counted
	 * by model.bias from attention_bias).  Its attention sinks, one logit a head and layer
	 * (36 x 64 for gpt-oss-120b), are left out. */
	if (!strcmp(t, "gpt_oss"))
		e->router_bias = 1;
	e->imbalance = 1;
	if (e->first_dense >= m->layers && m->layers > 0)
		calc_error_id(c->d, CALC_M_HF_CONFIG, c->path, field_line(c, "first_k_dense_replace"),
		           "%s: first_k_dense_replace = %d leaves no MoE layer of %d", c->where, e->first_dense, m->layers);
}

/* DeepSeek's MLA attention into m->mla: q_lora_rank (null: queries from h), kv_lora_rank,
 * qk_rope_head_dim, qk_nope_head_dim, v_head_dim (DeepseekV3Config). */
static void read_mla(const struct hf_ctx *c, json_t *obj, struct calc_model *m)
{
	struct calc_mla *x = &m->mla;
	long v[5];
	static const char *const names[5] = {"q_lora_rank", "kv_lora_rank", "qk_rope_head_dim", "qk_nope_head_dim",
	                                     "v_head_dim"};
	for (int i = 0; i < 5; i++)
		if (int_field(c, obj, names[i], 0, i < 2 ? 1000000 : 100000, 0, &v[i]) < 0)
			return;
	if (v[1] == 0)
		return; /* ordinary attention */
	if (v[2] < 1 || v[3] < 1 || v[4] < 1) {
		calc_error_id(c->d, CALC_M_HF_CONFIG, c->path, field_line(c, "kv_lora_rank"),
		           "%s: MLA (kv_lora_rank = %ld) needs qk_rope_head_dim, qk_nope_head_dim and v_head_dim "
		           "(each 1 .. 100000)", c->where, v[1]);
		return;
	}
	x->q_lora_rank = (int)v[0];
	x->kv_lora_rank = (int)v[1];
	x->qk_rope_dim = (int)v[2];
	x->qk_nope_dim = (int)v[3];
	x->v_head_dim = (int)v[4];
	m->head_dim = 0; /* not used with MLA */
}

/*
 * Sliding-window attention (docs/references.md §5.13) into m->window and
 * m->window_full_every:
 *   layer_types  "sliding_attention" or "full_attention" per layer (Gemma 2/3, Qwen2/3,
 *                GPT-OSS configs): the windowed layers, the full ones at (i + 1) % N == 0
 *                for one N (model.window_full_every), or none; another placement is
 *                refused, and so is a sliding layer without an integer sliding_window.
 *   gemma2       without layer_types: alternate, N = 2 (Gemma2DecoderLayer: is_sliding =
 *                not bool(layer_idx % 2), transformers' modeling_gemma2.py)
 *   gemma3_text  without layer_types: N = sliding_window_pattern (default 6; modeling_gemma3.py
 *                is_sliding = bool((layer_idx + 1) % sliding_window_pattern))
 *   mistral, mixtral, phi3: a non-null sliding_window windows every layer (the attention
 *                of each layer takes config.sliding_window)
 *   qwen2, qwen3 and their MoE: without layer_types, use_sliding_window = true windows the
 *                layers from max_window_layers on: refused as not modelled
 * Returns 0, or -1 with a diagnostic naming the field.
 */
static int read_window(const struct hf_ctx *c, json_t *obj, const struct hf_family *fam, struct calc_model *m)
{
	json_t *lt = json_object_get(obj, "layer_types");
	const char *type = fam ? fam->type : "";
	long w = 0, n = 0;

	if (fam && fam->hybrid == 2)
		return 0; /* Qwen3-Next's layer_types name its mixers (read_qwen3_next), no window */
	if (fam && fam->hybrid == 3) {
		/* JambaConfig's sliding_window is an inference setting of its attention layers
		 * (null in the published configs); a window is not modelled in a hybrid model */
		if (int_field(c, obj, "sliding_window", 0, 0, 0, &w) < 0)
			return -1;
		return 0;
	}
	if (int_field(c, obj, "sliding_window", 0, 100000000, 0, &w) < 0)
		return -1;
	if (json_is_array(lt)) {
		size_t i;
		json_t *e;
		long first = -1, nsl = 0;
		json_array_foreach(lt, i, e) {
			const char *t = json_string_value(e);
			if (t && !strcmp(t, "sliding_attention"))
				nsl++;
			else if (t && !strcmp(t, "full_attention") && first < 0)
				first = (long)i;
		}
		if (nsl == 0)
			return 0;
		if (w <= 0)
			return calc_error_id(c->d, CALC_M_HF_CONFIG, c->path, field_line(c, "sliding_window"), "%s: layer_types names %ld "
			                  "sliding_attention layers but sliding_window is not a positive integer", c->where, nsl);
		n = first < 0 ? 0 : first + 1;
		json_array_foreach(lt, i, e) {
			const char *t = json_string_value(e);
			int full = t && !strcmp(t, "full_attention"), want = n > 0 && (long)(i + 1) % n == 0;
			if ((full || (t && !strcmp(t, "sliding_attention"))) && full != want)
				return calc_error_id(c->d, CALC_M_HF_CONFIG, c->path, field_line(c, "layer_types"), "%s: layer_types[%zu] = %s: the "
				                  "full-attention layers are not every %ld-th layer, the one placement modelled "
				                  "(model.window_full_every)", c->where, i, t, n);
		}
	} else if (!strcmp(type, "gemma2"))
		n = 2;
	else if (!strcmp(type, "gemma3_text")) {
		if (int_field(c, obj, "sliding_window_pattern", 1, 100000, 6, &n) < 0)
			return -1;
	} else if (!strcmp(type, "qwen2") || !strcmp(type, "qwen3") || !strcmp(type, "qwen2_moe") ||
	           !strcmp(type, "qwen3_moe") || !strcmp(type, "qwen2_vl")) {
		if (json_flag(c, obj, "use_sliding_window", 0) > 0)
			return calc_error_id(c->d, CALC_M_HF_CONFIG, c->path, field_line(c, "use_sliding_window"), "%s: use_sliding_window = true "
			                  "(sliding windows from max_window_layers on) is not modelled (allowed: false)", c->where);
		return 0;
	} else if (strcmp(type, "mistral") && strcmp(type, "mixtral") && strcmp(type, "phi3"))
		return 0; /* a family whose attention takes no window */
	if (w <= 0)
		return 0;
	m->window = (int)w;
	m->window_full_every = (int)n;
	return 0;
}

/*
 * A Nemotron-H config (NemotronHConfig, transformers' configuration_nemotron_h.py): the
 * layers from hybrid_override_pattern (M Mamba-2, '*' attention, '-' MLP, E MoE) or from
 * layers_block_type ("mamba" or "linear_attention" M, "attention" or "full_attention" '*',
 * "mlp" '-', "moe" E), into m->hybrid (an E is refused by calc_model_set_hybrid); the
 * Mamba-2 shape from mamba_num_heads, mamba_head_dim, ssm_state_size, n_groups (or
 * mamba_n_groups), conv_kernel (or mamba_d_conv) and chunk_size (or mamba_chunk_size),
 * each absent field at NemotronHConfig's default (128, 64, 128, 8, 4, 128).  Returns 0,
 * or -1 with a diagnostic naming the field.
 */
static int read_hybrid(const struct hf_ctx *c, json_t *obj, struct calc_model *m)
{
	json_t *pat = json_object_get(obj, "hybrid_override_pattern"), *lt = json_object_get(obj, "layers_block_type");
	char msg[CALC_LAYOUT_MAX + 256], val[80];
	long v[6];
	struct calc_model t;
	size_t n = 0;

	memset(m->hybrid, 0, sizeof m->hybrid);
	if (json_is_string(pat)) {
		if (json_string_length(pat) >= sizeof m->hybrid)
			return calc_error_id(c->d, CALC_M_HF_CONFIG, c->path, field_line(c, "hybrid_override_pattern"), "%s: hybrid_override_pattern "
			                  "has more than %zu layers", c->where, sizeof m->hybrid - 1);
		snprintf(m->hybrid, sizeof m->hybrid, "%s", json_string_value(pat));
	} else if (json_is_array(lt)) {
		size_t i;
		json_t *e;
		json_array_foreach(lt, i, e) {
			const char *s = json_string_value(e);
			char ch = !s ? 0 : !strcmp(s, "mamba") || !strcmp(s, "linear_attention") ? 'M'
			        : !strcmp(s, "attention") || !strcmp(s, "full_attention") ? '*'
			        : !strcmp(s, "mlp") ? '-' : !strcmp(s, "moe") ? 'E' : 0;
			if (!ch || n + 1 >= sizeof m->hybrid) {
				value_text(e, val, sizeof val);
				return calc_error_id(c->d, CALC_M_HF_CONFIG, c->path, field_line(c, "layers_block_type"), "%s: layers_block_type[%zu] = %s "
				                  "%s (allowed: \"mamba\", \"attention\", \"mlp\", at most %zu layers)", c->where, i, val,
				                  ch ? "is one too many" : "is not a layer type", sizeof m->hybrid - 1);
			}
			m->hybrid[n++] = ch;
		}
	} else
		return calc_error_id(c->d, CALC_M_HF_CONFIG, c->path, 0, "%s: a nemotron_h config needs hybrid_override_pattern or "
		                  "layers_block_type, the kind of each layer", c->where);
	if (int_field(c, obj, "mamba_num_heads", 1, 100000, 128, &v[0]) < 0 ||
	    int_field(c, obj, "mamba_head_dim", 1, 100000, 64, &v[1]) < 0 ||
	    int_field(c, obj, "ssm_state_size", 1, 100000, 128, &v[2]) < 0 ||
	    int_field(c, obj, json_object_get(obj, "mamba_n_groups") ? "mamba_n_groups" : "n_groups", 1, 100000, 8,
	              &v[3]) < 0 ||
	    int_field(c, obj, json_object_get(obj, "mamba_d_conv") ? "mamba_d_conv" : "conv_kernel", 1, 1024, 4, &v[4]) < 0 ||
	    int_field(c, obj, json_object_get(obj, "mamba_chunk_size") ? "mamba_chunk_size" : "chunk_size", 1, 1000000,
	              128, &v[5]) < 0)
		return -1;
	memset(&m->moe, 0, sizeof m->moe);
	memset(&m->gdn, 0, sizeof m->gdn);
	m->attn_gate = 0;
	if (strchr(m->hybrid, 'E')) {
		/* Nemotron 3's MoE layers (NemotronHConfig: n_routed_experts 8, num_experts_per_tok
		 * 2, moe_intermediate_size 7688, moe_shared_expert_intermediate_size 7688,
		 * n_shared_experts 1 when absent; its router's e_score_correction_bias, Megatron-
		 * Bridge's moe_router_enable_expert_bias): the routed experts, one shared expert
		 * of moe_shared_expert_intermediate_size; a latent MoE (moe_latent_size, Nemotron 3
		 * Super) is not modelled */
		long e[5];
		json_t *lat = json_object_get(obj, "moe_latent_size");
		if (lat && !json_is_null(lat))
			return calc_error_id(c->d, CALC_M_HF_CONFIG, c->path, field_line(c, "moe_latent_size"), "%s: moe_latent_size: the latent "
			                  "MoE projections are not modelled (allowed: null)", c->where);
		if (int_field(c, obj, "n_routed_experts", 1, 65536, 8, &e[0]) < 0 ||
		    int_field(c, obj, "num_experts_per_tok", 1, 65536, 2, &e[1]) < 0 ||
		    int_field(c, obj, "moe_intermediate_size", 1, 100000000, 7688, &e[2]) < 0 ||
		    int_field(c, obj, "moe_shared_expert_intermediate_size", 0, 100000000, 7688, &e[3]) < 0 ||
		    int_field(c, obj, "n_shared_experts", 0, 1, 1, &e[4]) < 0)
			return -1;
		if (e[1] > e[0])
			return calc_error_id(c->d, CALC_M_HF_CONFIG, c->path, field_line(c, "num_experts_per_tok"), "%s: num_experts_per_tok = %ld: "
			                  "a token goes to 1 .. n_routed_experts = %ld routed experts", c->where, e[1], e[0]);
		m->moe.experts = (int)e[0];
		m->moe.top_k = (int)e[1];
		m->moe.expert_ffn = (int)e[2];
		m->moe.shared = e[4] > 0 && e[3] > 0;
		m->moe.shared_ffn = m->moe.shared ? (int)e[3] : 0;
		m->moe.router_bias = 1;
		m->moe.imbalance = 1;
	}
	m->mamba = (struct calc_mamba){(int)v[0], (int)v[1], (int)v[2], (int)v[3], (int)v[4], (int)v[5]};
	t = *m;
	if (calc_model_set_hybrid(&t, msg, sizeof msg) < 0)
		return calc_error_id(c->d, CALC_M_HF_CONFIG, c->path, field_line(c, json_is_string(pat) ? "hybrid_override_pattern"
		                                                                     : "layers_block_type"),
		                  "%s: %s", c->where, msg);
	return 0;
}

/*
 * A Jamba config (JambaConfig, transformers' configuration_jamba.py; the published
 * huggingface.co/ai21labs/Jamba-v0.1 and ai21labs/AI21-Jamba-1.5-Mini config.json): each
 * of num_hidden_layers decoder layers a sequence mixer and an MLP, as the hybrid pattern
 * writes them, two blocks a layer: layer i attends ('*') when i % attn_layer_period ==
 * attn_layer_offset (defaults 8 and 4), else a Mamba-1 mixer ('S'); its MLP is MoE ('E')
 * when i % expert_layer_period == expert_layer_offset (defaults 2 and 1), else dense
 * ('-'), as JambaConfig's layers_block_type and layers_num_experts build them.  The
 * Mamba-1 shape from mamba_expand x hidden_size, mamba_d_state, mamba_d_conv and
 * mamba_dt_rank ("auto": ceil(hidden_size / 16), JambaConfig), with JambaMambaMixer's dt,
 * B and C RMSNorms; mamba_conv_bias true and mamba_proj_bias false are what is counted
 * (the defaults and the published values), the others refused.  Returns 0, or -1 with a
 * diagnostic naming the field.
 */
static int read_jamba(const struct hf_ctx *c, json_t *obj, struct calc_model *m)
{
	json_t *dtr = json_object_get(obj, "mamba_dt_rank");
	long nl = 0, ap, ao, ep, eo, st, cv, ex, hid = 0, r = 0;
	size_t n = 0;
	int cb, pb;

	memset(m->hybrid, 0, sizeof m->hybrid);
	memset(&m->moe, 0, sizeof m->moe); /* read_moe fills it */
	memset(&m->mamba, 0, sizeof m->mamba);
	memset(&m->gdn, 0, sizeof m->gdn);
	m->attn_gate = 0;
	if (!json_int(obj, (const char *const[]){"num_hidden_layers", NULL}, &nl) || nl <= 0 ||
	    (size_t)(2 * nl) >= sizeof m->hybrid)
		return calc_error_id(c->d, CALC_M_HF_CONFIG, c->path, field_line(c, "num_hidden_layers"), "%s: a jamba config needs "
		                  "num_hidden_layers (allowed: 1 .. %zu)", c->where, (sizeof m->hybrid - 1) / 2);
	if (!json_int(obj, (const char *const[]){"hidden_size", NULL}, &hid) || hid <= 0)
		return calc_error_id(c->d, CALC_M_HF_CONFIG, c->path, field_line(c, "hidden_size"), "%s: a jamba config needs hidden_size",
		                  c->where);
	if (int_field(c, obj, "attn_layer_period", 1, 100000, 8, &ap) < 0 ||
	    int_field(c, obj, "attn_layer_offset", 0, ap - 1, 4, &ao) < 0 ||
	    int_field(c, obj, "expert_layer_period", 1, 100000, 2, &ep) < 0 ||
	    int_field(c, obj, "expert_layer_offset", 0, ep - 1, 1, &eo) < 0 ||
	    int_field(c, obj, "mamba_d_state", 1, 100000, 16, &st) < 0 ||
	    int_field(c, obj, "mamba_d_conv", 1, 1024, 4, &cv) < 0 ||
	    int_field(c, obj, "mamba_expand", 1, 1000, 2, &ex) < 0)
		return -1;
	if (!dtr || json_is_null(dtr) || (json_is_string(dtr) && !strcmp(json_string_value(dtr), "auto")))
		r = (hid + 15) / 16;
	else if (int_field(c, obj, "mamba_dt_rank", 1, 10000000, 0, &r) < 0)
		return -1;
	cb = json_flag(c, obj, "mamba_conv_bias", 1);
	pb = json_flag(c, obj, "mamba_proj_bias", 0);
	if (cb < 0 || pb < 0)
		return -1;
	if (!cb || pb)
		return calc_error_id(c->d, CALC_M_HF_CONFIG, c->path, field_line(c, cb ? "mamba_proj_bias" : "mamba_conv_bias"), "%s: %s = %s "
		                  "is not modelled (allowed: mamba_conv_bias true and mamba_proj_bias false, as the published "
		                  "Jamba configs)", c->where, cb ? "mamba_proj_bias" : "mamba_conv_bias", cb ? "true" : "false");
	if (ex * hid > 10000000)
		return calc_error_id(c->d, CALC_M_HF_CONFIG, c->path, field_line(c, "mamba_expand"), "%s: mamba_expand x hidden_size = %ld is "
		                  "out of range (allowed: at most 10000000)", c->where, ex * hid);
	for (long i = 0; i < nl; i++) {
		m->hybrid[n++] = i % ap == ao ? '*' : 'S';
		m->hybrid[n++] = i % ep == eo ? 'E' : '-';
	}
	m->mamba1 = (struct calc_mamba1){(int)(ex * hid), (int)st, (int)cv, (int)r, 1};
	return 0;
}

/*
 * A Qwen3-Next config (Qwen3NextConfig, transformers' configuration_qwen3_next.py; the
 * published huggingface.co/Qwen/Qwen3-Next-80B-A3B-Instruct config.json): each decoder
 * layer a sequence mixer and the MoE, as Megatron-Core's hybrid pattern writes them, two
 * blocks a layer: "linear_attention" GE (a gated delta-net and the MoE), "full_attention"
 * '*E'.  The kinds from layer_types or, without it, as Qwen3NextConfig builds them from
 * full_attention_interval (default 4): layer i full when (i + 1) is a multiple of it.  The
 * gated delta-net shape from linear_num_key_heads, linear_num_value_heads,
 * linear_key_head_dim, linear_value_head_dim, linear_conv_kernel_dim (defaults 16, 32,
 * 128, 128, 4); the attention gated (Qwen3NextAttention's q_proj is 2 a d_h wide).
 * Returns 0, or -1 with a diagnostic naming the field.
 */
static int read_qwen3_next(const struct hf_ctx *c, json_t *obj, struct calc_model *m)
{
	json_t *lt = json_object_get(obj, "layer_types");
	char val[80];
	long v[5], nl = 0, every = 4;
	size_t n = 0;

	memset(m->hybrid, 0, sizeof m->hybrid);
	memset(&m->moe, 0, sizeof m->moe); /* read_moe fills it */
	memset(&m->mamba, 0, sizeof m->mamba);
	if (json_is_array(lt)) {
		size_t i;
		json_t *e;
		json_array_foreach(lt, i, e) {
			const char *s = json_string_value(e);
			char ch = !s ? 0 : !strcmp(s, "linear_attention") ? 'G' : !strcmp(s, "full_attention") ? '*' : 0;
			if (!ch || n + 2 >= sizeof m->hybrid) {
				value_text(e, val, sizeof val);
				return calc_error_id(c->d, CALC_M_HF_CONFIG, c->path, field_line(c, "layer_types"), "%s: layer_types[%zu] = %s %s "
				                  "(allowed: \"linear_attention\", \"full_attention\", at most %zu layers)", c->where, i,
				                  val, ch ? "is one too many" : "is not a layer type", (sizeof m->hybrid - 1) / 2);
			}
			m->hybrid[n++] = ch;
			m->hybrid[n++] = 'E';
		}
	} else {
		if (!json_int(obj, (const char *const[]){"num_hidden_layers", NULL}, &nl) || nl <= 0 ||
		    (size_t)(2 * nl) >= sizeof m->hybrid)
			return calc_error_id(c->d, CALC_M_HF_CONFIG, c->path, field_line(c, "num_hidden_layers"), "%s: a qwen3_next config without "
			                  "layer_types needs num_hidden_layers (allowed: 1 .. %zu)", c->where,
			                  (sizeof m->hybrid - 1) / 2);
		if (int_field(c, obj, "full_attention_interval", 1, 100000, 4, &every) < 0)
			return -1;
		for (long i = 0; i < nl; i++) {
			m->hybrid[n++] = (i + 1) % every ? 'G' : '*';
			m->hybrid[n++] = 'E';
		}
	}
	if (int_field(c, obj, "linear_num_key_heads", 1, 100000, 16, &v[0]) < 0 ||
	    int_field(c, obj, "linear_num_value_heads", 1, 100000, 32, &v[1]) < 0 ||
	    int_field(c, obj, "linear_key_head_dim", 1, 100000, 128, &v[2]) < 0 ||
	    int_field(c, obj, "linear_value_head_dim", 1, 100000, 128, &v[3]) < 0 ||
	    int_field(c, obj, "linear_conv_kernel_dim", 1, 1024, 4, &v[4]) < 0)
		return -1;
	m->gdn = (struct calc_gdn){(int)v[0], (int)v[1], (int)v[2], (int)v[3], (int)v[4], 64};
	m->attn_gate = 1;
	if (json_int(obj, (const char *const[]){"mtp_num_hidden_layers", NULL}, &nl) && nl > 0)
		calc_error_at(c->d, c->path, field_line(c, "mtp_num_hidden_layers"), 0, CALC_NOTE, "%s: "
		              "mtp_num_hidden_layers = %ld: the multi-token prediction module is not counted (MTP with a "
		              "hybrid pattern is not modelled)", c->where, nl);
	return 0;
}

int calc_model_from_hf(struct calc_model *m, const char *path, struct calc_diag *d)
{
	json_error_t err;
	char why[128];
	struct hf_reader rd = {calc_file_open_confined(path, "rb", why, sizeof why), 0, 0, NULL};
	if (!rd.f)
		return calc_error_id(d, CALC_M_HF_CONFIG, path, 0, "cannot read config.json: unable to open %s: %s", path, why);
	/* a field given twice is a mistake, not the last one winning */
	json_t *root = json_load_callback(hf_read, &rd, JSON_REJECT_DUPLICATES, &err);
	fclose(rd.f);
	if (rd.toobig) {
		json_decref(root);
		free(rd.text);
		return calc_error_id(d, CALC_M_HF_CONFIG, path, 0, "more than %d bytes: not a config.json", HF_MAX_BYTES);
	}
	static const char *const n_hidden[] = {"hidden_size", "n_embd", "d_model", "n_embed", NULL};
	static const char *const n_layers[] = {"num_hidden_layers", "n_layer", "num_layers", "n_layers", NULL};
	static const char *const n_heads[] = {"num_attention_heads", "n_head", "n_heads", NULL};
	static const char *const n_kv[] = {"num_key_value_heads", "multi_query_group_num", NULL};
	static const char *const n_kv_falcon[] = {"num_kv_heads", "n_head_kv", NULL};
	static const char *const n_ffn[] = {"intermediate_size", "n_inner", "ffn_hidden_size", NULL};
	static const char *const n_vocab[] = {"vocab_size", "padded_vocab_size", NULL};
	static const char *const n_hdim[] = {"head_dim", "attention_head_dim", NULL};
	static const char *const n_pos[] = {"n_positions", NULL};
	long hidden = 0, layers = 0, heads = 0, kv = 0, ffn = 0, vocab = 0, hdim = 0, pos = 0;
	int before = d->nerrors;
	struct hf_ctx c = {path, rd.text, 0, "config.json", d};
	const struct hf_family *fam = NULL;
	const char *type = NULL;
	json_t *obj;

	if (!root) {
		free(rd.text);
		/* jansson's text quotes the bytes where it stopped ("invalid token near
		 * 'secret'"): a file that is not JSON (an hf_config naming /etc/shadow) has them
		 * cut, so that a message never shows what is in a file of another format */
		char *near = strstr(err.text, " near '");
		if (near && strncmp(err.text, "duplicate object key", 20)) { /* a key of valid JSON stays */
			*near = 0;
			return calc_error_id(d, CALC_M_HF_CONFIG, path, err.line, "config.json is not valid JSON: %s (column %d; the text there "
			                  "is not shown)", err.text, err.column);
		}
		if (err.line > 0)
			return calc_error_id(d, CALC_M_HF_CONFIG, path, err.line, "config.json is not valid JSON: %s (column %d)", err.text,
			                  err.column);
		return calc_error_id(d, CALC_M_HF_CONFIG, path, 0, "cannot read config.json: %s", err.text);
	}
	if (!json_is_object(root)) {
		json_decref(root);
		free(rd.text);
		return calc_error_id(d, CALC_M_HF_CONFIG, path, 1, "config.json: expected a JSON object at the top level");
	}

	/* the family, and the object that holds the language model */
	obj = root;
	type = json_string_value(json_object_get(root, "model_type"));
	if (json_is_object(json_object_get(root, "text_config"))) {
		const char *outer = type;
		const char *tc = strstr(rd.text ? rd.text : "", "\"text_config\"");
		obj = json_object_get(root, "text_config");
		c.from = tc ? (size_t)(tc - rd.text) : 0;
		c.where = "config.json text_config";
		type = json_string_value(json_object_get(obj, "model_type"));
		for (int i = 0; !type && outer && i < NWRAPPERS; i++)
			if (!strcmp(wrappers[i][0], outer))
				type = wrappers[i][1];
		if (!type) {
			c.from = 0;
			if (outer)
				refuse_type(&c, outer, "model_type");
			else
				calc_error_id(d, CALC_M_HF_CONFIG, path, field_line(&c, "text_config"),
				           "config.json: text_config has no model_type: the language model's family is unknown");
			goto out;
		}
	}
	fam = type ? family_find(type) : NULL;
	/* a model_type that its publisher names as another family's architecture: Kimi K2
	 * ships DeepseekV3ForCausalLM under model_type "kimi_k2" (moonshotai/Kimi-K2-Instruct,
	 * docs/deploy_guidance.md: the architecture is reused, the model_type set apart for
	 * inference engines).  Read by its architectures entry, with a note; a model_type not
	 * in this list is not read by its architecture. */
	if (type && !fam) {
		static const char *const as_arch[][3] = {{"kimi_k2", "DeepseekV3ForCausalLM", "deepseek_v3"}};
		json_t *ar = json_object_get(root, "architectures");
		const char *a0 = json_is_array(ar) ? json_string_value(json_array_get(ar, 0)) : NULL;
		for (size_t i = 0; a0 && i < sizeof as_arch / sizeof as_arch[0]; i++)
			if (!strcmp(type, as_arch[i][0]) && !strcmp(a0, as_arch[i][1])) {
				fam = family_find(as_arch[i][2]);
				calc_error_at(d, path, field_line(&c, "architectures"), 0, CALC_NOTE,
				              "%s: model_type = \"%s\" is read as %s, its architectures entry %s", c.where,
				              type, as_arch[i][2], a0);
				type = as_arch[i][2];
			}
	}
	{
		struct hf_ctx top = c;
		top.from = 0;
		top.where = "config.json";
		if (refuse_fields(&top, root, fam) < 0 || (obj != root && refuse_fields(&c, obj, fam) < 0))
			goto out;
	}
	if (type && !fam) {
		refuse_type(&c, type, "model_type");
		goto out;
	}

	/* a size given as something else than an integer is named, not skipped */
	{
		const char *const *lists[] = {n_hidden, n_layers, n_heads, n_vocab, n_kv, n_ffn, n_hdim, n_pos};
		for (size_t l = 0; l < sizeof lists / sizeof lists[0]; l++)
			for (int i = 0; lists[l][i]; i++) {
				json_t *v = json_object_get(obj, lists[l][i]);
				char val[80];
				if (!v || json_is_null(v) || json_is_integer(v))
					continue;
				value_text(v, val, sizeof val);
				calc_error_id(d, CALC_M_HF_CONFIG, path, field_line(&c, lists[l][i]), "%s: %s = %s is not an integer", c.where,
				           lists[l][i], val);
			}
		if (d->nerrors > before)
			goto out;
	}
	if (!json_int(obj, n_hidden, &hidden))
		calc_error_id(d, CALC_M_HF_CONFIG, path, 0, "%s has no hidden_size (or n_embd) integer", c.where);
	if (fam && fam->hybrid) {
		/* the layers are the pattern's (NemotronHConfig: num_hidden_layers is deprecated,
		 * the count is the length of layers_block_type) */
		long given = 0;
		if ((fam->hybrid == 3   ? read_jamba(&c, obj, m)
		     : fam->hybrid == 2 ? read_qwen3_next(&c, obj, m)
		                        : read_hybrid(&c, obj, m)) < 0)
			goto out;
		layers = (long)strlen(m->hybrid);
		/* Qwen3-Next: two blocks a decoder layer */
		if (fam->hybrid >= 2 && json_int(obj, n_layers, &given) && 2 * given != layers)
			calc_error_at(d, path, field_line(&c, "num_hidden_layers"), 0, CALC_NOTE, "%s: num_hidden_layers = "
			              "%ld differs from the %ld decoder layers of layer_types, which are taken", c.where, given,
			              layers / 2);
		else if (fam->hybrid == 1 && json_int(obj, n_layers, &given) && given != layers)
			calc_error_at(d, path, field_line(&c, "num_hidden_layers"), 0, CALC_NOTE, "%s: num_hidden_layers = "
			              "%ld differs from the %ld layers of the pattern, which are taken (as NemotronHConfig "
			              "takes them)", c.where, given, layers);
	} else if (!json_int(obj, n_layers, &layers))
		calc_error_id(d, CALC_M_HF_CONFIG, path, 0, "%s has no num_hidden_layers (or n_layer) integer", c.where);
	/* Gemma 3's published configs (google/gemma-3-4b-it) leave the attention shape and the
	 * vocabulary to Gemma3TextConfig, whose defaults are 8 heads, 4 KV heads of 256 and
	 * 262,208 entries (transformers' configuration_gemma3.py): taken, each said in a note */
	int g3 = fam && !strcmp(fam->type, "gemma3_text");
	if (g3 && !json_object_get(obj, "num_attention_heads")) {
		heads = 8;
		calc_error_at(d, path, 0, 0, CALC_NOTE, "%s has no num_attention_heads: Gemma 3's default 8 "
		              "(Gemma3TextConfig) is taken", c.where);
	} else if (!json_int(obj, n_heads, &heads))
		calc_error_id(d, CALC_M_HF_CONFIG, path, 0, "%s has no num_attention_heads (or n_head) integer", c.where);
	if (!json_int(obj, n_vocab, &vocab)) {
		if (g3) {
			vocab = 262208;
			calc_error_at(d, path, 0, 0, CALC_NOTE, "%s has no vocab_size: Gemma 3's default 262208 "
			              "(Gemma3TextConfig) is taken", c.where);
		} else
			calc_error_id(d, CALC_M_HF_CONFIG, path, 0, "%s has no vocab_size integer", c.where);
	}
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
	} else if (fam && !strcmp(fam->type, "dbrx")) {
		if (!json_int(json_object_get(obj, "attn_config"), (const char *const[]){"kv_n_heads", NULL}, &kv))
			kv = heads;
	} else if (g3 && !json_object_get(obj, "num_key_value_heads")) {
		kv = 4;
		calc_error_at(d, path, 0, 0, CALC_NOTE, "%s has no num_key_value_heads: Gemma 3's default 4 "
		              "(Gemma3TextConfig) is taken", c.where);
	} else if (!json_int(obj, n_kv, &kv))
		kv = heads;
	if (g3 && !json_object_get(obj, "head_dim")) {
		hdim = 256;
		calc_error_at(d, path, 0, 0, CALC_NOTE, "%s has no head_dim: Gemma 3's default 256 (Gemma3TextConfig) "
		              "is taken", c.where);
	}
	json_int(obj, n_hdim, &hdim);
	int has_ffn = json_int(obj, n_ffn, &ffn);
	if (has_ffn && ffn <= 0)
		calc_error_id(d, CALC_M_HF_CONFIG, path, 0, "%s: intermediate_size = %ld is out of range (allowed: 1 .. 100000000; leave it "
		           "out or null for 4 x hidden_size)", c.where, ffn);
	if (d->nerrors == before && (hidden <= 0 || layers <= 0 || heads <= 0 || vocab <= 0 || kv <= 0 ||
	                             hidden > 10000000 || layers > 100000 || heads > 100000 || vocab > 100000000 ||
	                             kv > 100000))
		calc_error_id(d, CALC_M_HF_CONFIG, path, 0, "%s: hidden_size = %ld, num_hidden_layers = %ld, num_attention_heads = %ld, "
		           "num_key_value_heads = %ld, vocab_size = %ld: each must be a positive integer of sane size",
		           c.where, hidden, layers, heads, kv, vocab);
	/* GPT-2 convention: n_inner null means 4 h; computed once hidden is known to be sane */
	if (d->nerrors == before && !has_ffn)
		ffn = 4 * hidden;
	/* the optional sizes have the ranges of their plan keys (model.ffn_hidden,
	 * model.head_dim, model.max_pos), checked before they are narrowed to int */
	if (d->nerrors == before && ffn > 100000000)
		calc_error_id(d, CALC_M_HF_CONFIG, path, 0, "%s: intermediate_size = %ld is out of range (allowed: 1 .. 100000000)", c.where, ffn);
	if (d->nerrors == before && (hdim < 0 || hdim > 100000))
		calc_error_id(d, CALC_M_HF_CONFIG, path, 0, "%s: head_dim = %ld is out of range (allowed: 1 .. 100000)", c.where, hdim);
	if (d->nerrors == before && json_int(obj, n_pos, &pos) && (pos < 0 || pos > 100000000))
		calc_error_id(d, CALC_M_HF_CONFIG, path, 0, "%s: n_positions = %ld is out of range (allowed: 0 .. 100000000)", c.where, pos);
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
		/* GLM-4.5's attention_bias is on q, k and v only (Glm4MoeAttention: o_proj without):
		 * (a + 2 g) d per layer, left out as Qwen2's */
		if ((json_flag(&c, obj, "attention_bias", 0) > 0 && !(fam && !strcmp(fam->type, "glm4_moe"))) ||
		    json_flag(&c, obj, "mlp_bias", 0) > 0)
			bias = 1;
		if (d->nerrors > before)
			goto out;
		{
			/* read_hybrid's pattern, Mamba shape and MoE, kept through the reset */
			struct calc_mamba mb = m->mamba;
			struct calc_gdn gd = m->gdn;
			struct calc_mamba1 m1 = m->mamba1;
			struct calc_moe mo = m->moe;
			int gate = m->attn_gate;
			char hy[sizeof m->hybrid];
			memcpy(hy, m->hybrid, sizeof hy);
			memset(m, 0, sizeof *m);
			if (fam && fam->hybrid) {
				m->mamba = mb;
				m->gdn = gd;
				m->mamba1 = m1;
				m->attn_gate = gate;
				m->moe = mo;
				memcpy(m->hybrid, hy, sizeof hy);
			}
		}
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
		if (fam && fam->moe)
			read_moe(&c, obj, fam, m);
		if (fam && fam->mla)
			read_mla(&c, obj, m);
		read_window(&c, obj, fam, m);
		if (fam && fam->hybrid) {
			/* the layer sequence of the pattern read_hybrid checked, with the MLP width */
			char msg[CALC_LAYOUT_MAX + 256];
			calc_model_set_hybrid(m, msg, sizeof msg);
		}
		/* a multimodal config: what is planned is the language model of text_config;
		 * the vision tower (vision_config) is left out, and said so */
		if (obj != root && json_is_object(json_object_get(root, "vision_config"))) {
			struct hf_ctx top = c;
			top.from = 0;
			calc_error_at(d, path, field_line(&top, "vision_config"), 0, CALC_NOTE,
			              "config.json: vision_config: the vision encoder is not counted (the language model of "
			              "text_config is planned)");
		}
	}
out:
	json_decref(root);
	free(rd.text);
	return d->nerrors > before ? -1 : 0;
}
