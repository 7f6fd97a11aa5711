/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Guard pages for the tests: a buffer placed flush against a page mapped
 * PROT_NONE, so that an access just outside it faults, in assembly as in C
 * (AddressSanitizer instruments compiled C only and sees nothing of what
 * a .s file reads or writes).
 *
 * A region is one mapping, [guard page][data pages][guard page], made
 * once; a buffer is placed in it for each call, at no system-call cost:
 *
 *   guard_end(r, len)        flush at the end: the buffer's last byte is
 *                            the last byte before the upper guard page,
 *                            for every len, so touching byte len (one past
 *                            the end) faults.  The start is where the
 *                            length puts it: (-len) mod 16 bytes past a
 *                            16-byte boundary, so a whole number of AES
 *                            blocks starts aligned and any other length
 *                            does not.  len 0 is the guard page itself.
 *   guard_start(r, len, off) flush at the start, off bytes in: the buffer
 *                            starts off bytes after the lower guard page
 *                            (the page boundary plus off), so an access
 *                            more than off bytes before it faults; off 0
 *                            is exactly flush (byte -1 faults), off 1..15
 *                            gives the unaligned starts, whose end then
 *                            lies inside the data pages.
 *
 * The other end lies inside the data pages (unless the buffer fills
 * them), so one placement catches one direction: a test runs each call with the end flush and
 * then with the start flush.  An offset above 15, or a length the region
 * cannot hold, aborts (a bug of the caller, never reported as a fault).
 * The data bytes around the buffer can be filled with a pattern
 * (guard_fill_slack) and checked after the call (guard_slack_ok), which
 * catches a stray write the guard pages are too far away to see.
 *
 * guard_trap installs SIGSEGV and SIGBUS handlers (on their own stack).
 * A fault inside a guard page prints one TAP comment line naming the
 * region, the offset of the faulting byte from the buffer's start, read
 * or write, how the buffer was placed, and what the caller's describe
 * function says it was doing (an access straddling the page boundary
 * reports the guard page's first byte, the first one it could not
 * touch); then, when a GUARD_CALL is running, the handler jumps back out
 * of it (its flag says it faulted); otherwise, and for a fault anywhere
 * else (reported as such), the signal is left to kill the program.
 * Works in -m32 builds and under qemu-i386, which keeps page protections.
 */
#ifndef TEST_GUARD_H
#define TEST_GUARD_H

#include <setjmp.h>
#include <stddef.h>

enum guard_side { GUARD_END, GUARD_START };

struct guard_region {
    const char *name;               /* for the fault report */
    unsigned char *map;             /* the whole mapping */
    size_t map_len;
    unsigned char *data;            /* first data byte, page aligned */
    size_t cap;                     /* data bytes between the guards */
    /* The buffer placed last. */
    unsigned char *p;
    size_t len, off;
    enum guard_side side;
};

/* Maps a region for buffers of up to max_len bytes (plus 15 of offset);
 * 0 on success.  At most GUARD_MAX_REGIONS regions live at once. */
#define GUARD_MAX_REGIONS 32
int guard_region_init(struct guard_region *r, const char *name,
                      size_t max_len);
/* Grows r when len (plus 15) no longer fits; 0 on success. */
int guard_region_reserve(struct guard_region *r, size_t len);
void guard_region_free(struct guard_region *r);

/* Places a len-byte buffer as described above and returns its start. */
void *guard_end(struct guard_region *r, size_t len);
void *guard_start(struct guard_region *r, size_t len, size_t off);
void *guard_place(struct guard_region *r, enum guard_side side, size_t len,
                  size_t off);

/* The data bytes of r outside the buffer: filled, then checked (1 if
 * intact; else *first is the offset from the buffer's start of the first
 * changed byte). */
void guard_fill_slack(struct guard_region *r);
int guard_slack_ok(const struct guard_region *r, long *first);

/* --- fault reports ------------------------------------------------------ */

/* The text a fault report carries, built without stdio (signal context). */
struct guard_msg {
    char buf[1024];
    size_t n;
};
void guard_msg_str(struct guard_msg *m, const char *s);
void guard_msg_num(struct guard_msg *m, long long v);

/* Appends what the program is doing (async-signal-safe). */
typedef void (*guard_describe_f)(struct guard_msg *m);
void guard_trap(guard_describe_f describe);

/*
 * Runs a call with the trap armed; faulted (an int lvalue) becomes 1 when
 * it faulted in a guard page, else 0:
 *   GUARD_CALL(bad, fn(args...));
 * (a macro: the jump target must be in the caller's frame).
 */
extern sigjmp_buf guard_jmp;
extern volatile int guard_armed;
#define GUARD_CALL(faulted, call) \
    do { \
        if (sigsetjmp(guard_jmp, 1) == 0) { \
            guard_armed = 1; \
            call; \
            guard_armed = 0; \
            (faulted) = 0; \
        } else { \
            guard_armed = 0; \
            (faulted) = 1; \
        } \
    } while (0)

/* The last fault: the report line without its "# ", read after a jump. */
const char *guard_last_report(void);

#endif
