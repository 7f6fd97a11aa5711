/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Linux tcrypt's SHA-1 speed table for one path, built -m32 (with
 * sha1-586 and OpenSSL 3.0's own sha1-586 object linked in) or 64-bit
 * (sha1-x86_64 only), and run directly: each (block, update) row is
 * timed as tcrypt does it (init, block/update updates, final).
 *
 *   sha1_tcrypt --list          NAME<TAB>FORCE_MASK per registry entry
 *   sha1_tcrypt NAME            rows: BLOCK UPDATE C OURS [OPENSSL]
 *                               (TSC cycles per byte of the block)
 *
 * Run with OPENSSL_ia32cap set to NAME's force mask (bench/x86mca/
 * sha1_tcrypt.pl does), OpenSSL's dispatcher takes the same path as NAME.
 * The three are timed in turn in each round of samples, so the columns of
 * a row share the machine's conditions; each figure is the fastest sample
 * (as bench/x86mca/native32.c takes: short samples, the least disturbed by
 * other processes on a shared machine).  Before any timing every row's digest is checked against the
 * C's; a mismatch is an error (exit 1).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impl.h"
#include "../tsc.h"

#ifdef SHA1_TCRYPT_OPENSSL
/* OpenSSL 3.0's sha1-586 object, its one global renamed (x86mca.mk). */
void ossl586_sha1_block_data_order(SHA_CTX *c, const void *p, size_t n);
#define COLUMNS 3
#else
#define COLUMNS 2
#endif

/* Linux tcrypt's sha1 speed template: (bytes per block, bytes per update). */
static const unsigned rows[][2] = {
    { 16, 16 }, { 64, 16 }, { 64, 64 }, { 256, 16 }, { 256, 64 }, { 256, 256 },
    { 1024, 16 }, { 1024, 256 }, { 1024, 1024 }, { 2048, 16 }, { 2048, 256 },
    { 2048, 1024 }, { 2048, 2048 }, { 4096, 16 }, { 4096, 256 }, { 4096, 1024 },
    { 4096, 4096 }, { 8192, 16 }, { 8192, 256 }, { 8192, 1024 }, { 8192, 4096 },
    { 8192, 8192 },
};
#define NROWS (sizeof(rows) / sizeof(rows[0]))
#define SAMPLES 101
#define BYTES_PER_SAMPLE 16384

static unsigned char msg[8192];

static void tcrypt_digest(sha1_block_f block, unsigned len, unsigned update,
                          unsigned char md[20])
{
    SHA_CTX c;
    SHA1_Init(&c);
    for (unsigned off = 0; off < len; off += update)
        casm_sha1_update_with(&c, msg + off, update, block);
    casm_sha1_final_with(md, &c, block);
}

int main(int argc, char **argv)
{
    char mask[CASM_FORCE_MASK_MAX];
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (size_t i = 0; i < casm_sha1_impl_count; i++) {
            const char *m = casm_force_mask_text(casm_sha1_impls[i]->force_clear, mask);
            printf("%s\t%s\n", casm_sha1_impls[i]->name, m ? m : "");
        }
        return 0;
    }
    const struct casm_sha1_impl *impl = argc == 2 ? casm_sha1_impl_by_name(argv[1]) : NULL;
    if (impl == NULL) {
        fprintf(stderr, "usage: sha1_tcrypt --list | NAME (a registry entry: see --list)\n");
        return 2;
    }
    if (!casm_cpu_has(impl->need)) {
        printf("skipped: %s needs %s\n", impl->name, impl->need_name);
        return 0;
    }
    sha1_block_f fn[COLUMNS] = { sha1_block_data_order_c, impl->block,
#ifdef SHA1_TCRYPT_OPENSSL
                                 ossl586_sha1_block_data_order,
#endif
    };
    for (size_t i = 0; i < sizeof(msg); i++)
        msg[i] = (unsigned char)(i * 131 + 7);

    for (size_t r = 0; r < NROWS; r++) {
        unsigned len = rows[r][0], update = rows[r][1];
        unsigned char want[20], got[20];
        tcrypt_digest(fn[0], len, update, want);
        for (int k = 1; k < COLUMNS; k++) {
            tcrypt_digest(fn[k], len, update, got);
            if (memcmp(want, got, 20) != 0) {
                fprintf(stderr, "sha1_tcrypt: %s column %d differs from the C at %u/%u\n",
                        impl->name, k, len, update);
                return 1;
            }
        }
    }

    for (size_t r = 0; r < NROWS; r++) {
        unsigned len = rows[r][0], update = rows[r][1];
        unsigned reps = BYTES_PER_SAMPLE / len;
        double best[COLUMNS];
        unsigned char md[20];
        for (int w = 0; w < 3; w++)
            for (int k = 0; k < COLUMNS; k++)
                tcrypt_digest(fn[k], len, update, md);
        for (int i = 0; i < SAMPLES; i++) {
            for (int k = 0; k < COLUMNS; k++) {
                uint64_t t0 = tsc_start();
                for (unsigned n = 0; n < reps; n++)
                    tcrypt_digest(fn[k], len, update, md);
                uint64_t t1 = tsc_stop();
                double c = (double)(t1 - t0) / ((double)reps * len);
                if (i == 0 || c < best[k])
                    best[k] = c;
            }
        }
        printf("%u %u", len, update);
        for (int k = 0; k < COLUMNS; k++)
            printf(" %.2f", best[k]);
        printf("\n");
    }
    return 0;
}
