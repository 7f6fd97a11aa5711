/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The cross-check of the replayed aes-586 figures (bench/x86mca.pl) on a
 * kernel that runs i386 programs: our aes-586 and OpenSSL 3.0's own
 * (its five globals renamed ossl586_AES_*, bench/x86mca/x86mca.mk) called
 * directly in 32-bit mode, in one process, on the same paths as the
 * replayed table:
 *   sse   compact code with SSE (MMX MixColumns): our AES_encrypt,
 *         AES_decrypt and aes586_cbc_encrypt_compact; OpenSSL's AES_* with
 *         OPENSSL_ia32cap_P word 0 bit 28 set (CBC on its compact code)
 *   int   the same with SSE (word 0 bit 25) cleared: integer MixColumns
 *   full  our aes586_*_full; OpenSSL's AES_cbc_encrypt with bit 28 clear
 *         (its T-tables from 512 bytes) and, as it has no full-table
 *         one-block entry, its AES_encrypt/AES_decrypt with SSE
 * Both read OPENSSL_ia32cap_P at every call, so the bits are set between
 * calls.  ecb = one one-block call repeated on the same buffers; cbc = one
 * call of CBC_BYTES, as the replays run them.
 *
 *   aes586_direct NAME [CBC_BYTES]   (default 512, a multiple of 16, 512..4096;
 *                                    no arguments: the usage, exit 2)
 *   prints a row per path, mode and key size: TSC cycles per byte of ours
 *   (labelled NAME, the aes-586 variant linked in) and of OpenSSL's, the
 *   fastest of SAMPLES samples, the two timed in turn, and the ratio
 *   OpenSSL's / ours; then the lowest ratio and its row.  Every call's
 *   output is first checked against the other's; exit 1 if they differ.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/aes.h>

#include "aes/aes586.h"
#include "cpuid/ia32cap.h"
#include "../tsc.h"

void ossl586_AES_encrypt(const unsigned char *in, unsigned char *out, const AES_KEY *key);
void ossl586_AES_decrypt(const unsigned char *in, unsigned char *out, const AES_KEY *key);
void ossl586_AES_cbc_encrypt(const unsigned char *in, unsigned char *out, size_t len,
                             const AES_KEY *key, unsigned char *ivec, const int enc);

typedef void block_fn(const unsigned char *in, unsigned char *out, const AES_KEY *key);
typedef void cbc_fn(const unsigned char *in, unsigned char *out, size_t len,
                    const AES_KEY *key, unsigned char *ivec, const int enc);

#define HTT (1u << 28)
#define SSE (1u << 25)
#define MAX_BYTES 4096
#define SAMPLES 301
#define BYTES_PER_SAMPLE 8192

static const struct side {
    block_fn *encrypt, *decrypt;
    cbc_fn *cbc;
} ours[3] = {
    { AES_encrypt, AES_decrypt, aes586_cbc_encrypt_compact },
    { AES_encrypt, AES_decrypt, aes586_cbc_encrypt_compact },
    { aes586_encrypt_full, aes586_decrypt_full, aes586_cbc_encrypt_full },
}, ossl = { ossl586_AES_encrypt, ossl586_AES_decrypt, ossl586_AES_cbc_encrypt };

static const char *const path_name[3] = { "sse", "int", "full" };
static const char *const mode_name[4] = { "ecb-enc", "ecb-dec", "cbc-enc", "cbc-dec" };

static unsigned char in[MAX_BYTES], out[2][MAX_BYTES], iv[16];
static AES_KEY ekey, dkey;
static unsigned cap0;

/* OPENSSL_ia32cap_P word 0 for one side on one path. */
static void set_cap(int path, int openssl)
{
    unsigned c = cap0 & ~HTT;
    if (path == 1)
        c &= ~SSE;
    if (openssl && path != 2)
        c |= HTT;
    OPENSSL_ia32cap_P[0] = c;
}

/* One call (ecb: reps one-block calls) of mode m by side s into out[k]. */
static void run(const struct side *s, int m, unsigned bytes, unsigned reps, int k)
{
    for (unsigned r = 0; r < reps; r++) {
        switch (m) {
        case 0: s->encrypt(in, out[k], &ekey); break;
        case 1: s->decrypt(in, out[k], &dkey); break;
        default:
            memset(iv, 0x5a, sizeof(iv));
            s->cbc(in, out[k], bytes, m == 2 ? &ekey : &dkey, iv, m == 2);
        }
    }
}

int main(int argc, char **argv)
{
    unsigned bytes = argc > 2 ? (unsigned)atoi(argv[2]) : 512;
    unsigned char user[32];
    double low = 0;
    char low_row[64] = "";
    if (argc < 2 || argc > 3 || bytes < 512 || bytes > MAX_BYTES || bytes % 16) {
        fprintf(stderr, "usage: aes586_direct NAME [CBC_BYTES] (a multiple of 16, 512..%d)\n",
                MAX_BYTES);
        return 2;
    }
    printf("  %-14s %-7s %4s %9s %9s %8s\n", "ours", "mode", "bits", "ours c/B", "OpenSSL", "vs OSSL");
    cap0 = OPENSSL_ia32cap_P[0];
    for (unsigned i = 0; i < sizeof(user); i++)
        user[i] = (unsigned char)(i * 37 + 11);
    for (unsigned i = 0; i < sizeof(in); i++)
        in[i] = (unsigned char)(i * 101 + 7);
    static const int bits[2] = { 128, 256 };
    for (int b = 0; b < 2; b++) {
        if (AES_set_encrypt_key(user, bits[b], &ekey) || AES_set_decrypt_key(user, bits[b], &dkey))
            return 1;
        for (int p = 0; p < 3; p++) {
            for (int m = 0; m < 4; m++) {
                unsigned len = m < 2 ? 16 : bytes, reps = BYTES_PER_SAMPLE / len;
                set_cap(p, 0);
                run(&ours[p], m, bytes, 1, 0);
                set_cap(p, 1);
                run(&ossl, m, bytes, 1, 1);
                if (memcmp(out[0], out[1], len) != 0) {
                    fprintf(stderr, "aes586_direct: %s %s AES-%d: ours and OpenSSL's differ\n",
                            path_name[p], mode_name[m], bits[b]);
                    return 1;
                }
                double best[2] = { 0, 0 };
                for (int i = 0; i < SAMPLES; i++) {
                    for (int k = 0; k < 2; k++) {
                        set_cap(p, k);
                        uint64_t t0 = tsc_start();
                        run(k ? &ossl : &ours[p], m, bytes, reps, k);
                        uint64_t t1 = tsc_stop();
                        double c = (double)(t1 - t0) / ((double)reps * len);
                        if (i == 0 || c < best[k])
                            best[k] = c;
                    }
                }
                char name[40], row[64];
                snprintf(name, sizeof(name), "%.30s-%s", argv[1], path_name[p]);
                snprintf(row, sizeof(row), "%s %s AES-%d", name, mode_name[m], bits[b]);
                printf("  %-14s %-7s %4d %9.2f %9.2f %8.2f\n", name, mode_name[m], bits[b], best[0],
                       best[1], best[1] / best[0]);
                if (!low_row[0] || best[1] / best[0] < low) {
                    low = best[1] / best[0];
                    memcpy(low_row, row, sizeof(row));
                }
            }
        }
    }
    OPENSSL_ia32cap_P[0] = cap0;
    printf("  %s vs OpenSSL's aes-586, lowest ratio %.3f (%s)\n", argv[1], low, low_row);
    return 0;
}
