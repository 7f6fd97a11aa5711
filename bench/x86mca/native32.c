/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Runs one traced 32-bit AES call natively, as rewritten for 64-bit mode
 * by bench/x86mca/Replay64.pm, checks that it computed the right result,
 * and times it: real cycles on this CPU for the instructions the 32-bit
 * call executes, on a kernel that cannot run 32-bit programs.
 *
 *   native32 PROGRAM32 REPLAY.so MODE BITS BYTES [--time]
 *     PROGRAM32  the 32-bit program the trace came from (bench/x86mca/
 *                trace32.c, linked -no-pie); its segments are mapped at
 *                their own addresses, so the replay finds its tables,
 *                GOT and PIC return addresses where the trace had them
 *     REPLAY.so  the rewritten trace, exporting replay()
 *     MODE       ecb-enc, ecb-dec, cbc-enc or cbc-dec (the trace's)
 *   prints "ok MODE BITS BYTES" when the output (and for CBC the updated
 *   ivec) equals the 64-bit C AES's; with --time also
 *   "measured MODE BITS BYTES TSC_CYCLES_PER_BYTE", the fastest of many
 *   short batches of calls.  Exit 1 on a wrong result or a setup error.
 *
 * The stack, key, buffers and ivec are placed below 4 GiB (MAP_32BIT), as
 * the 32-bit code's pointers must be.
 *
 * MAP_32BIT is a GNU extension; _GNU_SOURCE comes from the Makefile's
 * CPPFLAGS_ALL (defining it here as well would warn of a redefinition).
 */
#include <dlfcn.h>
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <x86intrin.h>

#include <openssl/aes.h>

#include "aes/aes_c.h"

typedef void replay_fn(uint32_t *stack32, uint64_t reps, const uint32_t *args);

#define MAX_BYTES 4096
#define BATCHES 3001

#include "map32.h"

#define LOW(p) ((uint32_t)(uintptr_t)(p))

int main(int argc, char **argv)
{
    if (argc < 6 || argc > 7 || (argc == 7 && strcmp(argv[6], "--time") != 0))
        fail("usage: native32 PROGRAM32 REPLAY.so MODE BITS BYTES [--time]", NULL);
    const char *mode = argv[3];
    unsigned bits = (unsigned)atoi(argv[4]), bytes = (unsigned)atoi(argv[5]);
    int cbc = strncmp(mode, "cbc-", 4) == 0, enc = strcmp(mode + 4, "enc") == 0;
    if ((strcmp(mode, "ecb-enc") && strcmp(mode, "ecb-dec") && strcmp(mode, "cbc-enc") &&
         strcmp(mode, "cbc-dec")) || (bits != 128 && bits != 192 && bits != 256) ||
        bytes < 16 || bytes > MAX_BYTES || bytes % 16 || (!cbc && bytes != 16))
        fail("bad MODE, BITS or BYTES", NULL);

    map_program(argv[1]);
    void *so = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
    if (!so)
        fail("cannot load the replay", dlerror());
    /* dlsym gives an object pointer; copy its bits into a typed function
     * pointer (POSIX guarantees they have the same representation). */
    void *sym = dlsym(so, "replay");
    if (!sym)
        fail("no replay() in", argv[2]);
    replay_fn *replay;
    _Static_assert(sizeof(replay) == sizeof(sym), "function and object pointers differ");
    memcpy(&replay, &sym, sizeof(replay));

    /* 32-bit stack: the return address slot 4 bytes below a 16-byte
     * aligned argument block, as at a cdecl call. */
    unsigned char *stack = low_alloc(1 << 20);
    uint32_t *stack32 = (uint32_t *)(stack + (1 << 20) - 256 - 4);
    unsigned char *in = low_alloc(MAX_BYTES), *out = low_alloc(MAX_BYTES);
    unsigned char *iv = low_alloc(4096);
    AES_KEY *key = (AES_KEY *)(iv + 64);
    unsigned char user[32], iv0[16], want[MAX_BYTES], want_iv[16];
    for (unsigned i = 0; i < sizeof(user); i++)
        user[i] = (unsigned char)(17 * i + 5);
    for (unsigned i = 0; i < bytes; i++)
        in[i] = (unsigned char)(i * 29 + 3);
    for (unsigned i = 0; i < 16; i++)
        iv0[i] = (unsigned char)(0xa5 ^ i);
    if ((enc ? aes_c_set_encrypt_key : aes_c_set_decrypt_key)(user, (int)bits, key) != 0)
        fail("key schedule failed", NULL);

    memcpy(want_iv, iv0, 16);
    if (cbc)
        aes_c_cbc_encrypt(in, want, bytes, key, want_iv, enc);
    else
        (enc ? aes_c_encrypt : aes_c_decrypt)(in, want, key);

    uint32_t args[6] = { LOW(in), LOW(out), LOW(key) };
    if (cbc) {
        args[2] = bytes, args[3] = LOW(key), args[4] = LOW(iv), args[5] = (uint32_t)enc;
    }
    memcpy(iv, iv0, 16);
    memset(out, 0, bytes);
    replay(stack32, 1, args);
    if (memcmp(out, want, bytes) != 0 || (cbc && memcmp(iv, want_iv, 16) != 0))
        fail("the replay computed a wrong result", mode);
    printf("ok %s %u %u\n", mode, bits, bytes);
    if (argc < 7)
        return 0;

    uint64_t best = UINT64_MAX, reps = 1;
    for (;;) {      /* batches of at least 20000 TSC cycles (~8 us) */
        uint64_t t = __rdtsc();
        replay(stack32, reps, args);
        if (__rdtsc() - t > 20000)
            break;
        reps *= 2;
    }
    for (int b = 0; b < BATCHES; b++) {
        uint64_t t = __rdtsc();
        replay(stack32, reps, args);
        t = __rdtsc() - t;
        if (t < best)
            best = t;
    }
    printf("measured %s %u %u %.3f\n", mode, bits, bytes, (double)best / (double)(reps * bytes));
    return 0;
}
