/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Command line shared by the per-implementation test programs:
 *   PROG --list                          NAME<TAB>FORCE_MASK per entry
 *   PROG --impl NAME [--expect-dispatch]
 * The functions exit for --list and bad usage, bail out on an unknown
 * name, and skip the whole program when the CPU lacks what NAME needs.
 * With --expect-dispatch they also record a test that the dispatcher
 * picks NAME under the current OPENSSL_ia32cap.
 */
#ifndef TEST_IMPL_CLI_H
#define TEST_IMPL_CLI_H

#include "impl.h"

const struct casm_aes_impl *impl_cli_aes(int argc, char **argv);
const struct casm_sha1_impl *impl_cli_sha1(int argc, char **argv);

#endif
