/* SPDX-License-Identifier: Apache-2.0 */
#include "ossl.h"

#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/aes.h>
#include <openssl/sha.h>

#define LIBCRYPTO OSSL_SYSTEM_LIBCRYPTO

/* OpenSSL's types stay opaque: we only ever hold pointers to them. */
typedef struct evp_cipher_ctx EVP_CTX;
typedef struct evp_cipher EVP_CIPH;
typedef struct evp_md_ctx EVP_MDCTX;
typedef struct evp_md EVP_DIGEST;

typedef EVP_CTX *(*cipher_ctx_new_f) (void);
typedef void (*cipher_ctx_free_f) (EVP_CTX *);
typedef int (*cipher_init_f) (EVP_CTX *, const EVP_CIPH *, void *engine,
                              const unsigned char *key,
                              const unsigned char *iv, int enc);
typedef int (*set_padding_f) (EVP_CTX *, int pad);
typedef int (*cipher_update_f) (EVP_CTX *, unsigned char *out, int *outl,
                                const unsigned char *in, int inl);
typedef int (*cipher_final_f) (EVP_CTX *, unsigned char *out, int *outl);
typedef const EVP_CIPH *(*cipher_get_f) (void);
typedef EVP_MDCTX *(*md_ctx_new_f) (void);
typedef void (*md_ctx_free_f) (EVP_MDCTX *);
typedef int (*digest_init_f) (EVP_MDCTX *, const EVP_DIGEST *, void *engine);
typedef int (*digest_update_f) (EVP_MDCTX *, const void *, size_t);
typedef int (*digest_final_f) (EVP_MDCTX *, unsigned char *md,
                               unsigned int *len);
typedef const EVP_DIGEST *(*md_get_f) (void);
typedef const char *(*version_f) (int type);

/* One loaded libcrypto: its handle, the calls this file makes, and what
 * it says it is. */
struct ossl_lib {
    void *handle;
    cipher_ctx_new_f cipher_ctx_new;
    cipher_ctx_free_f cipher_ctx_free;
    cipher_init_f cipher_init;
    set_padding_f set_padding;
    cipher_update_f cipher_update;
    cipher_final_f cipher_final;
    /* [mode][size]: mode ecb, cbc, ctr, xts; size 128, 192, 256 */
    cipher_get_f ciphers[4][3];
    md_ctx_new_f md_ctx_new;
    md_ctx_free_f md_ctx_free;
    digest_init_f digest_init;
    digest_update_f digest_update;
    digest_final_f digest_final;
    md_get_f sha1;
    version_f version;
    char path[PATH_MAX];           /* the file the dynamic linker mapped */
    char short_version[64];
};

/* The library new contexts and the queries below use (ossl_use). */
static struct ossl_lib *current;

static const char *const mode_names[4] = { "ecb", "cbc", "ctr", "xts" };

static char last_error[256];

int ossl_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof(last_error), fmt, ap);
    va_end(ap);
    return -1;
}

const char *ossl_error(void)
{
    return last_error;
}

/* dlsym into a function pointer without a data-to-function cast warning. */
static int resolve(const struct ossl_lib *lib, void *fp, const char *name)
{
    void *sym = dlsym(lib->handle, name);
    if (sym == NULL)
        return ossl_fail("%s: no symbol %s", lib->path, name);
    memcpy(fp, &sym, sizeof(sym));
    return 0;
}

static int resolve_all(struct ossl_lib *lib)
{
    static const char *const sizes[3] = { "128", "192", "256" };
    int r = 0;

    r |= resolve(lib, &lib->cipher_ctx_new, "EVP_CIPHER_CTX_new");
    r |= resolve(lib, &lib->cipher_ctx_free, "EVP_CIPHER_CTX_free");
    r |= resolve(lib, &lib->cipher_init, "EVP_CipherInit_ex");
    r |= resolve(lib, &lib->set_padding, "EVP_CIPHER_CTX_set_padding");
    r |= resolve(lib, &lib->cipher_update, "EVP_CipherUpdate");
    r |= resolve(lib, &lib->cipher_final, "EVP_CipherFinal_ex");
    for (int m = 0; m < 4; m++) {
        for (int s = 0; s < 3; s++) {
            char name[32];
            if (m == 3 && s == 1)
                continue;           /* there is no XTS-AES-192 */
            snprintf(name, sizeof(name), "EVP_aes_%s_%s", sizes[s],
                     mode_names[m]);
            r |= resolve(lib, &lib->ciphers[m][s], name);
        }
    }
    r |= resolve(lib, &lib->md_ctx_new, "EVP_MD_CTX_new");
    r |= resolve(lib, &lib->md_ctx_free, "EVP_MD_CTX_free");
    r |= resolve(lib, &lib->digest_init, "EVP_DigestInit_ex");
    r |= resolve(lib, &lib->digest_update, "EVP_DigestUpdate");
    r |= resolve(lib, &lib->digest_final, "EVP_DigestFinal_ex");
    r |= resolve(lib, &lib->sha1, "EVP_sha1");
    r |= resolve(lib, &lib->version, "OpenSSL_version");
    return r;
}

