/* The exact line solver and line propagation in C, for lines of at most 127 cells (63 without a 128-bit type).
 *
 * The same algorithm as line.py (read its docstring first): one bitset per colour per line, block starts
 * found by shifted ANDs, gaps extended through background cells by one addition, a forward pass from the
 * left and one from the right (on the mirrored line), a start kept when both passes reach it. Here every
 * set is one `word` (unsigned __int128 where the compiler has it, else uint64_t): positions 0..n need
 * n + 1 bits, and the carry of the gap extension stays below bit n + 1, so the fast path takes n < the
 * word's width; longer lines stay in Python.
 *
 * Why C: the native engine spends most of its time in line solves and in the propagation loop around them,
 * and Python's big-int operations cost the same fixed overhead on every solve however small the line; here
 * a solve is tens of times cheaper (benchmarks/results/native.md, "What each C part gave").
 *
 * The module is optional: nonocp.engines.native.fast imports it if it was built, and every caller falls
 * back to the Python code otherwise (or with NONOCP_PURE_PYTHON=1), so both must give the same answers
 * (tests/test_fastline.py checks them against each other and against brute force).
 *
 * Why one file of this size: an extension module is one translation unit built by setup.py, and its parts
 * share the `word` type, the line plans and the helpers that read and build Python masks. Its sections
 * follow the Python code they mirror, in this order: the line solver (line.py), propagation
 * (Engine.propagate), explanations (cdcl.Cdcl._narrow, _shrink), the CDCL search's propagation, undo and
 * decisions (cdcl.py), and conflict analysis (Cdcl._analyze). Read each section beside its Python twin.
 */
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
#define MAX_BLOCKS 128 /* a clue with more blocks than cells has no placement; longer ones stay in Python */
#define MAX_COLOURS 64
#define WORD_ONE ((word)1)

static PyObject *SIXTY_FOUR; /* the int 64, for splitting and joining masks wider than 64 bits */

typedef struct {
    int k;                  /* blocks */
    int len[MAX_BLOCKS];    /* forward order */
    int col[MAX_BLOCKS];
    int gap[MAX_BLOCKS];    /* the next block has the same colour: one background cell is compulsory */
    int rlen[MAX_BLOCKS];   /* mirrored order */
    int rcol[MAX_BLOCKS];
    int rgap[MAX_BLOCKS];
} Plan;

static const char *PLAN_NAME = "nonocp.fastline.plan";

static uint64_t reverse64(uint64_t x) {
    x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
    x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
    x = ((x >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((x & 0x0F0F0F0F0F0F0F0FULL) << 4);
    x = ((x >> 8) & 0x00FF00FF00FF00FFULL) | ((x & 0x00FF00FF00FF00FFULL) << 8);
    x = ((x >> 16) & 0x0000FFFF0000FFFFULL) | ((x & 0x0000FFFF0000FFFFULL) << 16);
    return (x >> 32) | (x << 32);
}

static word reverse_bits(word x, int n) {
    /* bit i -> bit n-1-i for the low n bits (n >= 1) */
#ifdef __SIZEOF_INT128__
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

static inline word fits(word f, int length) {
    /* the starts of `length` consecutive cells all in f (spans doubling, as line._schedule) */
    int span = 1;
    while (span < length) {
        int step = span <= length - span ? span : length - span;
        f &= f >> step;
        span += step;
    }
    return f;
}

static inline word cover(word v, int length) {
    /* every cell some start in v covers with a block of `length` */
    int span = 1;
    while (span < length) {
        int step = span <= length - span ? span : length - span;
        v |= v << step;
        span += step;
    }
    return v;
}

/* line._forward: 0 when no placement exists */
static int forward(int k, const int *len, const int *col, const int *gap, int n, const word *masks,
                   word *starts, word *gapcells) {
    word bg = masks[0];
    word g = 1 | (((1 & bg) + bg) ^ bg);
    gapcells[0] = g & bg;
    for (int j = 0; j < k; j++) {
        word s = g & fits(masks[col[j]], len[j]);
        if (!s) return 0;
        starts[j] = s;
        word e = s << len[j];
        word p = gap[j] ? (e & bg) << 1 : e;
        g = p | (((p & bg) + bg) ^ bg);
        gapcells[j + 1] = (g | e) & bg;
    }
    return (int)((g >> n) & 1);
}

/* line.solve_planned: 0 on a contradiction, else 1 with `out` holding the narrowed masks */
static int solve(const Plan *plan, int n, int ncol, const word *masks, word *out) {
    word starts[MAX_BLOCKS], gaps[MAX_BLOCKS + 1], rstarts[MAX_BLOCKS], rgaps[MAX_BLOCKS + 1];
    word rmasks[MAX_COLOURS];
    int k = plan->k;
    if (!forward(k, plan->len, plan->col, plan->gap, n, masks, starts, gaps)) return 0;
    for (int c = 0; c < ncol; c++) rmasks[c] = reverse_bits(masks[c], n);
    if (!forward(k, plan->rlen, plan->rcol, plan->rgap, n, rmasks, rstarts, rgaps)) return 0;
    for (int c = 0; c < ncol; c++) out[c] = 0;
    word bgnew = 0;
    for (int g = 0; g <= k; g++) bgnew |= gaps[g] & reverse_bits(rgaps[k - g], n);
    out[0] = bgnew;
    for (int j = 0; j < k; j++) {
        /* the mirrored starts of block j are its last cells; shifted back by length - 1 to its starts */
        word valid = starts[j] & (reverse_bits(rstarts[k - 1 - j], n) >> (plan->len[j] - 1));
        if (!valid) return 0;
        out[plan->col[j]] |= cover(valid, plan->len[j]);
    }
    return 1;
}

static void free_plan(PyObject *capsule) {
    PyMem_Free(PyCapsule_GetPointer(capsule, PLAN_NAME));
}

/* make_plan(blocks) -> capsule; blocks as in line.Blocks: ((length, colour), ...) */
static PyObject *make_plan(PyObject *Py_UNUSED(self), PyObject *arg) {
    PyObject *seq = PySequence_Fast(arg, "make_plan: blocks must be a sequence of (length, colour)");
    if (!seq) return NULL;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    if (k > MAX_BLOCKS) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "make_plan: too many blocks for the fast path");
        return NULL;
    }
    Plan *plan = PyMem_Calloc(1, sizeof(Plan));
    if (!plan) {
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    plan->k = (int)k;
    for (Py_ssize_t j = 0; j < k; j++) {
        int length, colour;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, j), "ii", &length, &colour)) goto fail;
        if (length < 1 || length > MAX_N || colour < 1 || colour >= MAX_COLOURS) {
            PyErr_SetString(PyExc_ValueError, "make_plan: block length or colour outside the fast path");
            goto fail;
        }
        plan->len[j] = length;
        plan->col[j] = colour;
    }
    for (int j = 0; j < k; j++) {
        plan->gap[j] = j + 1 < k && plan->col[j + 1] == plan->col[j];
        plan->rlen[j] = plan->len[k - 1 - j];
        plan->rcol[j] = plan->col[k - 1 - j];
    }
    for (int j = 0; j < k; j++) plan->rgap[j] = j + 1 < k && plan->rcol[j + 1] == plan->rcol[j];
    Py_DECREF(seq);
    PyObject *capsule = PyCapsule_New(plan, PLAN_NAME, free_plan);
    if (!capsule) PyMem_Free(plan);
    return capsule;
fail:
    Py_DECREF(seq);
    PyMem_Free(plan);
    return NULL;
}

