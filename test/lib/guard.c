/* SPDX-License-Identifier: Apache-2.0 */
#include "guard.h"

#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#define SLACK_BYTE 0xa5
#define MAX_OFF 15

sigjmp_buf guard_jmp;
volatile int guard_armed;

static struct guard_region *regions[GUARD_MAX_REGIONS];
static guard_describe_f describe_fn;
static struct guard_msg last;

static size_t page_size(void)
{
    static size_t page;
    if (page == 0)
        page = (size_t)sysconf(_SC_PAGESIZE);
    return page;
}

static int map_region(struct guard_region *r, size_t max_len)
{
    size_t page = page_size();
    size_t cap = (max_len + MAX_OFF + page - 1) / page * page;
    if (cap == 0)
        cap = page;
    unsigned char *map = mmap(NULL, cap + 2 * page, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED)
        return -1;
    if (mprotect(map, page, PROT_NONE) != 0 ||
        mprotect(map + page + cap, page, PROT_NONE) != 0) {
        munmap(map, cap + 2 * page);
        return -1;
    }
    r->map = map;
    r->map_len = cap + 2 * page;
    r->data = map + page;
    r->cap = cap;
    r->p = r->data + cap;
    r->len = r->off = 0;
    r->side = GUARD_END;
    return 0;
}

int guard_region_init(struct guard_region *r, const char *name, size_t max_len)
{
    size_t slot = 0;
    while (slot < GUARD_MAX_REGIONS && regions[slot] != NULL)
        slot++;
    if (slot == GUARD_MAX_REGIONS)
        return -1;
    memset(r, 0, sizeof(*r));
    r->name = name;
    if (map_region(r, max_len) != 0)
        return -1;
    regions[slot] = r;
    return 0;
}

int guard_region_reserve(struct guard_region *r, size_t len)
{
    if (len + MAX_OFF <= r->cap)
        return 0;
    unsigned char *old = r->map;
    size_t old_len = r->map_len;
    if (map_region(r, len) != 0)
        return -1;
    munmap(old, old_len);
    return 0;
}

void guard_region_free(struct guard_region *r)
{
    for (size_t i = 0; i < GUARD_MAX_REGIONS; i++)
        if (regions[i] == r)
            regions[i] = NULL;
    if (r->map != NULL)
        munmap(r->map, r->map_len);
    r->map = NULL;
}

void *guard_end(struct guard_region *r, size_t len)
{
    return guard_place(r, GUARD_END, len, 0);
}

void *guard_start(struct guard_region *r, size_t len, size_t off)
{
    return guard_place(r, GUARD_START, len, off);
}

/* A length beyond the region is the caller's bug: it aborts (SIGABRT),
 * never a fault the report would blame on the code under test. */
void *guard_place(struct guard_region *r, enum guard_side side, size_t len,
                  size_t off)
{
    if (off > MAX_OFF || len + MAX_OFF > r->cap)
        abort();
    r->side = side;
    r->len = len;
    r->off = side == GUARD_END ? 0 : off;
    r->p = side == GUARD_END ? r->data + r->cap - len : r->data + off;
    return r->p;
}

void guard_fill_slack(struct guard_region *r)
{
    memset(r->data, SLACK_BYTE, (size_t)(r->p - r->data));
    memset(r->p + r->len, SLACK_BYTE, (size_t)(r->data + r->cap - (r->p + r->len)));
}

int guard_slack_ok(const struct guard_region *r, long *first)
{
    for (const unsigned char *q = r->data; q < r->data + r->cap; q++) {
        if (q == r->p)
            q += r->len;
        if (q < r->data + r->cap && *q != SLACK_BYTE) {
            *first = (long)(q - r->p);
            return 0;
        }
    }
    return 1;
}

/* --- fault reports ------------------------------------------------------ */

void guard_msg_str(struct guard_msg *m, const char *s)
{
    while (*s != '\0' && m->n + 1 < sizeof(m->buf))
        m->buf[m->n++] = *s++;
    m->buf[m->n] = '\0';
}

