/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Sets of OPENSSL_ia32cap_P capabilities by name, as four-word
 * initialisers: CAPSET(AESNI, AVX2) is { 0, CAP_W1_AESNI, CAP_W2_AVX2, 0 }.
 * The names are those of ia32cap_bits.h (CASM_CAP_<NAME>_WORD/_BIT), so a
 * registry entry names what it needs and never a word or a bit number.
 * Up to eight names; CAPSET(NONE) is the empty set.  Only names of words
 * 0-3 (OpenSSL 3.0's array, all the dispatch reads) can appear: a name of
 * words 4-9 adds no bit.  CAPSET_NEED below
 * fills a registry entry's needs and their text from one list.
 */
#ifndef PERLASM_X86_CAPSET_H
#define PERLASM_X86_CAPSET_H

#include "cpuid/ia32cap.h"

#define CASM_CAP_NONE_WORD (-1)
#define CASM_CAP_NONE_BIT 0

#define CAPSET_BIT_(w, name) \
    (CASM_CAP_##name##_WORD == (w) ? 1u << CASM_CAP_##name##_BIT : 0u)
/* A ninth name lands in `more`, which must be padding: else an error. */
#define CAPSET_AT_MOST_EIGHT_NONE 0u
#define CAPSET_WORD_(w, a, b, c, d, e, f, g, h, more, ...) \
    (CAPSET_BIT_(w, a) | CAPSET_BIT_(w, b) | CAPSET_BIT_(w, c) | \
     CAPSET_BIT_(w, d) | CAPSET_BIT_(w, e) | CAPSET_BIT_(w, f) | \
     CAPSET_BIT_(w, g) | CAPSET_BIT_(w, h) | CAPSET_AT_MOST_EIGHT_##more)
/* One more level, so the padding is split into arguments before use. */
#define CAPSET_EXPAND_(...) CAPSET_WORD_(__VA_ARGS__)
#define CAPSET_PAD_ NONE, NONE, NONE, NONE, NONE, NONE, NONE, NONE
#define CAPSET(...) { \
    CAPSET_EXPAND_(0, __VA_ARGS__, CAPSET_PAD_), \
    CAPSET_EXPAND_(1, __VA_ARGS__, CAPSET_PAD_), \
    CAPSET_EXPAND_(2, __VA_ARGS__, CAPSET_PAD_), \
    CAPSET_EXPAND_(3, __VA_ARGS__, CAPSET_PAD_) }

/*
 * An implementation entry's needs, written once: CAPSET_NEED(AESNI, AVX2)
 * sets .need to their bits and .need_name to the same names as text
 * ("AESNI, AVX2"), which the "this CPU lacks ..." messages print.
 */
#define CAPSET_NEED(...) .need = CAPSET(__VA_ARGS__), .need_name = #__VA_ARGS__

#endif