static int read_mask(PyObject *obj, word *out) {
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (v == -1 && PyErr_Occurred()) return 0;
    if (!overflow && v >= 0) {
        *out = (word)v;
        return 1;
    }
#ifdef __SIZEOF_INT128__
    if (overflow > 0) { /* wider than 63 bits: the low and the high 64 bits apart */
        unsigned long long lo = PyLong_AsUnsignedLongLongMask(obj);
        if (lo == (unsigned long long)-1 && PyErr_Occurred()) return 0;
        PyObject *high = PyNumber_Rshift(obj, SIXTY_FOUR);
        if (!high) return 0;
        unsigned long long hi = PyLong_AsUnsignedLongLong(high);
        Py_DECREF(high);
        if (hi == (unsigned long long)-1 && PyErr_Occurred()) return 0;
        *out = ((word)hi << 64) | lo;
        return 1;
    }
#endif
    PyErr_SetString(PyExc_ValueError, "a mask outside the fast path (negative or too wide)");
    return 0;
}

static PyObject *mask_object(word x) {
#ifdef __SIZEOF_INT128__
    if (x >> 64) {
        PyObject *hi = PyLong_FromUnsignedLongLong((unsigned long long)(x >> 64));
        if (!hi) return NULL;
        PyObject *shifted = PyNumber_Lshift(hi, SIXTY_FOUR);
        Py_DECREF(hi);
        if (!shifted) return NULL;
        PyObject *lo = PyLong_FromUnsignedLongLong((unsigned long long)x);
        if (!lo) {
            Py_DECREF(shifted);
            return NULL;
        }
        PyObject *joined = PyNumber_Or(shifted, lo);
        Py_DECREF(shifted);
        Py_DECREF(lo);
        return joined;
    }
#endif
    return PyLong_FromUnsignedLongLong((unsigned long long)x);
}

static PyObject *masks_tuple(const word *m, int ncol) {
    PyObject *t = PyTuple_New(ncol);
    if (!t) return NULL;
    for (int c = 0; c < ncol; c++) {
        PyObject *v = mask_object(m[c]);
        if (!v) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, c, v);
    }
    return t;
}

/* The masks of a sequence of ints into `out`: the number of colours, or -1 with an exception set (also when
 * the count is outside 2..MAX_COLOURS). */
static Py_ssize_t read_masks(PyObject *obj, word *out, const char *who) {
    PyObject *seq = PySequence_Fast(obj, "masks must be a sequence of ints");
    if (!seq) return -1;
    Py_ssize_t ncol = PySequence_Fast_GET_SIZE(seq);
    if (ncol < 2 || ncol > MAX_COLOURS) {
        PyErr_Format(PyExc_ValueError, "%s: colour count outside the fast path", who);
        ncol = -1;
    }
    for (Py_ssize_t c = 0; c < ncol; c++) {
        if (!read_mask(PySequence_Fast_GET_ITEM(seq, c), &out[c])) {
            ncol = -1;
            break;
        }
    }
    Py_DECREF(seq);
    return ncol;
}

/* solve_line(plan, n, masks) -> tuple of narrowed masks, or None on a contradiction */
static PyObject *solve_line(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *capsule, *masks_obj;
    int n;
    if (!PyArg_ParseTuple(args, "OiO", &capsule, &n, &masks_obj)) return NULL;
    Plan *plan = PyCapsule_GetPointer(capsule, PLAN_NAME);
    if (!plan) return NULL;
    if (n < 1 || n > MAX_N) {
        PyErr_SetString(PyExc_ValueError, "solve_line: line length outside the fast path");
        return NULL;
    }
    word masks[MAX_COLOURS], out[MAX_COLOURS];
    Py_ssize_t ncol = read_masks(masks_obj, masks, "solve_line");
    if (ncol < 0) return NULL;
    if (!solve(plan, n, (int)ncol, masks, out)) Py_RETURN_NONE;
    return masks_tuple(out, (int)ncol);
}

/* propagate(state, lines, plans, lengths, height, ncol) -> (removed, line solves)
 *
 * Engine.propagate without the trace and the cache: `state` is the engine's flat list (state[line * ncol +
 * colour], rows then columns), `lines` the dirty lines to start from, `plans` one capsule per line. Lines
 * are solved in first-in first-out order until nothing changes; `removed` counts the (cell, colour)
 * candidates removed, or is -1 on a contradiction (the state is then left as it was: it is written back
 * only at a fixpoint). */
static PyObject *propagate(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *state, *lines, *plans, *lengths;
    int H, ncol;
    if (!PyArg_ParseTuple(args, "O!OO!O!ii", &PyList_Type, &state, &lines, &PyList_Type, &plans, &PyList_Type,
                          &lengths, &H, &ncol))
        return NULL;
    Py_ssize_t nlines = PyList_GET_SIZE(plans);
    if (ncol < 2 || ncol > MAX_COLOURS || PyList_GET_SIZE(state) != nlines * ncol ||
        PyList_GET_SIZE(lengths) != nlines) {
        PyErr_SetString(PyExc_ValueError, "propagate: state, plans and lengths do not match");
        return NULL;
    }
    word *st = PyMem_Malloc(sizeof(word) * nlines * ncol);
    word *orig = PyMem_Malloc(sizeof(word) * nlines * ncol);
    int *queue = PyMem_Malloc(sizeof(int) * (nlines + 1));
    char *inq = PyMem_Calloc(nlines, 1);
    Plan **plan_of = PyMem_Malloc(sizeof(Plan *) * nlines);
    int *len_of = PyMem_Malloc(sizeof(int) * nlines);
    PyObject *result = NULL;
    if (!st || !orig || !queue || !inq || !plan_of || !len_of) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < nlines * ncol; i++)
        if (!read_mask(PyList_GET_ITEM(state, i), &st[i])) goto done;
    memcpy(orig, st, sizeof(word) * nlines * ncol);
    for (Py_ssize_t ln = 0; ln < nlines; ln++) {
        plan_of[ln] = PyCapsule_GetPointer(PyList_GET_ITEM(plans, ln), PLAN_NAME);
        if (!plan_of[ln]) goto done;
        long n = PyLong_AsLong(PyList_GET_ITEM(lengths, ln));
        if (n == -1 && PyErr_Occurred()) goto done;
        if (n < 1 || n > MAX_N) {
            PyErr_SetString(PyExc_ValueError, "propagate: line length outside the fast path");
            goto done;
        }
        len_of[ln] = (int)n;
    }
    /* the queue is a ring of nlines + 1 slots: a line is in it at most once */
    Py_ssize_t head = 0, tail = 0, size = nlines + 1;
    PyObject *it = PyObject_GetIter(lines);
    if (!it) goto done;
    PyObject *item;
    while ((item = PyIter_Next(it))) {
        long ln = PyLong_AsLong(item);
        Py_DECREF(item);
        if (ln < 0 || ln >= nlines) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_IndexError, "propagate: no such line");
            Py_DECREF(it);
            goto done;
        }
        if (!inq[ln]) {
            inq[ln] = 1;
            queue[tail] = (int)ln;
            tail = (tail + 1) % size;
        }
    }
    Py_DECREF(it);
    if (PyErr_Occurred()) goto done;
    long removed = 0, solves = 0;
    word out[MAX_COLOURS];
    while (head != tail) {
        int ln = queue[head];
        head = (head + 1) % size;
        inq[ln] = 0;
        word *masks = st + (Py_ssize_t)ln * ncol;
        solves++;
        if (!solve(plan_of[ln], len_of[ln], ncol, masks, out)) {
            result = Py_BuildValue("(ll)", -1L, solves);
            goto done;
        }
        int cross0, bit;
        if (ln < H) {
            cross0 = H;
            bit = ln;
        } else {
            cross0 = 0;
            bit = ln - H;
        }
        word clear = ~(WORD_ONE << bit);
        for (int c = 0; c < ncol; c++) {
            word rem = masks[c] ^ out[c];
            if (!rem) continue;
            masks[c] = out[c];
            while (rem) {
                int i = lowest_bit(rem);
                rem &= rem - 1;
                int cl = cross0 + i;
                st[(Py_ssize_t)cl * ncol + c] &= clear;
                removed++;
                if (!inq[cl]) {
                    inq[cl] = 1;
                    queue[tail] = cl;
                    tail = (tail + 1) % size;
                }
            }
        }
    }
    for (Py_ssize_t i = 0; i < nlines * ncol; i++) {
        if (st[i] == orig[i]) continue;
        PyObject *v = mask_object(st[i]);
        if (!v) goto done;
        if (PyList_SetItem(state, i, v) < 0) goto done; /* steals v */
    }
    result = Py_BuildValue("(ll)", removed, solves);
