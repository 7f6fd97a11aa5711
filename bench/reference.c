/* SPDX-License-Identifier: Apache-2.0 */
#include "reference.h"

#include <stdio.h>
#include <string.h>

int reference_load(const struct bench_options *o, struct reference *r,
                   char *err, size_t errlen)
{
    static const char *const system_lib[] = { OSSL_SYSTEM_LIBCRYPTO };
    const char *const *paths = o->n_openssl ? o->openssl : system_lib;
    size_t n = o->n_openssl ? o->n_openssl : 1;
    char why[512];

    memset(r, 0, sizeof(*r));
    for (size_t i = 0; i < n; i++) {
        if ((r->lib[i] = ossl_open(paths[i], why, sizeof(why))) == NULL) {
            if (o->n_openssl == 0) {
                snprintf(err, errlen, "%s", why);
                return 0;
            }
            snprintf(err, errlen, "--openssl '%s': %s", paths[i], why);
            return -1;
        }
        ossl_use(r->lib[i]);
        snprintf(r->version[i], sizeof(r->version[i]), "%s", ossl_version_short());
        for (size_t k = 0; k < i; k++)
            if (strcmp(r->version[k], r->version[i]) == 0) {
                snprintf(err, errlen, "--openssl '%s' and '%s' are both %s: "
                         "nothing to tell apart", paths[k], paths[i],
                         r->version[i]);
                return -1;
            }
        r->n = i + 1;
    }
    ossl_use(r->lib[0]);
    return 0;
}
