/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The dm-crypt table's CTR and OCB calls, shared by the 32-bit program
 * that records them (trace32_modes.c) and the 64-bit harness that replays
 * and checks them (native32_modes.c), so that both make the same calls on
 * the same bytes.  One call is one sector of whole blocks; what a stream
 * carries from sector to sector lives in memory the caller passes:
 *   CTR: the 16-byte counter block, whose low 32 bits (big-endian) step by
 *        the sector's blocks after the ctr32 call, as casm_aes_ctr does for
 *        whole blocks (the counter word stored alone); a run never wraps
 *        them (2^32 blocks are 64 GiB);
 *   OCB: struct dm_ocb, the running Offset and Checksum the ocb128_f call
 *        updates in place, L_0 .. L_31 and the number of the next block,
 *        passed as start_block_num (RFC 7253 4.2: blocks count from 1);
 *        the first call's is DMCRYPT_OCB_FIRST (default 1).
 * Fixed-width fields only: the 32-bit and 64-bit code see one layout.
 */
#ifndef BENCH_X86MCA_DM_MODES_H
#define BENCH_X86MCA_DM_MODES_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/modes.h>

#include "impl.h"
#include "modes/block_util.h"

#define DM_OCB_L 32                 /* ntz of any 32-bit block number */

struct dm_ocb {
    unsigned char offset[16], checksum[16];
    unsigned char l[DM_OCB_L][16];
    uint32_t next;
};

/* The first call's block number: DMCRYPT_OCB_FIRST (dmcrypt.pl
 * --ocb-first), else 1.  Both programs read it, so the replays start where
 * the trace did. */
static inline uint32_t dm_ocb_first(void)
{
    const char *s = getenv("DMCRYPT_OCB_FIRST");
    return s && *s ? (uint32_t)strtoul(s, NULL, 10) : 1;
}

/* What a mode name says, for both programs: "-dec" modes decrypt (their
 * key1 is a decryption schedule); XTS modes take a partial last block. */
static inline int dm_mode_decrypts(const char *mode)
{
    size_t n = strlen(mode);
    return n > 4 && strcmp(mode + n - 4, "-dec") == 0;
}

static inline int dm_mode_steals(const char *mode)
{
    return strncmp(mode, "xts", 3) == 0;
}

static inline void dm_ctr_call(ctr128_f ctr32, const unsigned char *in, unsigned char *out,
                               size_t len, const void *key, unsigned char counter[16])
{
    uint32_t low = load_be32(counter + 12);
    ctr32(in, out, len / 16, key, counter);
    store_be32(counter + 12, low + (uint32_t)(len / 16));
}

static inline void dm_ocb_call(ocb128_f ocb, const unsigned char *in, unsigned char *out,
                               size_t len, const void *key, struct dm_ocb *s)
{
    ocb(in, out, len / 16, key, s->next, s->offset, (const unsigned char (*)[16])s->l,
        s->checksum);
    s->next += (uint32_t)(len / 16);
}

#endif