done:
    PyMem_Free(st);
    PyMem_Free(orig);
    PyMem_Free(queue);
    PyMem_Free(inq);
    PyMem_Free(plan_of);
    PyMem_Free(len_of);
    return result;
}

/* ---------------------------------------------------------------- explanations (cdcl.Cdcl._narrow) */

typedef struct {
    const Plan *plan;
    int n, ncol, i, k;
    const word *base;    /* the line's masks at level 0 */
    long solves;
} Narrowing;

/* Do the removals in `keep` (per colour) still imply the step: colour k gone from cell i, or, for k < 0,
 * a contradiction? */
static int implies(Narrowing *w, const word *keep) {
    word masks[MAX_COLOURS], out[MAX_COLOURS];
    for (int c = 0; c < w->ncol; c++) masks[c] = w->base[c] & ~keep[c];
    w->solves++;
    if (w->k < 0) {
        word starts[MAX_BLOCKS], gaps[MAX_BLOCKS + 1];
        return !forward(w->plan->k, w->plan->len, w->plan->col, w->plan->gap, w->n, masks, starts, gaps);
    }
    if (!solve(w->plan, w->n, w->ncol, masks, out)) return 1;
    return !((out[w->k] >> w->i) & 1);
}

static void window(const Narrowing *w, const word *removed, int a, int b, word *keep) {
    if (b > w->n - 1) b = w->n - 1; /* `removed` has n bits: cells past the line add nothing */
    word bits = a <= b ? (((WORD_ONE << (b + 1)) - 1) ^ ((WORD_ONE << a) - 1)) : 0;
    for (int c = 0; c < w->ncol; c++) keep[c] = removed[c] & bits;
}

static int implies_window(Narrowing *w, const word *removed, int a, int b) {
    word keep[MAX_COLOURS];
    window(w, removed, a, b, keep);
    return implies(w, keep);
}

static int largest_left(Narrowing *w, const word *removed, int lo, int hi, int b) {
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (implies_window(w, removed, mid, b))
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

static int smallest_right(Narrowing *w, const word *removed, int a, int lo, int hi) {
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (implies_window(w, removed, a, mid))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* Cdcl._narrow's steps: `keep` gets the removals (a subset of `removed`) that still imply the step */
static void narrow_core(Narrowing *w, const word *removed, int greedy_max, word *keep) {
    int n = w->n, i = w->i, a, b;
    if (i >= 0) {
        int radius = 1;
        while (radius < n && !implies_window(w, removed, radius <= i ? i - radius : 0, i + radius)) radius *= 2;
        b = i + radius < n - 1 ? i + radius : n - 1;
        a = largest_left(w, removed, i - radius > 0 ? i - radius : 0, i, b);
        b = smallest_right(w, removed, a, i, b);
    } else {
        b = smallest_right(w, removed, 0, 0, n - 1);
        a = largest_left(w, removed, 0, b, b);
    }
    window(w, removed, a, b, keep);
    /* greedy deletion of single removals inside the window, when few; farthest from the centre first */
    int inside_c[MAX_COLOURS * 2], inside_p[MAX_COLOURS * 2], count = 0;
    for (int c = 0; c < w->ncol && count <= greedy_max; c++)
        for (int p = a; p <= b && count <= greedy_max; p++)
            if ((keep[c] >> p) & 1) {
                if (count < (int)(sizeof inside_c / sizeof inside_c[0])) {
                    inside_c[count] = c;
                    inside_p[count] = p;
                }
                count++;
            }
    if (count > 1 && count <= greedy_max && count <= (int)(sizeof inside_c / sizeof inside_c[0])) {
        int centre = i >= 0 ? i : (a + b) / 2;
        for (int x = 1; x < count; x++) { /* insertion sort: stable, as Python's sort */
            int c = inside_c[x], p = inside_p[x], d = abs(p - centre), y = x - 1;
            while (y >= 0 && abs(inside_p[y] - centre) < d) {
                inside_c[y + 1] = inside_c[y];
                inside_p[y + 1] = inside_p[y];
                y--;
            }
            inside_c[y + 1] = c;
            inside_p[y + 1] = p;
        }
        for (int x = 0; x < count; x++) {
            word bit = WORD_ONE << inside_p[x];
            keep[inside_c[x]] &= ~bit;
            if (!implies(w, keep)) keep[inside_c[x]] |= bit;
        }
    }
}

/* narrow(plan, n, base, removed, i, k, greedy_max) -> (keep masks, line solves)
 *
 * Cdcl._narrow, step for step (the same windows, the same binary searches, the same greedy order), so that
 * both give the same explanations and the search takes the same path with either. */
static PyObject *narrow(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *capsule, *base_obj, *removed_obj;
    Narrowing w;
    int greedy_max;
    if (!PyArg_ParseTuple(args, "OiOOiii", &capsule, &w.n, &base_obj, &removed_obj, &w.i, &w.k, &greedy_max))
        return NULL;
    w.plan = PyCapsule_GetPointer(capsule, PLAN_NAME);
    if (!w.plan) return NULL;
    if (w.n < 1 || w.n > MAX_N || w.i >= w.n) {
        PyErr_SetString(PyExc_ValueError, "narrow: line length or cell outside the fast path");
        return NULL;
    }
    word base[MAX_COLOURS], removed[MAX_COLOURS], keep[MAX_COLOURS];
    Py_ssize_t ncol = read_masks(base_obj, base, "narrow");
    if (ncol < 0 || read_masks(removed_obj, removed, "narrow") != ncol || w.k >= ncol) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "narrow: colour counts do not match");
        return NULL;
    }
    w.ncol = (int)ncol;
    w.base = base;
    w.solves = 0;
    narrow_core(&w, removed, greedy_max, keep);
    return Py_BuildValue("(Nl)", masks_tuple(keep, (int)ncol), w.solves);
}

/* union_if_narrower(state, children) -> the union of the children's states (lists of ints as long as state),
 * or None when it equals state. Engine._agreement's first step: what every probed colour of a cell agrees on
 * is what their union leaves out, and most probes agree on nothing new, so the union list is only built
 * when it differs. Works on ints of any size (Python's own |, with 64-bit shortcuts). */
