/* SPDX-License-Identifier: Apache-2.0 */
#include "tap.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_count, tap_failed, tap_planned = -1;

void tap_plan(int n)
{
    tap_planned = n;
    printf("1..%d\n", n);
    fflush(stdout);
}

static void tap_line(const char *status, const char *directive,
                     const char *fmt, va_list ap)
{
    printf("%s %d - ", status, ++tap_count);
    vprintf(fmt, ap);
    if (directive)
        printf(" # %s", directive);
    putchar('\n');
    fflush(stdout);
}

int tap_ok(int ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tap_line(ok ? "ok" : "not ok", NULL, fmt, ap);
    va_end(ap);
    if (!ok)
        tap_failed++;
    return ok;
}

int tap_todo_ok(const char *why, int ok, const char *fmt, ...)
{
    char directive[512];
    va_list ap;
    snprintf(directive, sizeof(directive), "TODO %s", why);
    va_start(ap, fmt);
    tap_line(ok ? "ok" : "not ok", directive, fmt, ap);
    va_end(ap);
    return ok;
}

void tap_skip(const char *why, const char *fmt, ...)
{
    char directive[512];
    va_list ap;
    snprintf(directive, sizeof(directive), "SKIP %s", why);
    va_start(ap, fmt);
    tap_line("ok", directive, fmt, ap);
    va_end(ap);
}

void tap_diag(const char *fmt, ...)
{
    va_list ap;
    fputs("# ", stdout);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

void tap_skip_all(const char *why, ...)
{
    va_list ap;
    fputs("1..0 # SKIP ", stdout);
    va_start(ap, why);
    vprintf(why, ap);
    va_end(ap);
    putchar('\n');
    exit(0);
}

void tap_bail(const char *fmt, ...)
{
    va_list ap;
    fputs("Bail out! ", stdout);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
    exit(255);
}

int tap_done(void)
{
    if (tap_planned < 0)
        printf("1..%d\n", tap_count);
    else if (tap_planned != tap_count)
        printf("# planned %d tests but ran %d\n", tap_planned, tap_count);
    fflush(stdout);
    return tap_failed || (tap_planned >= 0 && tap_planned != tap_count);
}

void tap_hexdump(const char *label, const unsigned char *p, size_t n)
{
    printf("#   %s: ", label);
    for (size_t i = 0; i < n; i++)
        printf("%02x", p[i]);
    putchar('\n');
}

long hex_decode(const char *hex, unsigned char *buf, size_t cap)
{
    size_t len = strlen(hex), n = 0;
    while (len > 0 && isspace((unsigned char)hex[len - 1]))
        len--;
    if (len % 2)
        return -1;
    for (size_t i = 0; i < len; i += 2) {
        int hi = hex[i], lo = hex[i + 1];
        if (!isxdigit(hi) || !isxdigit(lo) || n >= cap)
            return -1;
        hi = isdigit(hi) ? hi - '0' : tolower(hi) - 'a' + 10;
        lo = isdigit(lo) ? lo - '0' : tolower(lo) - 'a' + 10;
        buf[n++] = (unsigned char)(hi << 4 | lo);
    }
    return (long)n;
}