/*
 * Whether the handle is the file asked for: a path with a '/' must be the
 * object mapped (the same file, however named), and OpenSSL_version must
 * come from that object itself, not from a library it depends on.
 */
static int check_identity(const struct ossl_lib *lib, const char *asked,
                          const struct link_map *lm)
{
    if (strchr(asked, '/') != NULL) {
        char want[PATH_MAX], got[PATH_MAX];
        if (realpath(asked, want) == NULL || realpath(lm->l_name, got) == NULL ||
            strcmp(want, got) != 0)
            return ossl_fail("%s: the dynamic linker mapped %s instead", asked,
                             lm->l_name);
    }
    void *fn;
    Dl_info info;
    struct link_map *owner = NULL;
    memcpy(&fn, &lib->version, sizeof(fn));
    if (!dladdr1(fn, &info, (void **)&owner, RTLD_DL_LINKMAP) || owner != lm)
        return ossl_fail("%s: its OpenSSL_version comes from %s, another library",
                         asked, owner ? owner->l_name : "(unknown)");
    return 0;
}

struct ossl_lib *ossl_open(const char *path, char *err, size_t errlen)
{
    struct ossl_lib *lib = calloc(1, sizeof(*lib));
    if (lib == NULL) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    /*
     * DEEPBIND: libcrypto resolves its own symbols before any global ones,
     * so its internal AES_encrypt etc. are never ours, nor another loaded
     * libcrypto's.  LOCAL: nothing loaded later sees its symbols either.
     */
    lib->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
    if (lib->handle == NULL) {
        snprintf(err, errlen, "%s", dlerror());
        free(lib);
        return NULL;
    }
    struct link_map *lm = NULL;
    snprintf(lib->path, sizeof(lib->path), "%s", path);
    if (dlinfo(lib->handle, RTLD_DI_LINKMAP, &lm) == 0 && lm->l_name[0] != '\0')
        snprintf(lib->path, sizeof(lib->path), "%s", lm->l_name);
    if (resolve_all(lib) != 0 || lm == NULL ||
        check_identity(lib, path, lm) != 0) {
        snprintf(err, errlen, "%s", lm == NULL ? "dlinfo failed" : last_error);
        dlclose(lib->handle);
        free(lib);
        return NULL;
    }
    /* "OpenSSL 3.0.15 3 Sep 2024" -> "OpenSSL 3.0.15" */
    const char *v = lib->version(0);
    const char *sp = strchr(v, ' ');
    size_t n = sp ? strcspn(sp + 1, " ") + (size_t)(sp + 1 - v) : strlen(v);
    snprintf(lib->short_version, sizeof(lib->short_version), "%.*s", (int)n, v);
    return lib;
}

void ossl_use(struct ossl_lib *lib)
{
    current = lib;
}

int ossl_load(char *err, size_t errlen)
{
    if (current != NULL)
        return 1;
    struct ossl_lib *lib = ossl_open(LIBCRYPTO, err, errlen);
    if (lib == NULL)
        return 0;
    ossl_use(lib);
    return 1;
}

const char *ossl_version(void)
{
    return current ? current->version(0) : "(OpenSSL not loaded)";
}

const char *ossl_version_short(void)
{
    return current ? current->short_version : "(OpenSSL not loaded)";
}

const char *ossl_path(void)
{
    return current ? current->path : "";
}

/* The object that holds addr, and whether it is the main executable. */
static const char *object_of(const void *addr, int *is_main)
{
    Dl_info info;
    struct link_map *lm = NULL;
    *is_main = 0;
    if (!dladdr1(addr, &info, (void **)&lm, RTLD_DL_LINKMAP) || lm == NULL)
        return "(unknown)";
    /* glibc names the main program by an empty l_name. */
    *is_main = lm->l_name[0] == '\0';
    return info.dli_fname ? info.dli_fname : "(unnamed)";
}

