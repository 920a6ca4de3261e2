/*
 * cache.c -- the planner's results kept between runs of trainplan-report, in the file
 * search-cache of the output folder (--out-dir; `--no-cache` reads and writes none).
 *
 * A report asks the planner for the plan and its `with` scenarios: for the DeepSeek-V3
 * plan ten searches over 4.76 M configurations each, about 1.8 s of CPU, against a few
 * tens of milliseconds for everything else the report does.  A report is rendered again
 * and again from one plan while its chapters are written, and a search is a function of
 * its key (calc_search_store, calc/search.h): the plan as it searches, what the search
 * keeps, the schedule table's generation, and this executable's identity -- its GNU
 * build ID, the linker's hash of the whole file, so that a result is never read by a
 * build other than the one that computed it.  Without a build ID nothing is kept.
 *
 * The file: a first line naming it, the build ID (its length, then its bytes), the
 * entries (key length, value length, key, value; lengths as 4-byte integers in this
 * machine's order), and a 64-bit hash of every byte before it (hash64).  A file that is
 * not whole, not of this build, or not in this form is ignored (searched anew, and
 * replaced).  It is written, whole or not at all (calc_output_write), only by a run that
 * searched something not in it, and then holds what that run read or searched: results
 * of plans no longer rendered drop out.
 */
#define _GNU_SOURCE /* dl_iterate_phdr */
#include <elf.h>
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "../calc/diag.h"
#include "../calc/search.h"

#define CACHE_NAME "search-cache"
static const char cache_head[] = "trainplan search cache 1\n";

struct entry {
	uint64_t hash; /* of the key */
	unsigned char *key, *val;
	uint32_t klen, vlen;
	int used;      /* read or stored by this run: written back */
};

struct rpt_cache {
	char path[4096];
	unsigned char build[64];
	size_t nbuild;
	pthread_mutex_t lock;
	int n, cap;
	struct entry *e;
	int added;     /* results searched by this run */
};

/* A 64-bit hash of n bytes at p from h, eight bytes a step (a multiply and a shift
 * each: reading the default plan's 0.8 MB file took 1.7 M instructions, 6.3 M with
 * FNV-1a's byte a step, callgrind).  Not a defence against anyone: it finds a file cut short or
 * changed by accident, and the keys are compared whole besides. */
static uint64_t hash64(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t w;
	for (; n >= 8; b += 8, n -= 8) {
		memcpy(&w, b, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ull;
		h ^= h >> 29;
	}
	for (; n; b++, n--)
		h = (h ^ *b) * 0x100000001b3ull;
	return h;
}
#define HASH0 0xcbf29ce484222325ull

/* The GNU build ID of the executable (its PT_NOTE NT_GNU_BUILD_ID) into c->build. */
static int build_note(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	struct rpt_cache *c = arg;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_NOTE)
			continue;
		const unsigned char *p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr), *end = p + ph->p_memsz;
		while (p + sizeof(ElfW(Nhdr)) <= end) {
			const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)p;
			size_t name = (nh->n_namesz + 3) & ~(size_t)3, desc = (nh->n_descsz + 3) & ~(size_t)3;
			const unsigned char *nm = p + sizeof *nh, *ds = nm + name;
			if (ds + desc > end)
				break;
			if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 && !memcmp(nm, "GNU", 4) && nh->n_descsz > 0 &&
			    nh->n_descsz <= sizeof c->build) {
				memcpy(c->build, ds, nh->n_descsz);
				c->nbuild = nh->n_descsz;
				return 1;
			}
			p = ds + desc;
		}
	}
	return 1; /* the executable is the first object: no other is read */
}

static struct entry *find(struct rpt_cache *c, const void *key, size_t klen, uint64_t h)
{
	for (int i = 0; i < c->n; i++)
		if (c->e[i].hash == h && c->e[i].klen == klen && !memcmp(c->e[i].key, key, klen))
			return &c->e[i];
	return NULL;
}

static struct entry *add(struct rpt_cache *c)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 16;
		c->e = xrealloc(c->e, (size_t)c->cap * sizeof *c->e);
	}
	struct entry *e = &c->e[c->n++];
	memset(e, 0, sizeof *e);
	return e;
}

static const void *cache_get(void *arg, const void *key, size_t klen, size_t *vlen)
{
	struct rpt_cache *c = arg;
	uint64_t h = hash64(HASH0, key, klen);
	const void *v = NULL;
	pthread_mutex_lock(&c->lock);
	struct entry *e = find(c, key, klen, h);
	if (e) {
		e->used = 1;
		*vlen = e->vlen;
		v = e->val; /* its block stays until rpt_cache_free (cache_put keeps it) */
	}
	pthread_mutex_unlock(&c->lock);
	return v;
}

