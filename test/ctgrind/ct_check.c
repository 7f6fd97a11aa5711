/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Constant-time evidence under valgrind memcheck: the key and the data of
 * one path are marked undefined, so that memcheck reports every branch and
 * every memory address that depends on them; outputs are marked defined
 * again before anything reads them.  tools/ct-report.pl runs this program
 * under valgrind, once per path, and reads the log.
 *
 *   ct_check --list            KIND/NAME<TAB>FORCE_MASK<TAB>HAS<TAB>OPS for
 *                              each path (HAS: 1 if this CPU has what it
 *                              needs; OPS: how many operations it has)
 *   ct_check --path KIND/NAME [--from N]
 *   ct_check --probes          runs every instruction probe: NAME<TAB>WHAT<TAB>
 *                              ran or sigill
 *
 * KIND is aes or sha1 (the registry's entries, called directly whatever
 * the CPU or valgrind's CPUID says) or control: "leak", a function with
 * two secret-indexed loads and one secret-dependent branch, "clean", one
 * with neither, and "inert", one whose output ignores the secret, so the
 * report shows the method finding what it must, nothing else, and a
 * function that computes nothing from the secret not passing as clean.
 *
 * The probes say which instruction classes valgrind's decoder (the same
 * for every tool) handles, whatever the paths happen to contain.
 *
 * A path is a fixed list of operations, numbered from 0 and the same for
 * every path of a kind.  For each, on stdout:
 *   op N NAME digest HEX    the outputs' digest (FNV-1a, 64 bits)
 *   op N NAME n/a           the path has no such function
 *   op N NAME sigill        an instruction could not be executed (or,
 *                           under valgrind, decoded): SIGILL is caught
 *                           and the next operation runs
 *   op N NAME untainted     an output did not depend on the secret: the
 *                           function under test did not compute it
 * and into valgrind's log (VALGRIND_PRINTF) "ct-begin N NAME" and
 * "ct-end N NAME" around the calls: errors between them are the
 * operation's (up to a "ct-sigill").  --from N starts at operation N (after one that valgrind
 * could not decode).  Outside valgrind the client requests do nothing
 * and the digests are those of a native run.  Exit status 1 if an output
 * was untainted, 2 for bad usage.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/memcheck.h>

#include "impl.h"

#define MAX_BLOCKS 40
#define NOPS(a) (sizeof(a) / sizeof(a[0]))
#define MAX_LEN (16 * MAX_BLOCKS)

/* --- SIGILL: the operation ends, the run goes on ------------------------- */

static sigjmp_buf on_sigill;

/* The marker ends the operation's window in valgrind's log: what the jump
 * out of the interrupted code does there is not the operation's. */
static void caught_sigill(int sig)
{
    (void)sig;
    VALGRIND_PRINTF("ct-sigill\n");
    siglongjmp(on_sigill, 1);
}

static void catch_sigill(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = caught_sigill;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_NODEFER;
    sigaction(SIGILL, &sa, NULL);
}

/* Calls fn; 0, or 1 if it raised SIGILL. */
static int guarded(void (*fn) (int, int), int a, int b)
{
    if (sigsetjmp(on_sigill, 1) != 0)
        return 1;
    fn(a, b);
    return 0;
}

/* --- secrets, outputs and the operation's digest ------------------------ */

static unsigned char key[64];                   /* two keys for XTS */
static unsigned char data[MAX_LEN];             /* plaintext / message */
static uint64_t digest;
static int untainted;

static void fill(unsigned char *p, size_t n, uint32_t seed)
{
    uint32_t x = seed * 2654435761u + 1;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        p[i] = (unsigned char)(x >> 24);
    }
}

static void secret(void *p, size_t n)
{
    VALGRIND_MAKE_MEM_UNDEFINED(p, n);
}

/*
 * An output: under memcheck every byte must carry an undefined bit (the
 * secret reached it), then it is declassified and folded into the digest.
 */
static void output(void *p, size_t n)
{
    static unsigned char vbits[MAX_LEN];
    unsigned char *b = p;
    while (n > 0) {
        size_t k = n < sizeof(vbits) ? n : sizeof(vbits);
        if (VALGRIND_GET_VBITS(b, vbits, k) == 1) {
            for (size_t i = 0; i < k; i++)
                if (vbits[i] == 0)
                    untainted = 1;
        }
        VALGRIND_MAKE_MEM_DEFINED(b, k);
        for (size_t i = 0; i < k; i++)
            digest = (digest ^ b[i]) * 1099511628211u;
        b += k;
        n -= k;
    }
}

/* --- the AES operations ------------------------------------------------- */