void guard_msg_num(struct guard_msg *m, long long v)
{
    char digits[24];
    size_t n = 0;
    unsigned long long u = v < 0 ? 0 - (unsigned long long)v : (unsigned long long)v;
    do {
        digits[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u != 0);
    if (v < 0)
        guard_msg_str(m, "-");
    while (n > 0 && m->n + 1 < sizeof(m->buf))
        m->buf[m->n++] = digits[--n];
    m->buf[m->n] = '\0';
}

/* "in: 272 bytes flush at the end, start at 48 mod 64" (or "flush at
 * the start + 3"): the placement and the start's alignment. */
static void placement(struct guard_msg *m, const struct guard_region *r)
{
    guard_msg_str(m, r->name);
    guard_msg_str(m, ": ");
    guard_msg_num(m, (long long)r->len);
    if (r->side == GUARD_END) {
        guard_msg_str(m, " bytes flush at the end");
    } else {
        guard_msg_str(m, " bytes flush at the start + ");
        guard_msg_num(m, (long long)r->off);
    }
    guard_msg_str(m, ", start at ");
    guard_msg_num(m, (long long)((uintptr_t)r->p % 64));
    guard_msg_str(m, " mod 64");
}

static void write_all(const char *s, size_t n)
{
    while (n > 0) {
        ssize_t w = write(1, s, n);
        if (w <= 0)
            return;
        s += w;
        n -= (size_t)w;
    }
}

/* The report as one TAP comment line. */
static void emit(const struct guard_msg *m)
{
    write_all("# ", 2);
    write_all(m->buf, m->n);
    write_all("\n", 1);
}

/* Page faults put the x86 error code in the context; bit 1 is a write. */
static int fault_was_write(const void *uctx)
{
    const ucontext_t *uc = uctx;
    return (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0;
}

static void on_fault(int sig, siginfo_t *si, void *uctx)
{
    uintptr_t a = (uintptr_t)si->si_addr;
    const struct guard_region *hit = NULL;
    size_t page = page_size();
    for (size_t i = 0; i < GUARD_MAX_REGIONS && hit == NULL; i++) {
        const struct guard_region *r = regions[i];
        if (r == NULL)
            continue;
        uintptr_t lo = (uintptr_t)r->map, hi = (uintptr_t)(r->data + r->cap);
        if ((a >= lo && a < lo + page) || (a >= hi && a < hi + page))
            hit = r;
    }

    last.n = 0;
    last.buf[0] = '\0';
    if (hit == NULL) {
        guard_msg_str(&last, sig == SIGBUS ? "SIGBUS" : "SIGSEGV");
        guard_msg_str(&last, " outside every guard page, during ");
        if (describe_fn)
            describe_fn(&last);
        emit(&last);
        signal(sig, SIG_DFL);       /* the access repeats and kills us */
        return;
    }

    long long at = (long long)a - (long long)(uintptr_t)hit->p;
    guard_msg_str(&last, "guard page fault: ");
    guard_msg_str(&last, fault_was_write(uctx) ? "write" : "read");
    guard_msg_str(&last, " at offset ");
    guard_msg_num(&last, at);
    guard_msg_str(&last, " of the ");
    guard_msg_num(&last, (long long)hit->len);
    guard_msg_str(&last, "-byte buffer ");
    guard_msg_str(&last, hit->name);
    guard_msg_str(&last, " (");
    if (at >= (long long)hit->len) {
        guard_msg_num(&last, at - (long long)hit->len + 1);
        guard_msg_str(&last, " byte(s) past its end");
    } else {
        guard_msg_num(&last, -at);
        guard_msg_str(&last, " byte(s) before its start");
    }
    guard_msg_str(&last, ", ");
    placement(&last, hit);
    guard_msg_str(&last, "), in ");
    if (describe_fn)
        describe_fn(&last);
    emit(&last);
    if (guard_armed)
        siglongjmp(guard_jmp, 1);
    signal(sig, SIG_DFL);           /* not in a GUARD_CALL: die of it */
}

void guard_trap(guard_describe_f describe)
{
    static unsigned char altstack[64 * 1024];
    stack_t ss;
    memset(&ss, 0, sizeof(ss));
    ss.ss_sp = altstack;
    ss.ss_size = sizeof(altstack);
    sigaltstack(&ss, NULL);

    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    describe_fn = describe;
}

const char *guard_last_report(void)
{
    return last.buf;
}
