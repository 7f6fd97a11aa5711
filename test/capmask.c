/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of casm_ia32cap_apply(): what OPENSSL_ia32cap does to the
 * capability words, for every form of the variable, with the expected words
 * worked out by hand from OpenSSL 3.5's rules (crypto/cpuid/ia32cap.h);
 * for up to two fields they are 3.0's:
 *
 *   - unset: the detected words, with bit 10 of word 0 set;
 *   - "[~]V0[:[~]V1]", each V a 64-bit number: "0x"/"0X" hex, leading "0"
 *     octal, else decimal, read up to the first character that is not a
 *     digit of its base (so garbage reads as 0), wrapping modulo 2^64;
 *   - "~V0" clears V0's bits from detected words 0-1 (low half word 0);
 *     when V0 has bit 24 (FXSR) it also clears word 1 bits 1 (PCLMULQDQ),
 *     11 (XOP), 25 (AES-NI) and 28 (AVX);
 *   - a bare "V0" replaces words 0-1, and OpenSSL then never runs CPUID, so
 *     words 2-3 start from 0 (":~V1" clears bits of 0 and leaves 0);
 *   - an empty V0 before ':' keeps the detected words 0-1;
 *   - ":~V1" clears V1's bits from words 2-3, ":V1" replaces them; without
 *     ':' words 2-3 are 0;
 *   - fields 2-4 act on words 4-9 the same way, pairs missing or empty at
 *     the end are 0, an empty field followed by ':' keeps its pair, and
 *     word 9 is 0 unless word 6 keeps AVX10 (bit 19);
 *   - bit 10 of word 0 is always set at the end.
 *
 * Then end to end: the program runs itself again with OPENSSL_ia32cap set
 * and checks that the OPENSSL_ia32cap_P the library computed before main is
 * casm_ia32cap_apply(casm_ia32cap_detect(), value).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpuid/ia32cap.h"
#include "lib/tap.h"

/*
 * A made-up "detected" vector with interesting bits in every word:
 *   word 0 0x178bfbff: FXSR (24) and HTT (28) set; bit 10 clear, as CPUID
 *                      leaves it (reserved)
 *   word 1 0x7ef83a0b: PCLMULQDQ (1), XOP (11), AES-NI (25), OSXSAVE (27),
 *                      AVX (28), RDRAND (30) set
 *   word 2 0xf1bf97a9: AVX2 (5), AVX512F (16), SHA (29) set
 *   word 3 0x00405f5e: VAES (9), VPCLMULQDQ (10) set
 *   word 4 0x00008400: hybrid (15)
 *   word 5 0x00800007: SHA512, SM3, SM4 (0-2), AVX-IFMA (23)
 *   word 6 0x00280000: AVX10 (19), APX_F (21)
 *   words 7, 8 0x00000001, 0x00000020
 *   word 9 0x00070002: AVX10 version 2, 128/256/512 bits (16-18)
 */
#define W CASM_IA32CAP_WORDS
static const unsigned int D[W] = {0x178bfbff, 0x7ef83a0b, 0xf1bf97a9, 0x00405f5e,
                                  0x00008400, 0x00800007, 0x00280000, 0x00000001,
                                  0x00000020, 0x00070002};
/* D as the result gives it back whole: with bit 10 of word 0 set. */
#define D_INIT 0x178bffff, 0x7ef83a0b, 0xf1bf97a9, 0x00405f5e, 0x00008400, \
    0x00800007, 0x00280000, 0x00000001, 0x00000020, 0x00070002
/* Every bit set (bit 10 included), to see exactly which bits a mask clears. */
static const unsigned int ONES[W] = {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff,
                                     0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff,
                                     0xffffffff, 0xffffffff};
/* Nothing detected. */
static const unsigned int ZERO[W] = {0};

struct capcase {
    const char *what;           /* what the case proves */
    const unsigned int *cpuid;  /* detected words */
    const char *env;            /* OPENSSL_ia32cap, NULL = unset */
    unsigned int want[W];       /* words not written are 0 */
};