static const struct casm_aes_impl *aes;
static AES_KEY ek, dk, tk;          /* data key (both ways), XTS tweak key */
static unsigned char out[MAX_LEN];

/* Block counts reaching every main loop (4, 6, 8 and 16 wide) and tail. */
static const size_t counts[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 17, 35 };
#define NCOUNTS (sizeof(counts) / sizeof(counts[0]))
/* XTS byte lengths: whole blocks and ciphertext stealing. */
static const size_t xts_lens[] = { 16, 17, 83, 96, 127, 208, 575 };
#define NXTS (sizeof(xts_lens) / sizeof(xts_lens[0]))

static void schedule(int bits, int dec)
{
    memset(&ek, 0, sizeof(ek));
    memset(&dk, 0, sizeof(dk));
    memset(&tk, 0, sizeof(tk));
    aes->set_encrypt_key(key, bits, &ek);
    if (dec)
        aes->set_decrypt_key(key, bits, &dk);
    aes->set_encrypt_key(key + 32, bits, &tk);
}

static void op_setkey(int bits, int dec)
{
    schedule(bits, dec);
    if (dec)
        output(dk.rd_key, 16 * (size_t)(dk.rounds + 1));
    else
        output(ek.rd_key, 16 * (size_t)(ek.rounds + 1));
}

static void op_block(int bits, int dec)
{
    schedule(bits, dec);
    for (size_t i = 0; i < 4; i++) {
        if (dec)
            aes->decrypt(data + 16 * i, out, &dk);
        else
            aes->encrypt(data + 16 * i, out, &ek);
        output(out, 16);
    }
}

static void op_ecb(int bits, int dec)
{
    schedule(bits, dec);
    for (size_t c = 0; c < NCOUNTS; c++) {
        size_t len = 16 * counts[c];
        if (aes->ecb != NULL) {
            aes->ecb(data, out, len, dec ? &dk : &ek, !dec);
        } else {
            for (size_t i = 0; i < len; i += 16) {
                if (dec)
                    aes->decrypt(data + i, out + i, &dk);
                else
                    aes->encrypt(data + i, out + i, &ek);
            }
        }
        output(out, len);
    }
}

static void op_cbc(int bits, int dec)
{
    schedule(bits, dec);
    for (size_t c = 0; c < NCOUNTS; c++) {
        size_t len = 16 * counts[c];
        unsigned char iv[16];
        fill(iv, 16, 7);                    /* public */
        if (aes->cbc != NULL)
            aes->cbc(data, out, len, dec ? &dk : &ek, iv, !dec);
        else if (dec)
            CRYPTO_cbc128_decrypt(data, out, len, &dk, iv, aes->decrypt);
        else
            CRYPTO_cbc128_encrypt(data, out, len, &ek, iv, aes->encrypt);
        output(out, len);
        output(iv, 16);
    }
}

static void op_ctr32(int bits, int dec)
{
    (void)dec;
    schedule(bits, 0);
    for (size_t c = 0; c < NCOUNTS; c++) {
        unsigned char iv[16];
        fill(iv, 16, 11);                   /* public, far from a wrap */
        iv[12] = 0;
        if (aes->ctr32 != NULL) {
            aes->ctr32(data, out, counts[c], &ek, iv);
        } else {
            unsigned char ks[16];
            unsigned int num = 0;
            CRYPTO_ctr128_encrypt(data, out, 16 * counts[c], &ek, iv, ks, &num,
                                  aes->encrypt);
        }
        output(out, 16 * counts[c]);
    }
}

static void op_xts(int bits, int dec)
{
    schedule(bits, dec);
    for (size_t c = 0; c < NXTS; c++) {
        unsigned char iv[16];
        fill(iv, 16, 13);                   /* the sector number: public */
        xts128_f bulk = dec ? aes->xts_dec : aes->xts_enc;
        if (bulk != NULL) {
            bulk(data, out, xts_lens[c], dec ? &dk : &ek, &tk, iv);
        } else {
            XTS128_CONTEXT x = { dec ? (void *)&dk : (void *)&ek, &tk,
                                 dec ? aes->decrypt : aes->encrypt, aes->encrypt };
            CRYPTO_xts128_encrypt(&x, iv, data, out, xts_lens[c], !dec);
        }
        output(out, xts_lens[c]);
    }
}

static void op_ccm64(int bits, int dec)
{
    schedule(bits, 0);
    ccm128_f bulk = dec ? aes->ccm64_dec : aes->ccm64_enc;
    for (size_t c = 0; c < NCOUNTS; c++) {
        unsigned char iv[16], cmac[16];
        fill(iv, 16, 17);                   /* nonce and counter: public */
        fill(cmac, 16, 19);
        secret(cmac, 16);                   /* E_K(B0) and on: secret */
        bulk(data, out, counts[c], &ek, iv, cmac);
        output(out, 16 * counts[c]);
        output(cmac, 16);
    }
}

