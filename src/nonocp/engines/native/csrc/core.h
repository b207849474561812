/* The compiled native core: one puzzle's search state in C arrays, and the algorithms on it.
 *
 * The Python reference (reference.py, reference_cdcl.py) is the specification: every function here takes
 * the same steps in the same order, so that both cores give the same answers and the same counts (line
 * solves, probes, conflicts); tests/test_core.py holds them to that. core.py documents the API.
 *
 * Files: core.h (types, the line solver, shared helpers), line.c (clue plans), core.c (the Python type:
 * state, propagation, probing), cdcl.c (the CDCL search, its explanations and the store of them), belief.c
 * (belief propagation for the search's preferred colours: belief.py in C).
 *
 * A line of n cells is one `word` per colour (bit i: cell i may be that colour); positions 0..n need n + 1
 * bits and the carry of the gap extension stays below bit n + 1, so lines of up to MAX_N cells fit.
 */
#ifndef NONOCP_CORE_H
#define NONOCP_CORE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SIZEOF_INT128__
typedef unsigned __int128 word;
#define MAX_N 127
#else
typedef uint64_t word;
#define MAX_N 63
#endif
#define MAX_BLOCKS 128 /* more blocks than MAX_N cells cannot fit; such a clue is infeasible */
#define MAX_COLOURS 64
#define WORD_ONE ((word)1)

/* what a trace callback hears (reference.py: TRACE_*) and an audit callback (reference_cdcl.py: AUDIT_*) */
enum { TRACE_LINE = 0, TRACE_REFUTE = 1, TRACE_AGREE = 2 };
enum { AUDIT_EXPLAIN = 0, AUDIT_REASON = 1, AUDIT_LEARN = 2 };
/* cdcl_search's answers */
enum { EXHAUSTED = 0, SOLUTION = 1, RESTART = 2, PAUSE = 3 };

/* A clue, once per line: forward order and mirrored order (line.py's plan_of). k < 0: infeasible clue. */
typedef struct {
    int k;
    int len[MAX_BLOCKS], col[MAX_BLOCKS], gap[MAX_BLOCKS];
    int rlen[MAX_BLOCKS], rcol[MAX_BLOCKS], rgap[MAX_BLOCKS];
} Plan;

struct Cdcl;

typedef struct Core {
    PyObject_HEAD
    int H, W, ncol, nlines, ncells, nvars;
    Plan *plans; /* one per line */
    int *len;    /* per line */
    word *st;    /* the state: st[line * ncol + colour] */
    PyObject *timeout_exc;
    double deadline;
    int has_deadline;
    double last_yield; /* when core_check_limits last let other threads run */
    long long line_solves, probes, probe_passes;
    int failed_line;
    int stop; /* a limit or a callback raised: the exception is set and the caller must return NULL */
    /* propagation's queue (first in first out, a ring) */
    int *queue;
    char *inq;
    /* probing */
    long *score;
    char *scored;
    word *scratch;             /* a probe's child state */
    unsigned long long *stamp; /* per line: the clock when the state's line last narrowed */
    unsigned long long clock;
    struct Cdcl *cdcl;
} Core;

/* ---------------------------------------------------------------- helpers (core.c) */

int core_check_limits(Core *c); /* 1 when the deadline passed or a signal arrived (exception set, c->stop) */
PyObject *mask_object(word x);
int read_mask(PyObject *obj, word *out);
PyObject *masks_tuple(const word *m, int ncol);
PyObject *state_list(const Core *c, const word *st);
int plan_from(PyObject *blocks, int n, Plan *plan); /* line.c */
int core_probe(Core *c, PyObject *trace, int want_branch, PyObject **best_out);

/* ---------------------------------------------------------------- the line solver (line.py) */

