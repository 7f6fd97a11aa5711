/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Minimal TAP producer for the C test programs (run by prove).
 * Plans are declared up front with tap_plan() or at the end with
 * tap_done(); tap_done() returns the process exit status.
 */
#ifndef TEST_TAP_H
#define TEST_TAP_H

#include <stddef.h>

void tap_plan(int n);
/* Records one test; returns ok so callers can chain diagnostics. */
/* mingw's gcc reads "printf" as the Microsoft runtime's format, which lacks
 * %zu; the programs use C99 formats (with __USE_MINGW_ANSI_STDIO there). */
#if defined(__MINGW32__) && !defined(__clang__)
#define TAP_PRINTF(f, a) __attribute__((format(gnu_printf, f, a)))
#else
#define TAP_PRINTF(f, a) __attribute__((format(printf, f, a)))
#endif

int tap_ok(int ok, const char *fmt, ...) TAP_PRINTF(2, 3);
void tap_skip(const char *why, const char *fmt, ...) TAP_PRINTF(2, 3);
/* A result known to fail for the reason given (TAP TODO): never a failure. */
int tap_todo_ok(const char *why, int ok, const char *fmt, ...) TAP_PRINTF(3, 4);
void tap_diag(const char *fmt, ...) TAP_PRINTF(1, 2);
/* Plan everything at once: the whole program is skipped. Exits 0. */
void tap_skip_all(const char *why, ...) __attribute__((noreturn)) TAP_PRINTF(1, 2);
/* Aborts the run (TAP "Bail out!"), exit 255. */
void tap_bail(const char *fmt, ...) __attribute__((noreturn)) TAP_PRINTF(1, 2);
int tap_done(void);

/* Hex helpers shared by the tests. */
void tap_hexdump(const char *label, const unsigned char *p, size_t n);
/* Parses hex into buf (up to cap bytes); returns length or -1. */
long hex_decode(const char *hex, unsigned char *buf, size_t cap);

#endif