static void op_ocb(int bits, int dec)
{
    schedule(bits, dec);
    ocb128_f bulk = dec ? aes->ocb_dec : aes->ocb_enc;
    static unsigned char l[64][16];
    for (size_t c = 0; c < NCOUNTS; c++) {
        unsigned char offset[16], checksum[16];
        fill(&l[0][0], sizeof(l), 23);      /* L_i = 2^i E_K(0): secret */
        fill(offset, 16, 29);
        fill(checksum, 16, 31);
        secret(l, sizeof(l));
        secret(offset, 16);
        secret(checksum, 16);
        bulk(data, out, counts[c], dec ? &dk : &ek, 1 + 3 * c, offset,
             (const unsigned char (*)[16])l, checksum);
        output(out, 16 * counts[c]);
        output(offset, 16);
        output(checksum, 16);
    }
}

/* --- SHA-1 ---------------------------------------------------------------- */

static const struct casm_sha1_impl *sha1;

static void op_sha1(int nblocks, int unused)
{
    (void)unused;
    SHA_CTX c;
    SHA1_Init(&c);                          /* the public IV */
    sha1->block(&c, data, (size_t)nblocks);
    unsigned char h[20];
    memcpy(h, &c.h0, 4);
    memcpy(h + 4, &c.h1, 4);
    memcpy(h + 8, &c.h2, 4);
    memcpy(h + 12, &c.h3, 4);
    memcpy(h + 16, &c.h4, 4);
    output(h, 20);
}

/* --- the controls --------------------------------------------------------- */

static unsigned char table_a[256], table_b[256];
static volatile unsigned sink;

__attribute__((noinline)) static void taken(unsigned v)
{
    sink = v;
}

/* Two secret-indexed loads and one secret-dependent branch. */
__attribute__((noinline)) static unsigned leaky(const unsigned char *s)
{
    unsigned v = table_a[s[0]];
    v += table_b[s[1]];
    if (s[2] & 1)
        taken(v);
    return v ^ s[3];
}

/* Arithmetic on the secret only. */
__attribute__((noinline)) static unsigned clean(const unsigned char *s)
{
    unsigned v = (unsigned)s[0] * 0x9e3779b9u;
    v ^= (unsigned)s[1] << 8 | s[2];
    return v + s[3];
}

/* Reads the secret, computes nothing from it. */
__attribute__((noinline)) static unsigned inert(const unsigned char *s)
{
    sink = s[0];
    return table_a[7];
}

static void op_control(int which, int unused)
{
    (void)unused;
    unsigned char r[4];
    for (size_t i = 0; i < 8; i++) {
        const unsigned char *s = data + 4 * i;
        unsigned v = which == 1 ? leaky(s) : which == 2 ? inert(s) : clean(s);
        memcpy(r, &v, 4);
        output(r, 4);
    }
}

/* --- instruction probes ---------------------------------------------------- */

/* Without SSE enabled (-m32) the compiler keeps nothing in xmm0. */
#ifdef __SSE__
#define CLOBBERS "memory", "xmm0"
#else
#define CLOBBERS "memory"
#endif
#define PROBE(id, insn) \
    static void probe_##id(void) \
    { \
        __asm__ volatile(insn ::: CLOBBERS); \
    }

PROBE(aesenc_xmm, "aesenc %%xmm1, %%xmm0")
PROBE(vaesenc_xmm, "vaesenc %%xmm1, %%xmm2, %%xmm0")
PROBE(vaesenc_ymm, "vaesenc %%ymm1, %%ymm2, %%ymm0")
PROBE(vaesenc_zmm, "vaesenc %%zmm1, %%zmm2, %%zmm0")
PROBE(pclmulqdq_xmm, "pclmulqdq $0, %%xmm1, %%xmm0")
PROBE(vpclmulqdq_xmm, "vpclmulqdq $0, %%xmm1, %%xmm2, %%xmm0")
PROBE(vpclmulqdq_ymm, "vpclmulqdq $0, %%ymm1, %%ymm2, %%ymm0")
PROBE(vpxord_zmm, "vpxord %%zmm1, %%zmm2, %%zmm0")
PROBE(vpxord_xmm, "vpxord %%xmm1, %%xmm2, %%xmm0")
PROBE(sha1rnds4, "sha1rnds4 $0, %%xmm1, %%xmm0")
PROBE(pshufb, "pshufb %%xmm1, %%xmm0")
PROBE(vpaddd_xmm, "vpaddd %%xmm1, %%xmm2, %%xmm0")
PROBE(vpaddd_ymm, "vpaddd %%ymm1, %%ymm2, %%ymm0")