static PyObject *union_if_narrower(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *state, *children;
    if (!PyArg_ParseTuple(args, "O!O!", &PyList_Type, &state, &PyList_Type, &children)) return NULL;
    Py_ssize_t size = PyList_GET_SIZE(state), nch = PyList_GET_SIZE(children);
    if (nch < 1) {
        PyErr_SetString(PyExc_ValueError, "union_if_narrower: no children");
        return NULL;
    }
    for (Py_ssize_t j = 0; j < nch; j++) {
        PyObject *ch = PyList_GET_ITEM(children, j);
        if (!PyList_Check(ch) || PyList_GET_SIZE(ch) != size) {
            PyErr_SetString(PyExc_ValueError, "union_if_narrower: every child must be a list as long as the state");
            return NULL;
        }
    }
    PyObject *out = NULL; /* built from the first index that differs */
    for (Py_ssize_t i = 0; i < size; i++) {
        PyObject *u = PyList_GET_ITEM(PyList_GET_ITEM(children, 0), i);
        Py_INCREF(u);
        for (Py_ssize_t j = 1; j < nch; j++) {
            PyObject *v = PyNumber_Or(u, PyList_GET_ITEM(PyList_GET_ITEM(children, j), i));
            Py_DECREF(u);
            if (!v) goto fail;
            u = v;
        }
        if (!out) {
            int same = PyObject_RichCompareBool(u, PyList_GET_ITEM(state, i), Py_EQ);
            if (same < 0) {
                Py_DECREF(u);
                goto fail;
            }
            if (same) {
                Py_DECREF(u);
                continue;
            }
            out = PyList_New(size);
            if (!out) {
                Py_DECREF(u);
                return NULL;
            }
            for (Py_ssize_t e = 0; e < i; e++) { /* equal so far: the state's own values */
                PyObject *x = PyList_GET_ITEM(state, e);
                Py_INCREF(x);
                PyList_SET_ITEM(out, e, x);
            }
        }
        PyList_SET_ITEM(out, i, u); /* steals u */
    }
    if (!out) Py_RETURN_NONE;
    return out;
fail:
    Py_XDECREF(out); /* slots not yet set are NULL, which list dealloc skips */
    return NULL;
}

/* ---------------------------------------------------------------- the CDCL search's propagation (cdcl.py) */

/* The Cdcl instance's state, as cdcl.Cdcl keeps it (see its __init__): Python lists and bytearrays, read and
 * written in place, so that the Python code around (analysis, backtracking, decisions) sees every change. */
typedef struct {
    PyObject *trail, *tlevel, *reason, *rlim, *pos, *line_trail, *line_cum, *cnt, *st, *queue, *watches;
    Py_ssize_t level; /* len(trail_lim) */
    char *alive, *inq;
    int H, W, ncol;
    PyObject *plans, *lengths;
    long solves;
} Cdcl;

static PyObject *ONE;

static int set_long(PyObject *list, Py_ssize_t i, long value) {
    PyObject *x = PyLong_FromLong(value);
    if (!x) return -1;
    return PyList_SetItem(list, i, x); /* steals x */
}

static int set_double(PyObject *list, Py_ssize_t i, double value) {
    PyObject *x = PyFloat_FromDouble(value);
    if (!x) return -1;
    return PyList_SetItem(list, i, x); /* steals x */
}

static int append_long(PyObject *list, long value) {
    PyObject *x = PyLong_FromLong(value);
    if (!x) return -1;
    int rc = PyList_Append(list, x);
    Py_DECREF(x);
    return rc;
}

static int clear_bit(PyObject *list, Py_ssize_t i, int bit) {
    word w;
    if (!read_mask(PyList_GET_ITEM(list, i), &w)) return -1;
    PyObject *x = mask_object(w & ~(WORD_ONE << bit));
    if (!x) return -1;
    return PyList_SetItem(list, i, x);
}

/* line_cum[line].append((line_cum[line][-1] if line_cum[line] else 0) | 1 << bit) */
static int append_cumulative(PyObject *cums, Py_ssize_t line, long bit) {
    PyObject *lc = PyList_GET_ITEM(cums, line);
    Py_ssize_t n = PyList_GET_SIZE(lc);
    PyObject *shift = PyLong_FromLong(bit);
    if (!shift) return -1;
    PyObject *b = PyNumber_Lshift(ONE, shift);
    Py_DECREF(shift);
    if (!b) return -1;
    PyObject *x = n ? PyNumber_Or(PyList_GET_ITEM(lc, n - 1), b) : (Py_INCREF(b), b);
    Py_DECREF(b);
    if (!x) return -1;
    int rc = PyList_Append(lc, x);
    Py_DECREF(x);
    return rc;
}

static int enqueue(Cdcl *d, long line) {
    if (d->inq[line]) return 0;
    d->inq[line] = 1;
    return append_long(d->queue, line);
}

/* Cdcl._remove */
static int cd_remove(Cdcl *d, long v, PyObject *reason, long rlim, long skip_line) {
    int ncol = d->ncol, W = d->W, H = d->H;
    long cell = v / ncol, k = v % ncol, r = cell / W, c = cell % W;
    d->alive[v] = 0;
    long count = PyLong_AsLong(PyList_GET_ITEM(d->cnt, cell));
    if (count == -1 && PyErr_Occurred()) return -1;
    if (set_long(d->cnt, cell, count - 1) < 0) return -1;
    if (clear_bit(d->st, r * ncol + k, (int)c) < 0) return -1;
    if (clear_bit(d->st, (H + c) * ncol + k, (int)r) < 0) return -1;
    Py_ssize_t t = PyList_GET_SIZE(d->trail);
    if (append_long(d->trail, v) < 0 || append_long(d->tlevel, (long)d->level) < 0) return -1;
    if (PyList_Append(d->reason, reason) < 0 || append_long(d->rlim, rlim) < 0) return -1;
    if (set_long(d->pos, v, (long)t) < 0) return -1;
    if (append_long(PyList_GET_ITEM(d->line_trail, r), (long)t) < 0) return -1;
    if (append_long(PyList_GET_ITEM(d->line_trail, H + c), (long)t) < 0) return -1;
    if (append_cumulative(d->line_cum, r, k * W + c) < 0) return -1;
    if (append_cumulative(d->line_cum, H + c, k * H + r) < 0) return -1;
    if (r != skip_line && enqueue(d, r) < 0) return -1;
    if (H + c != skip_line && enqueue(d, H + c) < 0) return -1;
    return 0;
}

static long item_long(PyObject *list, Py_ssize_t i) { return PyLong_AsLong(PyList_GET_ITEM(list, i)); }

/* Attributes of the Cdcl object: `names[s]` into `*slots[s]` as new references. On failure an exception is
 * set and the ones already fetched stay in their slots for the caller's cleanup. With a `type`, each must be
 * of it (a list: the C code indexes them without checks). */
static int get_attrs(PyObject *cd, const char *const names[], PyObject **const slots[], int n, PyTypeObject *type,
                     const char *who) {
    for (int s = 0; s < n; s++) {
        *slots[s] = PyObject_GetAttrString(cd, names[s]);
        if (!*slots[s]) return 0;
        if (type && !PyObject_TypeCheck(*slots[s], type)) {
            PyErr_Format(PyExc_TypeError, "%s: %s must be a %s", who, names[s], type->tp_name);
            return 0;
        }
    }
    return 1;
}

/* Integer attributes of the Cdcl object (H, W, ncol, minimize...) into `out`. */
static int get_longs(PyObject *cd, const char *const names[], long out[], int n) {
    for (int s = 0; s < n; s++) {
        PyObject *attr = PyObject_GetAttrString(cd, names[s]);
        if (!attr) return 0;
        out[s] = PyLong_AsLong(attr);
        Py_DECREF(attr);
        if (out[s] == -1 && PyErr_Occurred()) return 0;
    }
    return 1;
}

