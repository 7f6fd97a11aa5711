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
int tap_ok(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tap_skip(const char *why, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Plan everything at once: the whole program is skipped. Exits 0. */
void tap_skip_all(const char *why, ...) __attribute__((noreturn, format(printf, 1, 2)));
/* Aborts the run (TAP "Bail out!"), exit 255. */
void tap_bail(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
int tap_done(void);

/* Hex helpers shared by the tests. */
void tap_hexdump(const char *label, const unsigned char *p, size_t n);
/* Parses hex into buf (up to cap bytes); returns length or -1. */
long hex_decode(const char *hex, unsigned char *buf, size_t cap);

#endif