static const struct capcase cases[] = {
    /* Unset: detected words untouched but for bit 10 (0x...fbff -> 0x...ffff). */
    {"unset keeps detected words and sets bit 10", D, NULL,
     {D_INIT}},
    /* Unset with nothing detected: only the "initialised" bit. */
    {"unset with nothing detected gives only bit 10", ZERO, NULL,
     {0x00000400, 0, 0, 0}},
    /* Bit 57 of V0 = word 1 bit 25 (AES-NI): 0x7ef83a0b -> 0x7cf83a0b; no ':'
     * so words 2-3 are 0. */
    {"~0x200000000000000 clears AES-NI (word 1 bit 25), words 2-3 zero", D,
     "~0x200000000000000", {0x178bffff, 0x7cf83a0b, 0, 0}},
    /* V1 = bits 5 (AVX2), 29 (SHA) of word 2 and bit 41 = word 3 bit 9 (VAES):
     * 0xf1bf97a9 & ~0x20000020 = 0xd1bf9789, 0x00405f5e & ~0x200 = 0x00405d5e. */
    {"~V0:~V1 clears AES-NI in word 1 and AVX2, SHA, VAES in words 2-3", D,
     "~0x200000000000000:~0x0000020020000020",
     {0x178bffff, 0x7cf83a0b, 0xd1bf9789, 0x00405d5e}},
    /* Bare V0 replaces words 0-1 (0x1234 | bit 10 = 0x1634); words 2-3 zero. */
    {"bare 0x1234 replaces words 0-1, words 2-3 zero", D, "0x1234",
     {0x00001634, 0, 0, 0}},
    /* Bare V1 replaces words 2-3: low half word 2, high half word 3. */
    {"bare V0 with bare :V1 sets words 2-3", D, "0x1234:0x5600000078",
     {0x00001634, 0, 0x00000078, 0x00000056}},
    /* 4660 decimal = 0x1234. */
    {"decimal 4660 is 0x1234", D, "4660", {0x00001634, 0, 0, 0}},
    /* 011064 octal = 1*4096 + 1*512 + 0*64 + 6*8 + 4 = 4660 = 0x1234. */
    {"leading 0 is octal: 011064 is 0x1234", D, "011064",
     {0x00001634, 0, 0, 0}},
    /* 0xabcdef already has bit 10 (the 'd' nibble is bits 8, 10, 11). */
    {"lower-case hex digits", D, "0xabcdef", {0x00abcdef, 0, 0, 0}},
    {"upper-case hex digits", D, "0xABCDEF", {0x00abcdef, 0, 0, 0}},
    {"0X prefix and mixed-case digits", D, "0XaBcDeF", {0x00abcdef, 0, 0, 0}},
    /* 0x1f | 0x400 = 0x41f. */
    {"0X1f upper-case prefix", D, "0X1f", {0x0000041f, 0, 0, 0}},
    /* Octal stops at '9': 012 = 10 = 0xa. */
    {"octal stops at 9: 0129 reads 012 = 10", D, "0129",
     {0x0000040a, 0, 0, 0}},
    {"09 reads 0 (9 is no octal digit)", D, "09", {0x00000400, 0, 0, 0}},
    {"0x with no digits reads 0", D, "0x", {0x00000400, 0, 0, 0}},
    /* Empty V0: detected words 0-1 kept; word 2 loses AVX2 (bit 5):
     * 0xf1bf97a9 -> 0xf1bf9789; word 3 untouched. */
    {":~0x20 keeps detected words 0-1 and clears AVX2 only", D, ":~0x20",
     {0x178bffff, 0x7ef83a0b, 0xf1bf9789, 0x00405f5e}},
    /* ":~V1" with V1 in the high half: word 3 loses VAES and VPCLMULQDQ
     * (bits 9, 10): 0x00405f5e & ~0x600 = 0x0040595e. */
    {":~V1 high half clears word 3 bits", D, ":~0x0000060000000000",
     {0x178bffff, 0x7ef83a0b, 0xf1bf97a9, 0x0040595e}},
    /* ":" alone: detected words 0-1, bare empty V1 = 0 replaces words 2-3. */
    {"':' alone keeps words 0-1 and zeroes words 2-3", D, ":",
     {0x178bffff, 0x7ef83a0b, 0, 0}},
    /* ":0xffffffff00000000" replaces words 2-3 with 0 and 0xffffffff. */
    {":V1 replaces words 2-3 with its two halves", D, ":0xffffffff00000000",
     {0x178bffff, 0x7ef83a0b, 0, 0xffffffff}},
    /* "~" alone: mask 0, detected words 0-1; no ':' so words 2-3 zero. */
    {"~ alone keeps words 0-1, zeroes words 2-3", D, "~",
     {0x178bffff, 0x7ef83a0b, 0, 0}},
    /* "~:~0x20": mask reads ":~0x20" as 0, then V1 clears AVX2. */
    {"~:~0x20 keeps words 0-1 and clears AVX2", D, "~:~0x20",
     {0x178bffff, 0x7ef83a0b, 0xf1bf9789, 0x00405f5e}},
    /* Empty string: bare V0 = 0, no ':' -> everything off but bit 10. */
    {"empty string turns everything off but bit 10", D, "",
     {0x00000400, 0, 0, 0}},
    /* 'a' is no decimal digit: reads 0. */
    {"garbage 'abc' reads 0", D, "abc", {0x00000400, 0, 0, 0}},
    {"garbage 'garbage' reads 0", D, "garbage", {0x00000400, 0, 0, 0}},
    /* 'z' is no hex digit. */
    {"garbage '0xzz' reads 0", D, "0xzz", {0x00000400, 0, 0, 0}},
    /* Decimal stops at 'a': 12 = 0xc, | 0x400 = 0x40c. */
    {"'12abc' reads 12", D, "12abc", {0x0000040c, 0, 0, 0}},
    {"leading space reads 0", D, " 0x10", {0x00000400, 0, 0, 0}},
    {"trailing space ends the number: '0x10 ' is 0x10", D, "0x10 ",
     {0x00000410, 0, 0, 0}},
    {"minus sign reads 0", D, "-1", {0x00000400, 0, 0, 0}},
    /* "~~0x10": the number after the first '~' starts with '~' -> mask 0. */
    {"~~0x10 is mask 0: words 0-1 kept, words 2-3 zero", D, "~~0x10",
     {0x178bffff, 0x7ef83a0b, 0, 0}},
    /* V1 stops at the second ':' (0x20); the third field sets words 4-5. */
    {"V1 ends at a second ':', V2 sets words 4-5", D, "0x10:0x20:0x30",
     {0x00000410, 0, 0x00000020, 0, 0x00000030}},
    /* Decimal in both parts. */
    {"decimal V0 and V1: 1:2", D, "1:2", {0x00000401, 0, 0x00000002, 0}},
    /* 64-bit V0: low half word 0 (0x76543210 | 0x400), high half word 1. */
    {"64-bit V0 fills word 0 with its low and word 1 with its high half", D,
     "0xfedcba9876543210", {0x76543610, 0xfedcba98, 0, 0}},
    /* 2^64 + 1 in decimal wraps to 1 (OpenSSL multiplies modulo 2^64). */
    {"decimal overflow wraps modulo 2^64: 18446744073709551617 is 1", D,
     "18446744073709551617", {0x00000401, 0, 0, 0}},
    /* 17 hex digits: the leading 1 is shifted out. */
    {"hex overflow wraps: 0x1ffffffffffffffff is all ones", D,
     "0x1ffffffffffffffff", {0xffffffff, 0xffffffff, 0, 0}},
    /* FXSR rule: V0 bit 24 clears word 0 bit 24 (0x178bffff -> 0x168bffff)
     * and word 1 bits 1, 11, 25, 28 (mask 0x12000802):
     * 0x7ef83a0b & ~0x12000802 = 0x6cf83209. */
    {"~0x1000000 (FXSR) also clears PCLMULQDQ, XOP, AES-NI, AVX", D,
     "~0x1000000", {0x168bffff, 0x6cf83209, 0, 0}},
    {"~0x1000000:~0 clears the same and keeps words 2-3", D, "~0x1000000:~0",
     {0x168bffff, 0x6cf83209, 0xf1bf97a9, 0x00405f5e}},
    /* On all ones: word 0 0xfeffffff, word 1 0xffffffff & ~0x12000802. */
    {"~0x1000000 on all-ones words clears exactly bits 24 and w1 1,11,25,28",
     ONES, "~0x1000000", {0xfeffffff, 0xedfff7fd, 0, 0}},
    /* Bit 24 in a bare V0 is just a value: no extra clearing. */
    {"bare 0x1000000 is a plain value (FXSR rule needs ~)", D, "0x1000000",
     {0x01000400, 0, 0, 0}},
    /* Bit 24 in ~V1 only clears word 2 bit 24; word 1 untouched.
     * 0xf1bf97a9 & ~0x01000000 = 0xf0bf97a9. */
    {"bit 24 in ~V1 clears word 2 bit 24 only", D, "~0:~0x1000000",
     {0x178bffff, 0x7ef83a0b, 0xf0bf97a9, 0x00405f5e}},
    /* On all ones, ~0x0123456789abcdef: word 0 = ~0x89abcdef | 0x400 =
     * 0x76543610; word 1 = ~0x01234567 = 0xfedcba98, and the mask has bit
     * 24 (0x89 top byte), so also & ~0x12000802 -> 0xecdcb298. */
    {"~V0 on all ones clears V0's bits (and the FXSR extras)", ONES,
     "~0x0123456789abcdef:~0", {0x76543610, 0xecdcb298, 0xffffffff, 0xffffffff}},
    /* ~0:~0: detected everything. */
    {"~0:~0 keeps every detected word", D, "~0:~0",
     {0x178bffff, 0x7ef83a0b, 0xf1bf97a9, 0x00405f5e}},
    /* Bit 10 comes back even when the mask clears it. */
    {"~0x400 cannot clear bit 10", ONES, "~0x400:~0",
     {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}},
    /* Bit 62 of V0 = word 1 bit 30 (RDRAND): 0x7ef83a0b -> 0x3ef83a0b; bare V1. */
    {"~0x4000000000000000:0x20 clears RDRAND, word 2 = 0x20", D,
     "~0x4000000000000000:0x20", {0x178bffff, 0x3ef83a0b, 0x00000020, 0}},
    /* Bare V0 means OpenSSL never ran CPUID: words 2-3 start at 0, so ":~V1"
     * leaves them 0 even though D has AVX2 etc. */
    {"bare V0 then :~0x20 leaves words 2-3 zero (no CPUID ran)", D,
     "0x1234:~0x20", {0x00001634, 0, 0, 0}},
    {"bare V0 then :~0 leaves words 2-3 zero (no CPUID ran)", D, "0x1234:~0",
     {0x00001634, 0, 0, 0}},
    {"V0 = 0 is not empty V0: '0:~0' zeroes every word (no CPUID ran)", D, "0:~0",
     {0x00000400, 0, 0, 0}},
    /* The five fields of OpenSSL 3.5. */
    {"~0 in all five fields keeps every detected word", D, "~0:~0:~0:~0:~0",
     {D_INIT}},
    /* V2 bit 55 = word 5 bit 23 (AVX-IFMA), bit 15 = word 4 bit 15 (hybrid). */
    {"~V2 clears AVX-IFMA and hybrid in words 4-5", D,
     "~0:~0:~0x0080000000008000:~0:~0",
     {0x178bffff, 0x7ef83a0b, 0xf1bf97a9, 0x00405f5e, 0x00000400, 0x00000007,
      0x00280000, 0x00000001, 0x00000020, 0x00070002}},
    /* V3 bit 21 = word 6 bit 21 (APX_F); AVX10 stays, so word 9 does. */
    {"~V3 clears APX_F (word 6 bit 21), word 9 kept", D, "~0:~0:~0:~0x200000:~0",
     {0x178bffff, 0x7ef83a0b, 0xf1bf97a9, 0x00405f5e, 0x00008400, 0x00800007,
      0x00080000, 0x00000001, 0x00000020, 0x00070002}},
    /* Clearing AVX10 (word 6 bit 19) zeroes word 9 even though V4 kept it. */
    {"~V3 clearing AVX10 zeroes word 9", D, "~0:~0:~0:~0x80000:~0",
     {0x178bffff, 0x7ef83a0b, 0xf1bf97a9, 0x00405f5e, 0x00008400, 0x00800007,
      0x00200000, 0x00000001, 0x00000020, 0}},
    /* A bare V4 sets words 8-9: word 9 only while AVX10 is in word 6. */
    {"bare V4 sets words 8-9 (AVX10 kept)", D, ":~0:~0:~0:0x1234500000067",
     {0x178bffff, 0x7ef83a0b, 0xf1bf97a9, 0x00405f5e, 0x00008400, 0x00800007,
      0x00280000, 0x00000001, 0x00000067, 0x00012345}},
    {"bare V4 with a bare V3 lacking AVX10: word 9 is 0", D, ":~0:~0:0:0x1234500000067",
     {0x178bffff, 0x7ef83a0b, 0xf1bf97a9, 0x00405f5e, 0x00008400, 0x00800007,
      0, 0, 0x00000067, 0}},
    /* Empty fields followed by ':' keep their pair; the trailing empty one zeroes. */
    {"'::::' keeps words 0-7 and zeroes words 8-9", D, "::::",
     {0x178bffff, 0x7ef83a0b, 0xf1bf97a9, 0x00405f5e, 0x00008400, 0x00800007,
      0x00280000, 0x00000001, 0, 0}},
    {"':::::' keeps every word", D, ":::::",
     {D_INIT}},
    {"'::0' keeps words 0-3 and zeroes words 4-9", D, "::0",
     {0x178bffff, 0x7ef83a0b, 0xf1bf97a9, 0x00405f5e}},
    {"':0::::' zeroes words 2-3 only", D, ":0::::",
     {0x178bffff, 0x7ef83a0b, 0, 0, 0x00008400, 0x00800007, 0x00280000,
      0x00000001, 0x00000020, 0x00070002}},
    /* OpenSSL 3.0 would zero words 2-3 here (it reads ":~0x400" as 0). */
    {"'~0x400::~0x400:' keeps words 2-3, clears word 4 bit 10 (3.5, not 3.0)", D,
     "~0x400::~0x400:",
     {0x178bffff, 0x7ef83a0b, 0xf1bf97a9, 0x00405f5e, 0x00008000, 0x00800007}},
    {"a trailing empty field zeroes its pair", D, "~0:~0:",
     {0x178bffff, 0x7ef83a0b, 0xf1bf97a9, 0x00405f5e}},
    {"a sixth field is ignored", D, ":::::0x99",
     {D_INIT}},
    /* Bare V0: no CPUID ran, so kept or "~"-masked pairs are 0. */
    {"bare V0: later '~' and kept fields act on zero", D, "0x1234::~0:0x77:~0",
     {0x00001634, 0, 0, 0, 0, 0, 0x77, 0, 0, 0}},
    /* ":~0" on nothing detected: only bit 10. */
    {":~0 with nothing detected gives only bit 10", ZERO, ":~0",
     {0x00000400, 0, 0, 0}},
};