/* Cdcl._visit_watches: 0, or 1 with *conflict set (a new list of trail indices), or -1 on an error */
static int cd_visit(Cdcl *d, long v, PyObject **conflict) {
    int ncol = d->ncol;
    PyObject *ws = PyList_GET_ITEM(d->watches, v);
    Py_INCREF(ws);
    PyObject *keep = PyList_New(0);
    if (!keep || PyList_SetItem(d->watches, v, keep) < 0) { /* SetItem steals keep, drops ws's list ref */
        Py_DECREF(ws);
        return -1;
    }
    int rc = -1;
    Py_ssize_t n = PyList_GET_SIZE(ws), i = 0;
    while (i < n) {
        PyObject *cl = PyList_GET_ITEM(ws, i);
        i++;
        Py_ssize_t len = PyList_GET_SIZE(cl);
        if (len == 0) continue; /* forgotten clause: drop the watch */
        if (item_long(cl, 0) == v) { /* cl[0], cl[1] = cl[1], v */
            PyObject *a = PyList_GET_ITEM(cl, 0), *b = PyList_GET_ITEM(cl, 1);
            PyList_SET_ITEM(cl, 0, b);
            PyList_SET_ITEM(cl, 1, a);
        }
        long other = item_long(cl, 0);
        if (d->alive[other] && item_long(d->cnt, other / ncol) == 1) { /* satisfied */
            if (PyList_Append(keep, cl) < 0) goto done;
            continue;
        }
        int moved = 0;
        for (Py_ssize_t j = 2; j < len; j++) {
            long w = item_long(cl, j);
            if (d->alive[w]) { /* cl[1], cl[j] = w, v */
                PyObject *a = PyList_GET_ITEM(cl, 1), *b = PyList_GET_ITEM(cl, j);
                PyList_SET_ITEM(cl, 1, b);
                PyList_SET_ITEM(cl, j, a);
                if (PyList_Append(PyList_GET_ITEM(d->watches, w), cl) < 0) goto done;
                moved = 1;
                break;
            }
        }
        if (moved) continue;
        if (PyList_Append(keep, cl) < 0) goto done;
        if (!d->alive[other]) { /* every literal false: conflict */
            for (Py_ssize_t j = i; j < n; j++)
                if (PyList_Append(keep, PyList_GET_ITEM(ws, j)) < 0) goto done;
            PyObject *out = PyList_New(len);
            if (!out) goto done;
            for (Py_ssize_t j = 0; j < len; j++) {
                PyObject *p = PyList_GET_ITEM(d->pos, item_long(cl, j));
                Py_INCREF(p);
                PyList_SET_ITEM(out, j, p);
            }
            *conflict = out;
            rc = 1;
            goto done;
        }
        /* unit: the cell of `other` takes its colour; the other literals are the reason */
        PyObject *why = PyList_GetSlice(cl, 1, len);
        if (!why) goto done;
        PyObject *why_tuple = PyList_AsTuple(why);
        Py_DECREF(why);
        if (!why_tuple) goto done;
        long cell = other / ncol;
        for (long u = cell * ncol; u < cell * ncol + ncol; u++) {
            if (u != other && d->alive[u] && cd_remove(d, u, why_tuple, 0, -1) < 0) {
                Py_DECREF(why_tuple);
                goto done;
            }
        }
        Py_DECREF(why_tuple);
    }
    rc = 0;
done:
    Py_DECREF(ws);
    return rc;
}

/* cdcl_propagate(cdcl, plans, lengths, qhead) -> (conflict list or None, conflict line, qhead, line solves)
 *
 * Cdcl._propagate: clause watches for every trail entry from qhead, then the most recently queued line, to a
 * fixpoint or a conflict, in exactly the Python order, so that the search takes the same path either way. */
static PyObject *cdcl_propagate(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *cd, *plans, *lengths;
    Py_ssize_t qhead;
    if (!PyArg_ParseTuple(args, "OO!O!n", &cd, &PyList_Type, &plans, &PyList_Type, &lengths, &qhead)) return NULL;
    Cdcl d;
    memset(&d, 0, sizeof d);
    PyObject **const slots[] = {&d.trail, &d.tlevel, &d.reason, &d.rlim, &d.pos, &d.line_trail, &d.line_cum,
                                &d.cnt, &d.st, &d.queue, &d.watches};
    const char *const names[] = {"trail", "tlevel", "reason", "rlim", "pos", "line_trail", "line_cum",
                                 "cnt", "st", "queue", "watches"};
    PyObject *alive = NULL, *inq = NULL, *trail_lim = NULL, *result = NULL, *conflict = NULL;
    long conflict_line = -1;
    const int nslots = (int)(sizeof names / sizeof names[0]);
    if (!get_attrs(cd, names, slots, nslots, &PyList_Type, "cdcl_propagate")) goto done;
    const char *const arrays[] = {"alive", "inq"};
    PyObject **const array_slots[] = {&alive, &inq};
    if (!get_attrs(cd, arrays, array_slots, 2, &PyByteArray_Type, "cdcl_propagate")) goto done;
    const char *const lim_name[] = {"trail_lim"};
    PyObject **const lim_slot[] = {&trail_lim};
    if (!get_attrs(cd, lim_name, lim_slot, 1, &PyList_Type, "cdcl_propagate")) goto done;
    d.alive = PyByteArray_AS_STRING(alive);
    d.inq = PyByteArray_AS_STRING(inq);
    d.level = PyList_GET_SIZE(trail_lim);
    long ints[3];
    const char *const int_names[] = {"H", "W", "ncol"};
    if (!get_longs(cd, int_names, ints, 3)) goto done;
    d.H = (int)ints[0];
    d.W = (int)ints[1];
    d.ncol = (int)ints[2];
    if (d.ncol < 2 || d.ncol > MAX_COLOURS) {
        PyErr_SetString(PyExc_ValueError, "cdcl_propagate: colour count outside the fast path");
        goto done;
    }
    word old[MAX_COLOURS], out[MAX_COLOURS];
    for (;;) {
        while (qhead < PyList_GET_SIZE(d.trail)) {
            long v = item_long(d.trail, qhead);
            qhead++;
            if (PyList_GET_SIZE(PyList_GET_ITEM(d.watches, v))) {
                int rc = cd_visit(&d, v, &conflict);
                if (rc < 0) goto done;
                if (rc) goto answer; /* conflict_line -1: a clause conflicted */
            }
        }
        Py_ssize_t qlen = PyList_GET_SIZE(d.queue);
        if (!qlen) goto answer;
        long ln = item_long(d.queue, qlen - 1);
        if (PyList_SetSlice(d.queue, qlen - 1, qlen, NULL) < 0) goto done;
        d.inq[ln] = 0;
        Plan *plan = PyCapsule_GetPointer(PyList_GET_ITEM(plans, ln), PLAN_NAME);
        if (!plan) goto done;
        int n = (int)item_long(lengths, ln);
        for (int c = 0; c < d.ncol; c++)
            if (!read_mask(PyList_GET_ITEM(d.st, (Py_ssize_t)ln * d.ncol + c), &old[c])) goto done;
        d.solves++;
        if (!solve(plan, n, d.ncol, old, out)) {
            conflict = PyList_GetSlice(PyList_GET_ITEM(d.line_trail, ln), 0, PY_SSIZE_T_MAX);
            if (!conflict) goto done;
            conflict_line = ln;
            goto answer;
        }
        Py_ssize_t lim = PyList_GET_SIZE(d.trail);
        PyObject *reason = PyLong_FromLong(ln);
        if (!reason) goto done;
        for (int c = 0; c < d.ncol; c++) {
            word rem = old[c] ^ out[c];
            while (rem) {
                int i = lowest_bit(rem);
                rem &= rem - 1;
                long cell = ln < d.H ? ln * d.W + i : (long)i * d.W + (ln - d.H);
                if (cd_remove(&d, cell * d.ncol + c, reason, (long)lim, ln) < 0) {
                    Py_DECREF(reason);
                    goto done;
                }
            }
        }
        Py_DECREF(reason);
    }
answer:
    result = Py_BuildValue("(Olnl)", conflict ? conflict : Py_None, conflict_line, qhead, d.solves);
done:
    Py_XDECREF(conflict);
    for (size_t s = 0; s < sizeof names / sizeof names[0]; s++) Py_XDECREF(*slots[s]);
    Py_XDECREF(alive);
    Py_XDECREF(inq);
    Py_XDECREF(trail_lim);
    return result;
}