static inline uint64_t reverse64(uint64_t x) {
    x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
    x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
    x = ((x >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((x & 0x0F0F0F0F0F0F0F0FULL) << 4);
    return __builtin_bswap64(x);
}

static inline word reverse_bits(word x, int n) { /* bit i -> bit n-1-i for the low n bits (n >= 1) */
#ifdef __SIZEOF_INT128__
    if (n <= 64) return (word)(reverse64((uint64_t)x) >> (64 - n));
    word r = ((word)reverse64((uint64_t)x) << 64) | reverse64((uint64_t)(x >> 64));
    return r >> (128 - n);
#else
    return reverse64(x) >> (64 - n);
#endif
}

static inline int lowest_bit(word x) {
#ifdef __SIZEOF_INT128__
    uint64_t lo = (uint64_t)x;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
#else
    return __builtin_ctzll(x);
#endif
}

static inline int popcount64(uint64_t x) {
#ifdef __POPCNT__
    return __builtin_popcountll(x);
#else /* without the instruction the builtin is a library call: this is inline and faster */
    x -= (x >> 1) & 0x5555555555555555ULL;
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
#endif
}
static inline int popcount(word x) {
#ifdef __SIZEOF_INT128__
    return popcount64((uint64_t)x) + popcount64((uint64_t)(x >> 64));
#else
    return popcount64(x);
#endif
}

static inline void reverse_all_wide(word *x, int count, int n) { /* each of x[0..count) as reverse_bits */
    for (int j = 0; j < count; j++) x[j] = reverse_bits(x[j], n);
}

/* each of x[0..count) as reverse_bits, on lines of up to 63 cells; on lines of up to 32 (most tournament and
 * picture lines), two words at once: the line solver reverses 2k + 1 + colours words per solve */
static inline void reverse_all_64(uint64_t *x, int count, int n) {
    int j = 0;
    if (n <= 32) {
        uint64_t low = (UINT64_C(1) << n) - 1;
        for (; j + 1 < count; j += 2) {
            uint64_t r = reverse64((x[j] & low) | (x[j + 1] & low) << 32);
            x[j] = r >> (64 - n);
            x[j + 1] = (r >> (32 - n)) & low;
        }
    }
    for (; j < count; j++) x[j] = reverse64(x[j]) >> (64 - n);
}

/* The line solver, twice: on `word` and, for lines of up to 63 cells (most puzzles), on 64-bit words, which
 * costs about half as much (line_solver.h is the one source of both). */
#define LS_WORD word
#define LS_NAME(x) x##_wide
#define LS_REVERSE_ALL(x, count, n) reverse_all_wide(x, count, n)
#include "line_solver.h"
#undef LS_WORD
#undef LS_NAME
#undef LS_REVERSE_ALL
#define LS_WORD uint64_t
#define LS_NAME(x) x##_64
#define LS_REVERSE_ALL(x, count, n) reverse_all_64(x, count, n)
#include "line_solver.h"
#undef LS_WORD
#undef LS_NAME
#undef LS_REVERSE_ALL

/* line.feasible_planned */
static inline int feasible(const Plan *plan, int n, int ncol, const word *masks) {
    if (plan->k < 0) return 0;
    if (n < 64) {
        uint64_t m[MAX_COLOURS];
        for (int c = 0; c < ncol; c++) m[c] = (uint64_t)masks[c];
        return feasible_64(plan, n, m);
    }
    return feasible_wide(plan, n, masks);
}

/* line.solve_planned: 0 on a contradiction, else 1 with `out` holding the narrowed masks */
static inline int solve(const Plan *plan, int n, int ncol, const word *masks, word *out) {
    if (plan->k < 0) return 0;
    if (n < 64) {
        uint64_t m[MAX_COLOURS], o[MAX_COLOURS];
        for (int c = 0; c < ncol; c++) m[c] = (uint64_t)masks[c];
        if (!solve_64(plan, n, ncol, m, o)) return 0;
        for (int c = 0; c < ncol; c++) out[c] = o[c];
        return 1;
    }
    return solve_wide(plan, n, ncol, masks, out);
}

/* A line solve of the core's line `ln`, counted (reference.py: line_result). -1 when a limit stopped the
 * search (exception set), 0 on a contradiction, 1 with `out` narrowed. */
static inline int core_solve(Core *c, int ln, const word *masks, word *out) {
    c->line_solves++;
    if (!(c->line_solves & 127) && core_check_limits(c)) return -1;
    return solve(&c->plans[ln], c->len[ln], c->ncol, masks, out);
}

/* reference.py: line_feasible, counted */
static inline int core_feasible(Core *c, int ln, const word *masks) {
    c->line_solves++;
    if (!(c->line_solves & 127) && core_check_limits(c)) return -1;
    return feasible(&c->plans[ln], c->len[ln], c->ncol, masks);
}

/* ---------------------------------------------------------------- the CDCL search (cdcl.c) */

void cdcl_free(struct Cdcl *d, int nvars, int nlines);
int cdcl_traverse(struct Cdcl *d, visitproc visit, void *arg);
PyObject *Core_cdcl_begin(Core *c, PyObject *args, PyObject *kwds);
PyObject *Core_cdcl_search(Core *c, PyObject *args);
PyObject *Core_cdcl_block(Core *c, PyObject *noargs);
PyObject *Core_cdcl_restart(Core *c, PyObject *noargs);
PyObject *Core_cdcl_prefer(Core *c, PyObject *colours);
int cdcl_counters(struct Cdcl *d, PyObject *dict);

/* belief.c: belief.py's beliefs (a module function, no Core) */
PyObject *core_beliefs(PyObject *module, PyObject *args);

#endif