int ossl_check_distinct(char *report, size_t len)
{
    if (current == NULL) {
        snprintf(report, len, "OpenSSL not loaded");
        return 0;
    }
    void *their_aes = dlsym(current->handle, "AES_encrypt");
    void *their_sha = dlsym(current->handle, "SHA1_Update");
    void (*our_aes)(const unsigned char *, unsigned char *, const AES_KEY *) =
        AES_encrypt;
    int (*our_sha)(SHA_CTX *, const void *, size_t) = SHA1_Update;
    void *our_aes_p, *our_sha_p, *their_evp;
    memcpy(&our_aes_p, &our_aes, sizeof(our_aes_p));
    memcpy(&our_sha_p, &our_sha, sizeof(our_sha_p));
    memcpy(&their_evp, &current->cipher_update, sizeof(their_evp));

    int their_main, ours_main, aes_main;
    const char *their_obj = object_of(their_evp, &their_main);
    const char *our_obj = object_of(our_aes_p, &ours_main);
    const char *their_aes_obj =
        their_aes ? object_of(their_aes, &aes_main) : LIBCRYPTO;

    int ok = !their_main && strstr(their_obj, LIBCRYPTO) != NULL &&
             ours_main && strstr(our_obj, LIBCRYPTO) == NULL &&
             their_aes != our_aes_p && their_sha != our_sha_p &&
             strstr(their_aes_obj, LIBCRYPTO) != NULL;
    snprintf(report, len,
             "OpenSSL EVP_CipherUpdate in %s, AES_encrypt %p in %s; "
             "ours AES_encrypt %p SHA1_Update %p in %s%s",
             their_obj, their_aes, their_aes_obj, our_aes_p, our_sha_p,
             our_obj, ours_main ? " (main executable)" : "");
    return ok;
}

/* --- ciphers -------------------------------------------------------------- */

struct ossl_cipher {
    const struct ossl_lib *lib;    /* the library the context belongs to */
    EVP_CTX *ctx;
    int mode;
};

struct ossl_cipher *ossl_cipher_new(void)
{
    if (current == NULL) {
        ossl_fail("OpenSSL not loaded");
        return NULL;
    }
    struct ossl_cipher *c = calloc(1, sizeof(*c));
    if (c != NULL)
        c->lib = current;
    if (c == NULL || (c->ctx = current->cipher_ctx_new()) == NULL) {
        free(c);
        ossl_fail("EVP_CIPHER_CTX_new failed");
        return NULL;
    }
    return c;
}

void ossl_cipher_free(struct ossl_cipher *c)
{
    if (c == NULL)
        return;
    c->lib->cipher_ctx_free(c->ctx);
    free(c);
}

int ossl_cipher_init(struct ossl_cipher *c, const char *mode, int bits,
                     int enc, const uint8_t *key, const uint8_t *iv)
{
    int m, s;
    for (m = 0; m < 4 && strcmp(mode, mode_names[m]) != 0; m++)
        ;
    if (m == 4)
        return ossl_fail("unknown mode %s", mode);
    s = bits == 128 ? 0 : bits == 192 ? 1 : bits == 256 ? 2 : -1;
    if (s < 0 || c->lib->ciphers[m][s] == NULL)
        return ossl_fail("no AES-%d-%s in OpenSSL", bits, mode);
    /* ECB takes no IV; passing one anyway is harmless but untidy. */
    if (!c->lib->cipher_init(c->ctx, c->lib->ciphers[m][s](), NULL, key,
                          m == 0 ? NULL : iv, enc ? 1 : 0))
        return ossl_fail("EVP_CipherInit_ex(AES-%d-%s) failed", bits, mode);
    if (!c->lib->set_padding(c->ctx, 0))
        return ossl_fail("EVP_CIPHER_CTX_set_padding failed");
    c->mode = m;
    return 0;
}

int ossl_cipher_set_iv(struct ossl_cipher *c, const uint8_t *iv)
{
    /* enc = -1 keeps the direction; a NULL cipher and key keep those. */
    if (!c->lib->cipher_init(c->ctx, NULL, NULL, NULL, iv, -1))
        return ossl_fail("EVP_CipherInit_ex (new IV) failed");
    return 0;
}

