/* SPDX-License-Identifier: Apache-2.0 */
#include "vecfile.h"
#include "tap.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Diagnostics printed per file; further failures are only counted. */
#define VEC_MAX_SHOWN 5

const char *vec_dir(void)
{
    const char *d = getenv("VECTORS");
    return d && *d ? d : "test/vectors";
}

static void set_err(struct vec_file *vf, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set_err(struct vec_file *vf, int line, const char *fmt, ...)
{
    char msg[384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (line > 0)
        snprintf(vf->err, sizeof(vf->err), "%s:%d: %s", vf->path, line, msg);
    else
        snprintf(vf->err, sizeof(vf->err), "%s: %s", vf->path, msg);
}

static int read_text(struct vec_file *vf, const char *name)
{
    memset(vf, 0, sizeof(*vf));
    snprintf(vf->name, sizeof(vf->name), "%s", name);
    snprintf(vf->path, sizeof(vf->path), "%s/%s", vec_dir(), name);

    FILE *f = fopen(vf->path, "rb");
    if (!f) {
        set_err(vf, 0, "cannot open: %s", strerror(errno));
        return -1;
    }
    size_t cap = 1 << 16;
    vf->text = malloc(cap);
    for (;;) {
        if (!vf->text) {
            fclose(f);
            set_err(vf, 0, "out of memory");
            return -1;
        }
        vf->len += fread(vf->text + vf->len, 1, cap - 1 - vf->len, f);
        if (vf->len < cap - 1)
            break;
        char *bigger = realloc(vf->text, cap *= 2);
        if (!bigger)
            free(vf->text);
        vf->text = bigger;
    }
    int bad = ferror(f);
    fclose(f);
    vf->text[vf->len] = '\0';
    if (bad) {
        set_err(vf, 0, "read error");
        return -1;
    }
    if (vf->len == 0) {
        set_err(vf, 0, "file is empty");
        return -1;
    }
    if (strlen(vf->text) != vf->len) {
        set_err(vf, 0, "file contains a NUL byte");
        return -1;
    }
    return 0;
}

int vec_read(struct vec_file *vf, const char *name)
{
    if (read_text(vf, name) == 0)
        return 0;
    vec_free(vf);
    return -1;
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t ncap = *cap ? *cap * 2 : 64;
    void *q = realloc(*p, ncap * elem);
    if (!q)
        return -1;
    *p = q;
    *cap = ncap;
    return 0;
}

/* Each line is blank, a comment, a [section] or NAME = value; parsed in place. */
static int parse(struct vec_file *vf)
{
    size_t capf = 0, capr = 0, rec_first = 0;
    const char *section = "";
    int in_record = 0, lineno = 0;
    char *next = vf->text;

    while (*next) {
        char *line = next;
        char *nl = strchr(line, '\n');
        if (nl) {
            *nl = '\0';
            next = nl + 1;
        } else {
            next = line + strlen(line);
        }
        lineno++;
        line = trim(line);

        if (*line == '\0') {
            in_record = 0;
            continue;
        }
        if (*line == '#')
            continue;
        if (*line == '[') {
            size_t n = strlen(line);
            if (line[n - 1] != ']') {
                set_err(vf, lineno, "unterminated section header \"%s\"", line);
                return -1;
            }
            line[n - 1] = '\0';
            section = trim(line + 1);
            in_record = 0;
            continue;
        }

        char *eq = strchr(line, '=');
        if (!eq) {
            set_err(vf, lineno, "expected \"NAME = value\", got \"%.60s\"", line);
            return -1;
        }
        *eq = '\0';
        char *fname = trim(line), *value = trim(eq + 1);
        if (*fname == '\0') {
            set_err(vf, lineno, "field with an empty name");
            return -1;
        }
        for (const char *p = fname; *p; p++) {
            if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-') {
                set_err(vf, lineno, "bad field name \"%.60s\"", fname);
                return -1;
            }
        }

        if (!in_record) {
            if (grow((void **)&vf->records, &capr, vf->nrecords + 1,
                     sizeof(*vf->records)) != 0) {
                set_err(vf, lineno, "out of memory");
                return -1;
            }
            struct vec_record *r = &vf->records[vf->nrecords++];
            r->section = section;
            r->line = lineno;
            r->nfields = 0;
            r->fields = NULL;   /* set once vf->fields stops moving */
            rec_first = vf->nfields;
            in_record = 1;
        }
        struct vec_record *r = &vf->records[vf->nrecords - 1];
        for (size_t i = rec_first; i < vf->nfields; i++) {
            if (strcmp(vf->fields[i].name, fname) == 0) {
                set_err(vf, lineno, "field %s repeated in the record of line %d",
                        fname, r->line);
                return -1;
            }
        }
        if (grow((void **)&vf->fields, &capf, vf->nfields + 1,
                 sizeof(*vf->fields)) != 0) {
            set_err(vf, lineno, "out of memory");
            return -1;
        }
        vf->fields[vf->nfields++] = (struct vec_field){ fname, value, lineno };
        r->nfields++;
    }

    if (vf->nrecords == 0) {
        set_err(vf, 0, "no records found");
        return -1;
    }
    /* Fields were appended record by record. */
    for (size_t i = 0, at = 0; i < vf->nrecords; i++) {
        vf->records[i].fields = vf->fields + at;
        at += vf->records[i].nfields;
    }
    return 0;
}

int vec_load(struct vec_file *vf, const char *name)
{
    if (vec_read(vf, name) != 0)
        return -1;
    if (parse(vf) == 0)
        return 0;
    vec_free(vf);
    return -1;
}

void vec_free(struct vec_file *vf)
{
    free(vf->text);
    free(vf->fields);
    free(vf->records);
    vf->text = NULL;
    vf->fields = NULL;
    vf->records = NULL;
    vf->nfields = vf->nrecords = 0;
}

const char *vec_find(const struct vec_record *r, const char *name)
{
    for (size_t i = 0; i < r->nfields; i++)
        if (strcmp(r->fields[i].name, name) == 0)
            return r->fields[i].value;
    return NULL;
}

const char *vec_get(struct vec_file *vf, const struct vec_record *r,
                    const char *name)
{
    const char *v = vec_find(r, name);
    if (!v)
        vec_fail(vf, r, "record has no %s field", name);
    return v;
}

long vec_int(struct vec_file *vf, const struct vec_record *r,
             const char *name)
{
    const char *v = vec_get(vf, r, name);
    if (!v)
        return -1;
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (end == v || *end != '\0' || n < 0 || errno) {
        vec_fail(vf, r, "%s = \"%s\" is not a decimal count", name, v);
        return -1;
    }
    return n;
}

unsigned char *vec_hex(struct vec_file *vf, const struct vec_record *r,
                       const char *name, size_t *len)
{
    const char *v = vec_get(vf, r, name);
    if (!v)
        return NULL;
    size_t cap = strlen(v) / 2 + 1;
    unsigned char *buf = malloc(cap);
    long n = buf ? hex_decode(v, buf, cap) : -1;
    if (n < 0) {
        free(buf);
        vec_fail(vf, r, "%s is not valid hex", name);
        return NULL;
    }
    *len = (size_t)n;
    return buf;
}

/* "file:line [SECTION] COUNT = n" identifying a record in diagnostics. */
static void where(char *buf, size_t cap, const struct vec_file *vf,
                  const struct vec_record *r)
{
    if (!r) {
        snprintf(buf, cap, "%s", vf->name);
        return;
    }
    const char *count = vec_find(r, "COUNT");
    int n = snprintf(buf, cap, "%s:%d", vf->name, r->line);
    if (n < 0 || (size_t)n >= cap)
        return;
    if (*r->section)
        n += snprintf(buf + n, cap - (size_t)n, " [%s]", r->section);
    if (count && (size_t)n < cap)
        snprintf(buf + n, cap - (size_t)n, " COUNT = %s", count);
}

int vec_fail(struct vec_file *vf, const struct vec_record *r,
             const char *fmt, ...)
{
    vf->failures++;
    if (vf->shown >= VEC_MAX_SHOWN)
        return 0;
    vf->shown++;

    char loc[256], msg[512];
    va_list ap;
    where(loc, sizeof(loc), vf, r);
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    tap_diag("%s: %s", loc, msg);
    return 0;
}

int vec_cmp(struct vec_file *vf, const struct vec_record *r,
            const char *what, const unsigned char *want,
            const unsigned char *got, size_t n)
{
    if (n == 0 || memcmp(want, got, n) == 0)
        return 1;

    size_t diff = 0;
    while (want[diff] == got[diff])
        diff++;
    int show = vf->shown < VEC_MAX_SHOWN;
    vec_fail(vf, r, "%s: wrong output (%zu bytes, first difference at byte %zu)",
             what, n, diff);
    if (!show)
        return 0;
    /* Long outputs: show the 32 bytes from the 16-byte block that differs. */
    size_t from = 0, count = n;
    if (n > 64) {
        from = diff / 16 * 16;
        count = n - from < 32 ? n - from : 32;
        tap_diag("  (bytes %zu..%zu shown)", from, from + count - 1);
    }
    tap_hexdump("  expected", want + from, count);
    tap_hexdump("  got     ", got + from, count);
    return 0;
}

int vec_finish(struct vec_file *vf, const char *fmt, ...)
{
    char summary[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(summary, sizeof(summary), fmt, ap);
    va_end(ap);
    if (vf->failures > vf->shown)
        tap_diag("%s: %u more failures not shown", vf->name,
                 vf->failures - vf->shown);
    if (vf->failures)
        return tap_ok(0, "%s: %s: %u check%s failed", vf->name, summary,
                      vf->failures, vf->failures == 1 ? "" : "s");
    return tap_ok(1, "%s: %s", vf->name, summary);
}

void vec_fail_file(const struct vec_file *vf)
{
    tap_ok(0, "%s: %s", vf->name, vf->err);
}