static void probe_rorx(void)
{
    unsigned x = 5, y;
    __asm__ volatile("rorx $3, %1, %0" : "=r"(y) : "r"(x));
    sink = y;
}

static void probe_andn(void)
{
    unsigned x = 5, y = 9, z;
    __asm__ volatile("andn %2, %1, %0" : "=r"(z) : "r"(x), "r"(y));
    sink = z;
}

static const struct probe {
    const char *name, *what;
    void (*run) (void);
} probes[] = {
    { "aesenc.xmm", "AES-NI (SSE encoding)", probe_aesenc_xmm },
    { "vaesenc.xmm", "AES-NI, VEX.128 (AVX)", probe_vaesenc_xmm },
    { "vaesenc.ymm", "VAES on ymm", probe_vaesenc_ymm },
    { "vaesenc.zmm", "VAES on zmm (AVX-512)", probe_vaesenc_zmm },
    { "pclmulqdq.xmm", "PCLMULQDQ (SSE encoding)", probe_pclmulqdq_xmm },
    { "vpclmulqdq.xmm", "PCLMULQDQ, VEX.128", probe_vpclmulqdq_xmm },
    { "vpclmulqdq.ymm", "VPCLMULQDQ on ymm", probe_vpclmulqdq_ymm },
    { "vpxord.zmm", "AVX-512F on zmm", probe_vpxord_zmm },
    { "vpxord.xmm", "AVX-512VL, EVEX.128", probe_vpxord_xmm },
    { "sha1rnds4", "SHA-NI", probe_sha1rnds4 },
    { "pshufb", "SSSE3", probe_pshufb },
    { "vpaddd.xmm", "AVX", probe_vpaddd_xmm },
    { "vpaddd.ymm", "AVX2", probe_vpaddd_ymm },
    { "rorx", "BMI2", probe_rorx },
    { "andn", "BMI1", probe_andn },
};

static void run_probe(int i, int unused)
{
    (void)unused;
    probes[i].run();
}

/* --- paths and their operations -------------------------------------------- */

struct op {
    const char *name;
    void (*run) (int, int);
    int a, b;
    int (*has) (int);   /* NULL, or whether the path has the function (b) */
};

static int has_ccm64(int dec)
{
    return (dec ? aes->ccm64_dec : aes->ccm64_enc) != NULL;
}

static int has_ocb(int dec)
{
    return (dec ? aes->ocb_dec : aes->ocb_enc) != NULL;
}

