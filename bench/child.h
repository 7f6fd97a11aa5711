/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The measuring side: a child process the parent started (bench.c) with
 * OPENSSL_ia32cap set for one implementation.  It loads the same OpenSSL
 * libraries as the parent (reference.h), checks that implementation's
 * output against each one's (against the C code when OpenSSL is not
 * loaded, or for LRW), then times them all side by side (timing.h), and
 * writes each figure to stdout (figures_emit).
 *
 * Roles (o->child_role, o->child_name):
 *   aes NAME     AES entry NAME next to OpenSSL, in every selected mode
 *   ossl LABEL   OpenSSL alone, reported as "openssl@LABEL"
 *   sha1 NAME    SHA-1 entry NAME next to OpenSSL; NAME "-": OpenSSL alone
 */
#ifndef BENCH_CHILD_H
#define BENCH_CHILD_H

#include "options.h"

/* Returns the exit status; failures exit 3 through bench_fail(). */
int child_main(const struct bench_options *o);

#endif