int ossl_cipher_update(struct ossl_cipher *c, const uint8_t *in,
                       uint8_t *out, size_t len)
{
    /* EVP takes int lengths; XTS must see its message in one piece. */
    const size_t step = (size_t)1 << 30;
    if (c->mode == 3 && len > step)
        return ossl_fail("XTS message of %zu bytes is too long for EVP", len);
    do {
        size_t n = len < step ? len : step;
        int outl = 0;
        if (!c->lib->cipher_update(c->ctx, out, &outl, in, (int)n))
            return ossl_fail("EVP_CipherUpdate(%zu bytes) failed", n);
        if ((size_t)outl != n)
            return ossl_fail("EVP_CipherUpdate gave %d bytes for %zu", outl, n);
        in += n;
        out += n;
        len -= n;
    } while (len > 0);
    return 0;
}

int ossl_cipher(const char *mode, int bits, int enc, const uint8_t *key,
                const uint8_t *iv, const uint8_t *in, uint8_t *out,
                size_t len)
{
    static struct ossl_cipher *c;
    if (c == NULL && (c = ossl_cipher_new()) == NULL)
        return -1;
    if (ossl_cipher_init(c, mode, bits, enc, key, iv) != 0 ||
        ossl_cipher_update(c, in, out, len) != 0)
        return -1;
    int outl = 0;
    if (!c->lib->cipher_final(c->ctx, out + len, &outl) || outl != 0)
        return ossl_fail("EVP_CipherFinal_ex failed or gave %d bytes", outl);
    return 0;
}

/* --- SHA-1 ------------------------------------------------------------------ */

struct ossl_sha1 {
    const struct ossl_lib *lib;    /* the library the context belongs to */
    EVP_MDCTX *ctx;
};

struct ossl_sha1 *ossl_sha1_new(void)
{
    if (current == NULL) {
        ossl_fail("OpenSSL not loaded");
        return NULL;
    }
    struct ossl_sha1 *s = calloc(1, sizeof(*s));
    if (s != NULL)
        s->lib = current;
    if (s == NULL || (s->ctx = current->md_ctx_new()) == NULL) {
        free(s);
        ossl_fail("EVP_MD_CTX_new failed");
        return NULL;
    }
    return s;
}

void ossl_sha1_free(struct ossl_sha1 *s)
{
    if (s == NULL)
        return;
    s->lib->md_ctx_free(s->ctx);
    free(s);
}

int ossl_sha1_init(struct ossl_sha1 *s)
{
    if (!s->lib->digest_init(s->ctx, s->lib->sha1(), NULL))
        return ossl_fail("EVP_DigestInit_ex(SHA1) failed");
    return 0;
}

int ossl_sha1_update(struct ossl_sha1 *s, const void *data, size_t len)
{
    if (!s->lib->digest_update(s->ctx, data, len))
        return ossl_fail("EVP_DigestUpdate failed");
    return 0;
}

int ossl_sha1_final(struct ossl_sha1 *s, uint8_t md[20])
{
    unsigned int n = 0;
    if (!s->lib->digest_final(s->ctx, md, &n) || n != 20)
        return ossl_fail("EVP_DigestFinal_ex failed or gave %u bytes", n);
    return 0;
}

int ossl_sha1(const void *data, size_t len, uint8_t md[20])
{
    static struct ossl_sha1 *s;
    if (s == NULL && (s = ossl_sha1_new()) == NULL)
        return -1;
    if (ossl_sha1_init(s) != 0 || ossl_sha1_update(s, data, len) != 0)
        return -1;
    return ossl_sha1_final(s, md);
}

/* --- for other wrappers ------------------------------------------------------ */

int ossl_symbols(const struct ossl_sym *syms, size_t n)
{
    if (current == NULL)
        return ossl_fail("%s is not loaded (ossl_load)", LIBCRYPTO);
    for (size_t i = 0; i < n; i++)
        if (resolve(current, syms[i].fp, syms[i].name) != 0)
            return -1;
    return 0;
}

struct ossl_cipher *ossl_cipher_new_with(const struct ossl_sym *syms, size_t n)
{
    return ossl_symbols(syms, n) == 0 ? ossl_cipher_new() : NULL;
}

void *ossl_cipher_evp_ctx(struct ossl_cipher *c)
{
    return c->ctx;
}