#define AES_OPS(bits) \
    { "aes" #bits ".setkey_enc", op_setkey, bits, 0, NULL }, \
    { "aes" #bits ".setkey_dec", op_setkey, bits, 1, NULL }, \
    { "aes" #bits ".block_enc", op_block, bits, 0, NULL }, \
    { "aes" #bits ".block_dec", op_block, bits, 1, NULL }, \
    { "aes" #bits ".ecb_enc", op_ecb, bits, 0, NULL }, \
    { "aes" #bits ".ecb_dec", op_ecb, bits, 1, NULL }, \
    { "aes" #bits ".cbc_enc", op_cbc, bits, 0, NULL }, \
    { "aes" #bits ".cbc_dec", op_cbc, bits, 1, NULL }, \
    { "aes" #bits ".ctr32", op_ctr32, bits, 0, NULL }, \
    { "aes" #bits ".xts_enc", op_xts, bits, 0, NULL }, \
    { "aes" #bits ".xts_dec", op_xts, bits, 1, NULL }, \
    { "aes" #bits ".ccm64_enc", op_ccm64, bits, 0, has_ccm64 }, \
    { "aes" #bits ".ccm64_dec", op_ccm64, bits, 1, has_ccm64 }, \
    { "aes" #bits ".ocb_enc", op_ocb, bits, 0, has_ocb }, \
    { "aes" #bits ".ocb_dec", op_ocb, bits, 1, has_ocb }

static const struct op aes_ops[] = { AES_OPS(128), AES_OPS(192), AES_OPS(256) };
static const struct op sha1_ops[] = {
    { "block.1", op_sha1, 1, 0, NULL }, { "block.2", op_sha1, 2, 0, NULL },
    { "block.3", op_sha1, 3, 0, NULL }, { "block.4", op_sha1, 4, 0, NULL },
    { "block.5", op_sha1, 5, 0, NULL }, { "block.9", op_sha1, 9, 0, NULL },
};
static const struct op leak_ops[] = { { "leaky", op_control, 1, 0, NULL } };
static const struct op clean_ops[] = { { "clean", op_control, 0, 0, NULL } };
static const struct op inert_ops[] = { { "inert", op_control, 2, 0, NULL } };

static void run_ops(const struct op *ops, size_t n, size_t from)
{
    for (size_t i = from; i < n; i++) {
        if (ops[i].has != NULL && !ops[i].has(ops[i].b)) {
            printf("op %zu %s n/a\n", i, ops[i].name);
            continue;
        }
        digest = 14695981039346656037u;
        untainted = 0;
        fill(key, sizeof(key), 3);
        fill(data, sizeof(data), 5);
        secret(key, sizeof(key));
        secret(data, sizeof(data));
        fflush(stdout);
        VALGRIND_PRINTF("ct-begin %zu %s\n", i, ops[i].name);
        int died = guarded(ops[i].run, ops[i].a, ops[i].b);
        VALGRIND_PRINTF("ct-end %zu %s%s\n", i, ops[i].name, died ? " sigill" : "");
        if (died)
            printf("op %zu %s sigill\n", i, ops[i].name);
        else
            printf("op %zu %s %s %016llx\n", i, ops[i].name,
                   untainted ? "untainted" : "digest", (unsigned long long)digest);
        fflush(stdout);
    }
}

static void list_entry(const char *kind, const char *name,
                       const unsigned int *force_clear, const unsigned int need[4],
                       size_t nops)
{
    char buf[CASM_FORCE_MASK_MAX];
    const char *mask = casm_force_mask_text(force_clear, buf);
    printf("%s/%s\t%s\t%d\t%zu\n", kind, name, mask ? mask : "", casm_cpu_has(need),
           nops);
}

static int usage(const char *prog)
{
    fprintf(stderr, "usage: %s --list | --path KIND/NAME [--from N] | --probes\n", prog);
    return 2;
}

int main(int argc, char **argv)
{
    for (size_t i = 0; i < 256; i++) {
        table_a[i] = (unsigned char)(i * 7 + 1);
        table_b[i] = (unsigned char)(i * 13 + 5);
    }
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (size_t i = 0; i < casm_aes_impl_count; i++)
            list_entry("aes", casm_aes_impls[i]->name, casm_aes_impls[i]->force_clear,
                       casm_aes_impls[i]->need, NOPS(aes_ops));
        for (size_t i = 0; i < casm_sha1_impl_count; i++)
            list_entry("sha1", casm_sha1_impls[i]->name, casm_sha1_impls[i]->force_clear,
                       casm_sha1_impls[i]->need, NOPS(sha1_ops));
        printf("control/leak\t\t1\t%zu\ncontrol/clean\t\t1\t%zu\ncontrol/inert\t\t1\t%zu\n",
               NOPS(leak_ops), NOPS(clean_ops), NOPS(inert_ops));
        return 0;
    }
    catch_sigill();
    if (argc == 2 && strcmp(argv[1], "--probes") == 0) {
        for (size_t i = 0; i < NOPS(probes); i++) {
            printf("%s\t%s\t%s\n", probes[i].name, probes[i].what,
                   guarded(run_probe, (int)i, 0) ? "sigill" : "ran");
            fflush(stdout);
        }
        return 0;
    }
    if ((argc != 3 && argc != 5) || strcmp(argv[1], "--path") != 0)
        return usage(argv[0]);
    size_t from = 0;
    if (argc == 5) {
        char *end;
        if (strcmp(argv[3], "--from") != 0)
            return usage(argv[0]);
        from = strtoul(argv[4], &end, 10);
        if (*end != '\0')
            return usage(argv[0]);
    }
    const char *path = argv[2];
    if (strncmp(path, "aes/", 4) == 0 && (aes = casm_aes_impl_by_name(path + 4)) != NULL) {
        run_ops(aes_ops, NOPS(aes_ops), from);
    } else if (strncmp(path, "sha1/", 5) == 0
               && (sha1 = casm_sha1_impl_by_name(path + 5)) != NULL) {
        run_ops(sha1_ops, NOPS(sha1_ops), from);
    } else if (strcmp(path, "control/leak") == 0) {
        run_ops(leak_ops, 1, from);
    } else if (strcmp(path, "control/clean") == 0) {
        run_ops(clean_ops, 1, from);
    } else if (strcmp(path, "control/inert") == 0) {
        run_ops(inert_ops, 1, from);
    } else {
        fprintf(stderr, "%s: no path %s (see --list)\n", argv[0], path);
        return 2;
    }
    return 0;
}
