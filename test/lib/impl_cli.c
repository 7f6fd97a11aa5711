/* SPDX-License-Identifier: Apache-2.0 */
#include "impl_cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

struct cli { const char *name; int expect_dispatch; };

static struct cli parse(int argc, char **argv, void (*list)(void))
{
    struct cli c = { NULL, 0 };
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--list") == 0) {
            list();
            exit(0);
        } else if (strcmp(argv[i], "--impl") == 0 && i + 1 < argc) {
            c.name = argv[++i];
        } else if (strcmp(argv[i], "--expect-dispatch") == 0) {
            c.expect_dispatch = 1;
        } else {
            c.name = NULL;
            break;
        }
    }
    if (c.name == NULL) {
        fprintf(stderr, "usage: %s --list | --impl NAME [--expect-dispatch]\n",
                argv[0]);
        exit(2);
    }
    return c;
}

/* One test: the dispatcher's choice (`got`) is the implementation asked for. */
static void check_choice(const char *what, const char *got, const char *want)
{
    const char *env = getenv("OPENSSL_ia32cap");
    if (!tap_ok(got != NULL && strcmp(got, want) == 0,
                "%s dispatches to %s with OPENSSL_ia32cap=%s", what, want,
                env ? env : "(unset)"))
        tap_diag("expected %s, got %s", want, got ? got : "(none)");
}

/*
 * NAME<TAB>FORCE_MASK<TAB>NEED<TAB>NEED_NAME<TAB>AVOID: NEED and AVOID as
 * four hex words each (OPENSSL_ia32cap_P order), NEED_NAME the text SKIP
 * messages print.
 */
static void list_entry(const char *name, const unsigned int *force_clear,
                       const unsigned int need[4], const unsigned int avoid[4],
                       const char *need_name)
{
    char buf[CASM_FORCE_MASK_MAX];
    const char *mask = casm_force_mask_text(force_clear, buf);
    printf("%s\t%s\t%08x %08x %08x %08x\t%s\t%08x %08x %08x %08x\n", name,
           mask ? mask : "", need[0], need[1], need[2], need[3], need_name,
           avoid[0], avoid[1], avoid[2], avoid[3]);
}

static void list_aes(void)
{
    for (size_t i = 0; i < casm_aes_impl_count; i++)
        list_entry(casm_aes_impls[i]->name, casm_aes_impls[i]->force_clear,
                   casm_aes_impls[i]->need, casm_aes_impls[i]->avoid,
                   casm_aes_impls[i]->need_name);
}

static void list_sha1(void)
{
    for (size_t i = 0; i < casm_sha1_impl_count; i++)
        list_entry(casm_sha1_impls[i]->name, casm_sha1_impls[i]->force_clear,
                   casm_sha1_impls[i]->need, casm_sha1_impls[i]->avoid,
                   casm_sha1_impls[i]->need_name);
}

const struct casm_aes_impl *impl_cli_aes(int argc, char **argv)
{
    struct cli c = parse(argc, argv, list_aes);
    const struct casm_aes_impl *impl = casm_aes_impl_by_name(c.name);
    if (impl == NULL)
        tap_bail("no AES implementation named \"%s\" (see --list)", c.name);
    if (!casm_cpu_has(impl->need))
        tap_skip_all("%s needs %s", impl->name, impl->need_name);
    if (c.expect_dispatch) {
        static const unsigned char key[16];
        CASM_AES_KEY k;
        int rc = casm_aes_set_key(&k, key, 128);
        check_choice("casm_aes_set_key", rc == 0 ? casm_aes_key_impl(&k) : NULL,
                     impl->name);
    }
    return impl;
}

const struct casm_sha1_impl *impl_cli_sha1(int argc, char **argv)
{
    struct cli c = parse(argc, argv, list_sha1);
    const struct casm_sha1_impl *impl = casm_sha1_impl_by_name(c.name);
    if (impl == NULL)
        tap_bail("no SHA-1 implementation named \"%s\" (see --list)", c.name);
    if (!casm_cpu_has(impl->need))
        tap_skip_all("%s needs %s", impl->name, impl->need_name);
    if (c.expect_dispatch)
        check_choice("casm_sha1_impl()", casm_sha1_impl(), impl->name);
    return impl;
}