#define NCASES (sizeof(cases) / sizeof(cases[0]))

static int same(const unsigned int a[W], const unsigned int b[W])
{
    return memcmp(a, b, W * sizeof(a[0])) == 0;
}

static void diag_words(const char *label, const unsigned int w[W])
{
    tap_diag("  %-8s %08x %08x %08x %08x %08x %08x %08x %08x %08x %08x", label,
             w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8], w[9]);
}

static void run_table(void)
{
    for (size_t i = 0; i < NCASES; i++) {
        const struct capcase *c = &cases[i];
        unsigned int in[W], got[W];
        memcpy(in, c->cpuid, sizeof(in));
        memset(got, 0xa5, sizeof(got));     /* every word must be written */
        casm_ia32cap_apply(in, c->env, got);
        int ok = tap_ok(same(got, c->want), "%s [OPENSSL_ia32cap%s%s%s]",
                        c->what, c->env ? "=\"" : " unset",
                        c->env ? c->env : "", c->env ? "\"" : "");
        if (!ok) {
            diag_words("detected", c->cpuid);
            diag_words("expected", c->want);
            diag_words("got", got);
        }
        if (memcmp(in, c->cpuid, sizeof(in)) != 0) {
            tap_ok(0, "casm_ia32cap_apply modified its input (case %zu)", i);
            diag_words("before", c->cpuid);
            diag_words("after", in);
        }
    }

    /* A pure function: the same input gives the same output again. */
    unsigned int a[W], b[W];
    casm_ia32cap_apply(D, "~0x1000000:~0x20", a);
    casm_ia32cap_apply(D, "~0x1000000:~0x20", b);
    tap_ok(same(a, b), "casm_ia32cap_apply is deterministic");
}

