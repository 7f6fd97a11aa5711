/* SPDX-License-Identifier: Apache-2.0 */
/*
 * OpenSSL's libcrypto.so.3 as a reference, for the differential test and
 * the benchmark: the system's, or (the benchmark) any other build of it,
 * up to two at once.
 *
 * A library is loaded with dlopen(RTLD_LOCAL | RTLD_DEEPBIND) and called
 * only through EVP function pointers, so neither side's AES_encrypt,
 * SHA1_Update, ... can bind to the other's: our archive and OpenSSL
 * export the same names, and so do two libcrypto builds loaded together.
 * No OpenSSL header is used.
 *
 * One loaded library is current (ossl_use): new contexts belong to it and
 * keep using it, and the version and path queries describe it.
 *
 * Functions returning int give 0 on success and -1 on failure, with the
 * reason in ossl_error(); a library must be current first.
 */
#ifndef TEST_OSSL_H
#define TEST_OSSL_H

#include <stddef.h>
#include <stdint.h>

/* The system's library, as the dynamic linker finds it by name. */
#define OSSL_SYSTEM_LIBCRYPTO "libcrypto.so.3"

/* Loads the system's libcrypto.so.3 once and makes it current, unless a
 * library is current already; on failure writes why into err. */
int ossl_load(char *err, size_t errlen);

struct ossl_lib;
/*
 * Loads the libcrypto at path (a name without '/' is searched for as the
 * dynamic linker does) and checks that the handle is that file: the object
 * mapped is the path's file and OpenSSL_version is its own.  NULL, with
 * why in err, if not or if a call is missing.  The same file twice gives
 * two records of one handle.
 */
struct ossl_lib *ossl_open(const char *path, char *err, size_t errlen);
/* Makes lib the current library. */
void ossl_use(struct ossl_lib *lib);
/* OpenSSL_version(OPENSSL_VERSION) of the current library, e.g. "OpenSSL
 * 3.0.15 3 Sep 2024". */
const char *ossl_version(void);
/* "OpenSSL 3.0.15": the first two words of ossl_version(). */
const char *ossl_version_short(void);
/* The current library's file, as the dynamic linker mapped it. */
const char *ossl_path(void);
/* Why the last call failed. */
const char *ossl_error(void);

/*
 * Checks that OpenSSL's code and ours are separate: OpenSSL's AES_encrypt
 * and SHA1_Update are other addresses than ours, its EVP code lives in
 * libcrypto.so.3 and ours in the executable.  Returns 1 if so; report gets
 * a one-line description either way.
 */
int ossl_check_distinct(char *report, size_t len);

/*
 * A reusable cipher context.  mode: "ecb", "cbc", "ctr" or "xts"; bits is
 * the AES key size (for XTS per half, so the key is 2 * bits / 8 bytes).
 * Padding is off.  Each update continues the stream (CBC chaining, CTR
 * counter) except XTS, where every update is a whole message under the IV.
 */
struct ossl_cipher;
struct ossl_cipher *ossl_cipher_new(void);
void ossl_cipher_free(struct ossl_cipher *c);
int ossl_cipher_init(struct ossl_cipher *c, const char *mode, int bits,
                     int enc, const uint8_t *key, const uint8_t *iv);
/* Restarts with a new IV, keeping the key. */
int ossl_cipher_set_iv(struct ossl_cipher *c, const uint8_t *iv);
int ossl_cipher_update(struct ossl_cipher *c, const uint8_t *in,
                       uint8_t *out, size_t len);

/* One message with a fresh state (one context reused internally). */
int ossl_cipher(const char *mode, int bits, int enc, const uint8_t *key,
                const uint8_t *iv, const uint8_t *in, uint8_t *out,
                size_t len);

/* Streaming SHA-1 over EVP_sha1. */
struct ossl_sha1;
struct ossl_sha1 *ossl_sha1_new(void);
void ossl_sha1_free(struct ossl_sha1 *s);
int ossl_sha1_init(struct ossl_sha1 *s);
int ossl_sha1_update(struct ossl_sha1 *s, const void *data, size_t len);
int ossl_sha1_final(struct ossl_sha1 *s, uint8_t md[20]);
int ossl_sha1(const void *data, size_t len, uint8_t md[20]);

/*
 * For wrappers of other EVP interfaces (ossl_aead.c): each named
 * symbol of the current libcrypto into its function pointer; a failure, its
 * reason then in ossl_error() (returns -1); and a cipher context's
 * EVP_CIPHER_CTX.
 */
struct ossl_sym {
    void *fp;               /* address of the function pointer */
    const char *name;
};
int ossl_symbols(const struct ossl_sym *syms, size_t n);
/* ossl_symbols, then a cipher context in the same library; NULL on
 * failure, with why in ossl_error(). */
struct ossl_cipher *ossl_cipher_new_with(const struct ossl_sym *syms, size_t n);
int ossl_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void *ossl_cipher_evp_ctx(struct ossl_cipher *c);

#endif