/* most_active(cnt, activity) -> the undecided cell (cnt > 1) of highest activity, the first of equals; -1 if
 * none. Cdcl._decide's scan over every cell, once per decision. */
static PyObject *most_active(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *cnt, *activity;
    if (!PyArg_ParseTuple(args, "O!O!", &PyList_Type, &cnt, &PyList_Type, &activity)) return NULL;
    Py_ssize_t n = PyList_GET_SIZE(cnt);
    if (PyList_GET_SIZE(activity) != n) {
        PyErr_SetString(PyExc_ValueError, "most_active: cnt and activity differ in length");
        return NULL;
    }
    Py_ssize_t best = -1;
    double best_a = -1.0;
    for (Py_ssize_t i = 0; i < n; i++) {
        long c = item_long(cnt, i);
        if (c == -1 && PyErr_Occurred()) return NULL;
        if (c <= 1) continue;
        double a = PyFloat_AsDouble(PyList_GET_ITEM(activity, i));
        if (a == -1.0 && PyErr_Occurred()) return NULL;
        if (a > best_a) {
            best = i;
            best_a = a;
        }
    }
    return PyLong_FromSsize_t(best);
}

/* cdcl_undo(cdcl, lim) -> None: the list work of Cdcl._backtrack to trail length `lim`, in Python's order:
 * every removal from the end of the trail down to lim is undone (alive, cnt, pos; a cell that was decided
 * leaves its colour in phase), the trail's parallel lists are cut to lim, and so is every line's trail. */
static PyObject *cdcl_undo(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *cd;
    Py_ssize_t lim;
    if (!PyArg_ParseTuple(args, "On", &cd, &lim)) return NULL;
    const char *const names[] = {"trail", "tlevel", "reason", "rlim", "cnt", "pos", "phase", "line_trail",
                                 "line_cum"};
    enum { TRAIL, TLEVEL, REASON, RLIM, CNT, POS, PHASE, LINE_TRAIL, LINE_CUM, NLISTS };
    PyObject *lists[NLISTS] = {NULL};
    PyObject **slots[NLISTS];
    for (int s = 0; s < NLISTS; s++) slots[s] = &lists[s];
    PyObject *alive = NULL, *result = NULL;
    long ncol;
    const char *const alive_name[] = {"alive"}, *const ncol_name[] = {"ncol"};
    PyObject **const alive_slot[] = {&alive};
    if (!get_attrs(cd, names, (PyObject **const *)slots, NLISTS, &PyList_Type, "cdcl_undo") ||
        !get_attrs(cd, alive_name, alive_slot, 1, &PyByteArray_Type, "cdcl_undo") ||
        !get_longs(cd, ncol_name, &ncol, 1))
        goto done;
    char *al = PyByteArray_AS_STRING(alive);
    PyObject *trail = lists[TRAIL];
    for (Py_ssize_t t = PyList_GET_SIZE(trail) - 1; t >= lim; t--) {
        long v = item_long(trail, t);
        long cell = v / ncol;
        long count = item_long(lists[CNT], cell);
        if (count == -1 && PyErr_Occurred()) goto done;
        if (count == 1) { /* the cell was decided: remember its colour for the next decision on it */
            for (long k = 0; k < ncol; k++)
                if (al[cell * ncol + k] && set_long(lists[PHASE], cell, k) < 0) goto done;
        }
        al[v] = 1;
        if (set_long(lists[CNT], cell, count + 1) < 0) goto done;
        if (set_long(lists[POS], v, -1) < 0) goto done;
    }
    for (int s = TRAIL; s <= RLIM; s++) {
        Py_ssize_t len = PyList_GET_SIZE(lists[s]);
        if (lim < len && PyList_SetSlice(lists[s], lim, len, NULL) < 0) goto done;
    }
    Py_ssize_t nlines = PyList_GET_SIZE(lists[LINE_TRAIL]);
    for (Py_ssize_t ln = 0; ln < nlines; ln++) {
        PyObject *lt = PyList_GET_ITEM(lists[LINE_TRAIL], ln), *lc = PyList_GET_ITEM(lists[LINE_CUM], ln);
        Py_ssize_t len = PyList_GET_SIZE(lt), cut = len;
        while (cut > 0) {
            long t = item_long(lt, cut - 1);
            if (t == -1 && PyErr_Occurred()) goto done;
            if (t < lim) break;
            cut--;
        }
        if (cut < len) {
            if (PyList_SetSlice(lt, cut, len, NULL) < 0) goto done;
            if (PyList_SetSlice(lc, cut, PyList_GET_SIZE(lc), NULL) < 0) goto done;
        }
    }
    result = Py_None;
    Py_INCREF(result);
done:
    for (int s = 0; s < NLISTS; s++) Py_XDECREF(lists[s]);
    Py_XDECREF(alive);
    return result;
}

/* The low n bits (n <= MAX_N) of x >> shift, for a non-negative int x of any size. */
static int bits_at(PyObject *x, long shift, int n, word *out) {
    PyObject *sh = PyLong_FromLong(shift);
    if (!sh) return 0;
    PyObject *y = PyNumber_Rshift(x, sh);
    Py_DECREF(sh);
    if (!y) return 0;
    unsigned long long lo = PyLong_AsUnsignedLongLongMask(y);
    word v = lo;
#ifdef __SIZEOF_INT128__
    if (n > 64 && !(lo == (unsigned long long)-1 && PyErr_Occurred())) {
        PyObject *high = PyNumber_Rshift(y, SIXTY_FOUR);
        if (!high) {
            Py_DECREF(y);
            return 0;
        }
        unsigned long long hi = PyLong_AsUnsignedLongLongMask(high);
        Py_DECREF(high);
        v |= (word)hi << 64;
    }
#endif
    Py_DECREF(y);
    if (PyErr_Occurred()) return 0;
    *out = n >= (int)(8 * sizeof(word)) ? v : v & ((WORD_ONE << n) - 1);
    return 1;
}

#define EXPLAINED_LIMIT 200000 /* as cdcl.py: the memo is cleared past this many entries */