/* ---- end to end through the environment ---------------------------------- */

/*
 * Child mode: report what the library computed before main, what CPUID
 * reports and what apply() makes of it.  Read OPENSSL_ia32cap_P first,
 * before any library call could set it up lazily.
 */
static int child_main(void)
{
    unsigned int v[3 * W];      /* before main, apply(), detected */
    memcpy(v, OPENSSL_ia32cap_P, W * sizeof(v[0]));
    casm_ia32cap_detect(v + 2 * W);
    casm_ia32cap_apply(v + 2 * W, getenv("OPENSSL_ia32cap"), v + W);
    for (int i = 0; i < 3 * W; i++)
        printf("%08x%c", v[i], i == 3 * W - 1 ? '\n' : ' ');
    return 0;
}

/* Runs this program with OPENSSL_ia32cap = env (NULL: unset); 0 on success. */
static int run_child(const char *env, unsigned int v[3 * W], char *err,
                     size_t errlen)
{
    int fd[2];
    if (pipe(fd) != 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "fork: %s", strerror(errno));
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    if (pid == 0) {
        close(fd[0]);
        if (dup2(fd[1], STDOUT_FILENO) < 0)
            _exit(126);
        close(fd[1]);
        if (env)
            setenv("OPENSSL_ia32cap", env, 1);
        else
            unsetenv("OPENSSL_ia32cap");
        execl("/proc/self/exe", "capmask", "--child", (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    char buf[1024];
    size_t n = 0;
    ssize_t r;
    while (n < sizeof(buf) - 1 && (r = read(fd[0], buf + n, sizeof(buf) - 1 - n)) != 0) {
        if (r < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        n += (size_t)r;
    }
    buf[n] = '\0';
    close(fd[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            snprintf(err, errlen, "waitpid: %s", strerror(errno));
            return -1;
        }
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        snprintf(err, errlen, "child %s %d, output \"%s\"",
                 WIFEXITED(status) ? "exited with" : "killed by signal",
                 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), buf);
        return -1;
    }
    const char *p = buf;
    for (int i = 0; i < 3 * W; i++) {
        int used;
        if (sscanf(p, "%x%n", &v[i], &used) != 1) {
            snprintf(err, errlen, "cannot parse child output \"%.900s\"", buf);
            return -1;
        }
        p += used;
    }
    return 0;
}

static void run_env(void)
{
    static const char *const envs[] = {
        NULL, "~0x200000000000000", "0x1234:~0x20", "", ":~0x20",
        "~0x1000000:~0", "~0:~0", "garbage", "~0:~0:~0:~0:~0", "::0",
        ":~0:~0:~0x80000:~0",
    };
    for (size_t i = 0; i < sizeof(envs) / sizeof(envs[0]); i++) {
        const char *env = envs[i];
        unsigned int v[3 * W];
        char err[1200];
        char name[64];
        snprintf(name, sizeof(name), "%s%s%s", env ? "OPENSSL_ia32cap=\"" : "",
                 env ? env : "OPENSSL_ia32cap unset", env ? "\"" : "");
        if (run_child(env, v, err, sizeof(err)) != 0) {
            tap_ok(0, "%s: child run", name);
            tap_diag("  %s", err);
            continue;
        }
        int ok = tap_ok(same(v, v + W),
                        "%s: OPENSSL_ia32cap_P before main equals "
                        "casm_ia32cap_apply(detected, env)", name);
        if (!ok) {
            diag_words("detected", v + 2 * W);
            diag_words("expected", v + W);
            diag_words("got", v);
            if (!(v[0] & 0x400))
                tap_diag("  bit 10 of word 0 clear: OPENSSL_ia32cap_P was "
                         "not initialised before main");
        }
    }
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--child") == 0)
        return child_main();
    run_table();
    run_env();
    return tap_done();
}
