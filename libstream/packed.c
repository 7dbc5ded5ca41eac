/* Parsed records packed small and unpacked again. */
#include "packed.h"

void ls_record_pack(const struct ls_record *rec, struct ls_packed *p, struct ls_packed_field *out)
{
	uint32_t n = 0;

	for (uint32_t w = 0; w < LS_PRESENT_WORDS; w++)
		for (uint64_t bits = rec->present[w]; bits; bits &= bits - 1) {
			uint32_t f = w * 64 + (uint32_t)__builtin_ctzll(bits);

			out[n++] = (struct ls_packed_field){ rec->key[f], rec->off[f], f };
		}
	*p = (struct ls_packed){ rec->len, rec->nfields, (uint32_t)((const uint8_t *)rec->kind_str - rec->raw),
				 rec->kind_len, (uint32_t)rec->kind, n };
}

void ls_record_unpack(struct ls_record *rec, const uint8_t *raw, const struct ls_packed *p,
		      const struct ls_packed_field *f, bool skim)
{
	/* packed in field order: "k", where located, comes first */
	uint32_t n = !skim ? p->nloc : p->nloc && f[0].f == LS_F_K;

	rec->raw = raw;
	rec->len = p->len;
	rec->nfields = p->nfields;
	rec->kind = (enum ls_kind)p->kind;
	rec->kind_str = (const char *)raw + p->kind_off;
	rec->kind_len = p->kind_len;
	for (uint32_t w = 0; w < LS_PRESENT_WORDS; w++)
		rec->present[w] = 0;
	for (uint32_t i = 0; i < n; i++) {
		rec->present[f[i].f / 64] |= UINT64_C(1) << (f[i].f % 64);
		rec->key[f[i].f] = f[i].key;
		rec->off[f[i].f] = f[i].off;
	}
}