/* Cdcl._shrink's work (see cdcl_shrink below); a new list of trail indices, or NULL with an exception set. */
static PyObject *shrink_core(PyObject *state, PyObject *explained, PyObject *pos, const Plan *plan, long ln, int n,
                             PyObject *packed, int i, int k, int W, int H, int ncol, int greedy_max, long *solves) {
    Narrowing w;
    w.plan = plan;
    if (n < 1 || n > MAX_N || i >= n || ncol < 2 || ncol > MAX_COLOURS || k >= ncol ||
        PyList_GET_SIZE(state) < (ln + 1) * ncol) {
        PyErr_SetString(PyExc_ValueError, "cdcl_shrink: arguments outside the fast path");
        return NULL;
    }
    word base[MAX_COLOURS], removed[MAX_COLOURS], need[MAX_COLOURS];
    int count = 0;
    for (int c = 0; c < ncol; c++) {
        if (!read_mask(PyList_GET_ITEM(state, ln * ncol + c), &base[c])) return NULL;
        word r;
        if (!bits_at(packed, (long)c * n, n, &r)) return NULL;
        removed[c] = base[c] & r;
        for (word x = removed[c]; x && count < 2; x &= x - 1) count++;
    }
    w.n = n;
    w.i = i;
    w.k = k;
    w.ncol = ncol;
    w.base = base;
    w.solves = 0;
    if (count > 1) {
        word facts[MAX_COLOURS];
        for (int c = 0; c < ncol; c++) facts[c] = base[c] & ~removed[c];
        PyObject *facts_tuple = masks_tuple(facts, ncol);
        if (!facts_tuple) return NULL;
        PyObject *key = Py_BuildValue("(lNii)", ln, facts_tuple, i, k); /* N: steals facts_tuple */
        if (!key) return NULL;
        PyObject *known = PyDict_GetItemWithError(explained, key); /* borrowed */
        if (known) {
            if (!PyTuple_Check(known) || PyTuple_GET_SIZE(known) != ncol) {
                Py_DECREF(key);
                PyErr_SetString(PyExc_TypeError, "cdcl_shrink: a remembered explanation is not a tuple of masks");
                return NULL;
            }
            for (int c = 0; c < ncol; c++) {
                if (!read_mask(PyTuple_GET_ITEM(known, c), &need[c])) {
                    Py_DECREF(key);
                    return NULL;
                }
            }
        } else {
            if (PyErr_Occurred()) {
                Py_DECREF(key);
                return NULL;
            }
            narrow_core(&w, removed, greedy_max, need);
            if (PyDict_GET_SIZE(explained) > EXPLAINED_LIMIT) PyDict_Clear(explained);
            PyObject *value = masks_tuple(need, ncol);
            if (!value || PyDict_SetItem(explained, key, value) < 0) {
                Py_XDECREF(value);
                Py_DECREF(key);
                return NULL;
            }
            Py_DECREF(value);
        }
        Py_DECREF(key);
    } else {
        memcpy(need, removed, sizeof(word) * ncol); /* at most one removal: nothing to shrink */
    }
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    int row = ln < H;
    for (int c = 0; c < ncol; c++) {
        for (word m = need[c]; m; m &= m - 1) {
            int p = lowest_bit(m);
            long cell = row ? ln * W + p : (long)p * W + (ln - H);
            if (PyList_Append(out, PyList_GET_ITEM(pos, cell * ncol + c)) < 0) {
                Py_DECREF(out);
                return NULL;
            }
        }
    }
    *solves += w.solves;
    return out;
}

/* cdcl_shrink(state, explained, pos, plan, ln, n, packed, i, k, W, H, ncol, greedy_max) -> (trail indices,
 * line solves). Cdcl._shrink in C: the line's level-0 masks from `state` (the root snapshot), the removals in
 * `packed` that are not level-0 facts, the memo `explained` (the same keys and values as the Python code, so
 * either can fill it), narrow_core when the memo has no answer, then the trail index of each removal kept. */
static PyObject *cdcl_shrink(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *state, *explained, *pos, *capsule, *packed;
    long ln;
    int n, i, k, W, H, ncol, greedy_max;
    if (!PyArg_ParseTuple(args, "O!O!O!OliOiiiiii", &PyList_Type, &state, &PyDict_Type, &explained, &PyList_Type,
                          &pos, &capsule, &ln, &n, &packed, &i, &k, &W, &H, &ncol, &greedy_max))
        return NULL;
    const Plan *plan = PyCapsule_GetPointer(capsule, PLAN_NAME);
    if (!plan) return NULL;
    long solves = 0;
    PyObject *out = shrink_core(state, explained, pos, plan, ln, n, packed, i, k, W, H, ncol, greedy_max, &solves);
    if (!out) return NULL;
    return Py_BuildValue("(Nl)", out, solves);
}

/* ---------------------------------------------------------------- conflict analysis (Cdcl._analyze) */

typedef struct {
    PyObject *trail, *tlevel, *reason, *rlim, *line_trail, *line_cum, *pos, *activity, *state, *explained;
    PyObject *plans, *lengths;
    int W, H, ncol, greedy_max, minimize;
    long solves;
} Analysis;