static void cache_put(void *arg, const void *key, size_t klen, const void *val, size_t vlen)
{
	struct rpt_cache *c = arg;
	if (klen > UINT32_MAX || vlen > UINT32_MAX)
		return;
	uint64_t h = hash64(HASH0, key, klen);
	pthread_mutex_lock(&c->lock);
	struct entry *e = find(c, key, klen, h); /* one the file had that did not read back: */
	if (e) {                                 /* kept, never found again nor written */
		e->hash = 0;
		e->klen = 0;
		e->used = 0;
	}
	e = add(c);
	e->hash = h;
	e->key = xmalloc(klen);
	memcpy(e->key, key, klen);
	e->val = xmalloc(vlen);
	memcpy(e->val, val, vlen);
	e->klen = (uint32_t)klen;
	e->vlen = (uint32_t)vlen;
	e->used = 1;
	c->added = 1;
	pthread_mutex_unlock(&c->lock);
}

/* The entries of the file's bytes b (n) into c; nothing where they are not a whole file
 * of this build. */
static void read_entries(struct rpt_cache *c, const unsigned char *b, size_t n)
{
	size_t at = sizeof cache_head - 1, nh = sizeof cache_head - 1;
	uint32_t nb, kl, vl;
	uint64_t sum;
	if (n < nh + 4 + 8 || memcmp(b, cache_head, nh))
		return;
	memcpy(&sum, b + n - 8, 8);
	if (sum != hash64(HASH0, b, n - 8))
		return;
	n -= 8;
	memcpy(&nb, b + at, 4);
	at += 4;
	if (nb != c->nbuild || n - at < nb || memcmp(b + at, c->build, nb))
		return;
	at += nb;
	int first = c->n;
	while (at < n) {
		if (n - at < 8)
			goto bad;
		memcpy(&kl, b + at, 4);
		memcpy(&vl, b + at + 4, 4);
		at += 8;
		if (n - at < (size_t)kl + vl)
			goto bad;
		struct entry *e = add(c);
		e->klen = kl;
		e->vlen = vl;
		e->key = xmalloc(kl ? kl : 1);
		memcpy(e->key, b + at, kl);
		e->val = xmalloc(vl ? vl : 1);
		memcpy(e->val, b + at + kl, vl);
		e->hash = hash64(HASH0, e->key, kl);
		at += (size_t)kl + vl;
	}
	return;
bad:
	while (c->n > first) {
		c->n--;
		free(c->e[c->n].key);
		free(c->e[c->n].val);
	}
}

struct rpt_cache *rpt_cache_open(const char *dir)
{
	struct rpt_cache *c = xcalloc(1, sizeof *c);
	dl_iterate_phdr(build_note, c);
	if (!c->nbuild || (size_t)snprintf(c->path, sizeof c->path, "%s/%s", dir, CACHE_NAME) >= sizeof c->path) {
		free(c);
		return NULL;
	}
	pthread_mutex_init(&c->lock, NULL);
	FILE *f = fopen(c->path, "rb");
	if (f) {
		unsigned char *b = NULL;
		size_t n = 0, cap = 0, got;
		do {
			if (n == cap)
				b = xrealloc(b, cap = cap ? 2 * cap : 1 << 16);
			got = fread(b + n, 1, cap - n, f);
			n += got;
		} while (got > 0);
		if (!ferror(f))
			read_entries(c, b, n);
		fclose(f);
		free(b);
	}
	struct calc_search_store s = {c, cache_get, cache_put, c->build, c->nbuild};
	calc_search_store_set(&s);
	return c;
}

int rpt_cache_output(struct rpt_cache *c, struct calc_output *out)
{
	if (!c)
		return 0;
	pthread_mutex_lock(&c->lock); /* a search of the pool may still store one */
	if (!c->added) {
		pthread_mutex_unlock(&c->lock);
		return 0;
	}
	size_t n = sizeof cache_head - 1 + 4 + c->nbuild + 8;
	for (int i = 0; i < c->n; i++)
		if (c->e[i].used)
			n += 8 + (size_t)c->e[i].klen + c->e[i].vlen;
	unsigned char *b = xmalloc(n), *at = b;
	uint32_t nb = (uint32_t)c->nbuild;
	memcpy(at, cache_head, sizeof cache_head - 1);
	at += sizeof cache_head - 1;
	memcpy(at, &nb, 4);
	memcpy(at + 4, c->build, c->nbuild);
	at += 4 + c->nbuild;
	for (int i = 0; i < c->n; i++)
		if (c->e[i].used) {
			memcpy(at, &c->e[i].klen, 4);
			memcpy(at + 4, &c->e[i].vlen, 4);
			memcpy(at + 8, c->e[i].key, c->e[i].klen);
			memcpy(at + 8 + c->e[i].klen, c->e[i].val, c->e[i].vlen);
			at += 8 + (size_t)c->e[i].klen + c->e[i].vlen;
		}
	pthread_mutex_unlock(&c->lock);
	uint64_t sum = hash64(HASH0, b, (size_t)(at - b));
	memcpy(at, &sum, 8);
	out->path = c->path;
	out->data = (const char *)b;
	out->len = n;
	return 1;
}

void rpt_cache_free(struct rpt_cache *c)
{
	if (!c)
		return;
	calc_search_store_set(NULL);
	for (int i = 0; i < c->n; i++) {
		free(c->e[i].key);
		free(c->e[i].val);
	}
	free(c->e);
	pthread_mutex_destroy(&c->lock);
	free(c);
}
