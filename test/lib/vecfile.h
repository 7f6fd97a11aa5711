/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reader for the test-vector files under $VECTORS (see test/vectors/README.md):
 *
 *   NIST CAVP .rsp   '#' comments, "[ENCRYPT]" / "[DECRYPT]" / "[L = 20]"
 *                    section headers, records of "NAME = value" lines
 *                    separated by blank lines; CRLF.
 *   KEY/IV/PT/CT     the same record syntax without sections; LF.
 *
 * A struct vec_file is also the tally for one TAP test: checks made while
 * walking its records count failures and print a bounded number of
 * diagnostics, then vec_finish() emits the single "ok N - <file>: ..." line.
 */
#ifndef TEST_VECFILE_H
#define TEST_VECFILE_H

#include <stddef.h>

struct vec_field {
    const char *name;
    const char *value;          /* trailing blanks and CR removed */
    int line;
};

struct vec_record {
    const char *section;        /* text inside the last [...], or "" */
    int line;                   /* line of the record's first field */
    size_t nfields;
    const struct vec_field *fields;
};

struct vec_file {
    char name[128];             /* path relative to $VECTORS, for messages */
    char path[1024];
    char *text;                 /* whole file, NUL-terminated (parsed in place) */
    size_t len;
    struct vec_field *fields;
    size_t nfields;
    struct vec_record *records;
    size_t nrecords;
    char err[1600];             /* why vec_read/vec_load failed: "file:line: ..." */
    unsigned failures;          /* checks failed so far */
    unsigned shown;             /* of those, how many printed a diagnostic */
};

/* $VECTORS, or test/vectors (relative to the repository root). */
const char *vec_dir(void);

/*
 * Reads $VECTORS/<name> into vf->text.  Returns 0, or -1 with vf->err set
 * (a missing file is an error, never an empty file).  On failure nothing
 * is left to free.
 */
int vec_read(struct vec_file *vf, const char *name);
/* vec_read, then parses records.  Returns 0, or -1 with vf->err set. */
int vec_load(struct vec_file *vf, const char *name);
void vec_free(struct vec_file *vf);

/* The field's value, or NULL if the record has no such field. */
const char *vec_find(const struct vec_record *r, const char *name);

/*
 * Accessors that count a failure (with file:line) when the field is
 * missing or malformed, so a damaged file can never pass silently.
 */
const char *vec_get(struct vec_file *vf, const struct vec_record *r,
                    const char *name);
/* Decimal field; -1 on failure. */
long vec_int(struct vec_file *vf, const struct vec_record *r,
             const char *name);
/* Hex field into a malloc'd buffer (never NULL on success, even if empty). */
unsigned char *vec_hex(struct vec_file *vf, const struct vec_record *r,
                       const char *name, size_t *len);

/*
 * Records a failure.  The diagnostic is prefixed "<file>:<line> [SECTION]
 * COUNT = n:" when r is given.  Always returns 0.
 */
int vec_fail(struct vec_file *vf, const struct vec_record *r,
             const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* 1 if want == got, else records a failure showing expected vs got. */
int vec_cmp(struct vec_file *vf, const struct vec_record *r,
            const char *what, const unsigned char *want,
            const unsigned char *got, size_t n);

/*
 * Emits the file's TAP line: "ok - <file>: <summary>" if no check failed,
 * "not ok" otherwise.  Returns 1 if ok.
 */
int vec_finish(struct vec_file *vf, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Emits "not ok - <name>: <vf->err>" for a file that could not be read. */
void vec_fail_file(const struct vec_file *vf);

#endif