static Py_ssize_t bisect_left_long(PyObject *list, long x) {
    Py_ssize_t lo = 0, hi = PyList_GET_SIZE(list);
    while (lo < hi) {
        Py_ssize_t mid = (lo + hi) / 2;
        if (item_long(list, mid) < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Cdcl._reason_of: a new list of the trail indices that imply trail entry t */
static PyObject *reason_of(Analysis *an, Py_ssize_t t) {
    PyObject *why = PyList_GET_ITEM(an->reason, t);
    if (PyLong_CheckExact(why)) { /* a line step */
        long ln = PyLong_AsLong(why);
        PyObject *lt = PyList_GET_ITEM(an->line_trail, ln);
        Py_ssize_t n = bisect_left_long(lt, item_long(an->rlim, t));
        if (!an->minimize) return PyList_GetSlice(lt, 0, n);
        long v = item_long(an->trail, t);
        long cell = v / an->ncol, k = v % an->ncol;
        long at = ln < an->H ? cell % an->W : cell / an->W;
        PyObject *cum = PyList_GET_ITEM(an->line_cum, ln);
        PyObject *packed = n ? PyList_GET_ITEM(cum, n - 1) : NULL;
        PyObject *zero = NULL;
        if (!packed) {
            zero = PyLong_FromLong(0);
            if (!zero) return NULL;
            packed = zero;
        }
        const Plan *plan = PyCapsule_GetPointer(PyList_GET_ITEM(an->plans, ln), PLAN_NAME);
        PyObject *out = plan ? shrink_core(an->state, an->explained, an->pos, plan, ln,
                                           (int)item_long(an->lengths, ln), packed, (int)at, (int)k, an->W, an->H,
                                           an->ncol, an->greedy_max, &an->solves)
                             : NULL;
        Py_XDECREF(zero);
        return out;
    }
    if (!PyTuple_Check(why)) {
        PyErr_SetString(PyExc_TypeError, "cdcl_analyze: a decision has no reason");
        return NULL;
    }
    Py_ssize_t m = PyTuple_GET_SIZE(why);
    PyObject *out = PyList_New(m);
    if (!out) return NULL;
    for (Py_ssize_t j = 0; j < m; j++) {
        PyObject *p = PyList_GET_ITEM(an->pos, PyLong_AsLong(PyTuple_GET_ITEM(why, j)));
        Py_INCREF(p);
        PyList_SET_ITEM(out, j, p);
    }
    return out;
}

typedef struct {
    long level;
    Py_ssize_t order;
    Py_ssize_t t;
} Lower;

static int by_level_down(const void *a, const void *b) {
    const Lower *x = a, *y = b;
    if (x->level != y->level) return x->level > y->level ? -1 : 1;
    return x->order < y->order ? -1 : (x->order > y->order); /* stable, as Python's sort */
}

/* cdcl_analyze(cdcl, conflict, plans, lengths, greedy_max) -> (clause, backjump level, LBD, line solves)
 *
 * Cdcl._analyze without its last step (the activity increment's decay, left to Python): first-UIP analysis,
 * in the same order, with the same activity bumps and the same explanations (shrink_core, the same memo). */
static PyObject *cdcl_analyze(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *cd, *conflict;
    Analysis an;
    memset(&an, 0, sizeof an);
    if (!PyArg_ParseTuple(args, "OO!O!O!i", &cd, &PyList_Type, &conflict, &PyList_Type, &an.plans, &PyList_Type,
                          &an.lengths, &an.greedy_max))
        return NULL;
    PyObject *trail_lim = NULL, *snapshots = NULL, *inc_obj = NULL, *result = NULL, *pending = NULL;
    PyObject *clause = NULL;
    char *seen = NULL;
    Lower *lower = NULL;
    PyObject **const slots[] = {&an.trail, &an.tlevel, &an.reason, &an.rlim, &an.line_trail, &an.line_cum,
                                &an.pos, &an.activity, &trail_lim, &snapshots};
    const char *const names[] = {"trail", "tlevel", "reason", "rlim", "line_trail", "line_cum", "pos", "activity",
                                 "trail_lim", "snapshots"};
    const int nslots = (int)(sizeof names / sizeof names[0]);
    const char *const others[] = {"explained", "inc"};
    PyObject **const other_slots[] = {&an.explained, &inc_obj};
    if (!get_attrs(cd, names, slots, nslots, &PyList_Type, "cdcl_analyze")) goto done;
    if (!get_attrs(cd, others, other_slots, 2, NULL, "cdcl_analyze")) goto done;
    if (!PyDict_Check(an.explained)) {
        PyErr_SetString(PyExc_TypeError, "cdcl_analyze: explained must be a dict");
        goto done;
    }
    an.state = PyList_GET_SIZE(snapshots) ? PyList_GET_ITEM(snapshots, 0) : NULL;
    if (!an.state) {
        an.state = PyObject_GetAttrString(cd, "st");
        if (!an.state) goto done;
    } else {
        Py_INCREF(an.state);
    }
    if (!PyList_Check(an.state)) {
        PyErr_SetString(PyExc_TypeError, "cdcl_analyze: the state must be a list");
        goto done;
    }
    long ints[4];
    const char *const int_names[] = {"W", "H", "ncol", "minimize"};
    if (!get_longs(cd, int_names, ints, 4)) goto done;
    an.W = (int)ints[0];
    an.H = (int)ints[1];
    an.ncol = (int)ints[2];
    an.minimize = (int)ints[3];
    double inc = PyFloat_AsDouble(inc_obj);
    if (inc == -1.0 && PyErr_Occurred()) goto done;
    Py_ssize_t ntrail = PyList_GET_SIZE(an.trail), cur = PyList_GET_SIZE(trail_lim);
    seen = PyMem_Calloc(ntrail + 1, 1);
    lower = PyMem_Malloc(sizeof(Lower) * (ntrail + 1));
    if (!seen || !lower) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t nlower = 0, count = 0, idx = ntrail - 1, uip;
    pending = conflict;
    Py_INCREF(pending);
    for (;;) {
        Py_ssize_t np = PyList_GET_SIZE(pending);
        for (Py_ssize_t j = 0; j < np; j++) {
            long t = item_long(pending, j);
            if (t >= ntrail) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_IndexError, "cdcl_analyze: no such trail entry");
                goto done;
            }
            if (t < 0 || seen[t]) continue; /* t < 0: a level-0 fact */
            seen[t] = 1;
            long lv = item_long(an.tlevel, t);
            if (lv == 0) continue;
            long cell = item_long(an.trail, t) / an.ncol;
            double a = PyFloat_AsDouble(PyList_GET_ITEM(an.activity, cell));
            if (a == -1.0 && PyErr_Occurred()) goto done;
            if (set_double(an.activity, cell, a + inc) < 0) goto done;
            if (lv == cur) {
                count++;
            } else {
                lower[nlower].level = lv;
                lower[nlower].order = nlower;
                lower[nlower].t = t;
                nlower++;
            }
        }
        while (idx >= 0 && !seen[idx]) idx--;
        if (idx < 0) {
            PyErr_SetString(PyExc_RuntimeError, "cdcl_analyze: no conflict at the current level");
            goto done;
        }
        Py_ssize_t t = idx;
        idx--;
        count--;
        if (count == 0) {
            uip = t;
            break;
        }
        Py_DECREF(pending);
        pending = reason_of(&an, t);
        if (!pending) goto done;
    }
    qsort(lower, nlower, sizeof(Lower), by_level_down);
    clause = PyList_New(nlower + 1);
    if (!clause) goto done;
    PyObject *first = PyList_GET_ITEM(an.trail, uip);
    Py_INCREF(first);
    PyList_SET_ITEM(clause, 0, first);
    long lbd = 1, last = -1;
    for (Py_ssize_t j = 0; j < nlower; j++) {
        PyObject *v = PyList_GET_ITEM(an.trail, lower[j].t);
        Py_INCREF(v);
        PyList_SET_ITEM(clause, j + 1, v);
        if (lower[j].level != last) {
            lbd++;
            last = lower[j].level;
        }
    }
    result = Py_BuildValue("(Olll)", clause, nlower ? lower[0].level : 0L, lbd, an.solves);
done:
    for (int s = 0; s < nslots; s++) Py_XDECREF(*slots[s]); /* trail_lim and snapshots among them */
    Py_XDECREF(an.explained);
    Py_XDECREF(an.state);
    Py_XDECREF(inc_obj);
    Py_XDECREF(pending);
    Py_XDECREF(clause);
    PyMem_Free(seen);
    PyMem_Free(lower);
    return result;
}

static PyMethodDef methods[] = {
    {"make_plan", make_plan, METH_O, "make_plan(blocks) -> the clue's plan for solve_line and propagate"},
    {"solve_line", solve_line, METH_VARARGS, "solve_line(plan, n, masks) -> narrowed masks or None"},
    {"narrow", narrow, METH_VARARGS,
     "narrow(plan, n, base, removed, i, k, greedy_max) -> (the removals that still imply the step, line solves)"},
    {"union_if_narrower", union_if_narrower, METH_VARARGS,
     "union_if_narrower(state, children) -> the union of the children's states, or None when it equals state"},
    {"cdcl_propagate", cdcl_propagate, METH_VARARGS,
     "cdcl_propagate(cdcl, plans, lengths, qhead) -> (conflict or None, conflict line, qhead, line solves)"},
    {"most_active", most_active, METH_VARARGS, "most_active(cnt, activity) -> the undecided cell to decide, or -1"},
    {"cdcl_undo", cdcl_undo, METH_VARARGS, "cdcl_undo(cdcl, lim) -> None: Cdcl._backtrack's list work"},
    {"cdcl_shrink", cdcl_shrink, METH_VARARGS,
     "cdcl_shrink(state, explained, pos, plan, ln, n, packed, i, k, W, H, ncol, greedy_max) -> (trail indices, "
     "line solves)"},
    {"cdcl_analyze", cdcl_analyze, METH_VARARGS,
     "cdcl_analyze(cdcl, conflict, plans, lengths, greedy_max) -> (clause, backjump level, LBD, line solves)"},
    {"propagate", propagate, METH_VARARGS,
     "propagate(state, lines, plans, lengths, height, ncol) -> (removed or -1, line solves)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_fastline", NULL, -1, methods};

PyMODINIT_FUNC PyInit__fastline(void) {
    SIXTY_FOUR = PyLong_FromLong(64);
    ONE = PyLong_FromLong(1);
    if (!SIXTY_FOUR || !ONE) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m && (PyModule_AddIntConstant(m, "MAX_N", MAX_N) < 0 ||
              PyModule_AddIntConstant(m, "MAX_COLOURS", MAX_COLOURS) < 0 ||
              PyModule_AddIntConstant(m, "MAX_BLOCKS", MAX_BLOCKS) < 0)) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
