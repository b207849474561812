/* The Python type `_core.Core`: construction, the state, line propagation and probing (reference.py), and the
 * module. The CDCL search is in cdcl.c. Each function names the reference method it follows step for step.
 * One file for the type and its methods: they share the Core struct and the Python argument handling. */
#include "core.h"

#include <time.h>

static PyObject *SIXTY_FOUR; /* the int 64, for joining and splitting masks wider than 64 bits */

/* ---------------------------------------------------------------- helpers */

static double monotonic_now(void) { /* time.monotonic()'s clock */
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Seconds between the moments a core with a deadline lets other Python threads run: the core holds the
 * interpreter lock while it works, and a thread that cancels the search (nonocp.Cancel moves the deadline to
 * the past) needs it for a moment. Releasing an uncontended lock costs well under a microsecond. */
#define YIELD_EVERY 0.005

int core_check_limits(Core *c) {
    if (c->stop) return 1;
    double now = c->has_deadline ? monotonic_now() : 0.0;
    if (c->has_deadline && now - c->last_yield > YIELD_EVERY) {
        c->last_yield = now;
        Py_BEGIN_ALLOW_THREADS
        Py_END_ALLOW_THREADS
    }
    if (c->has_deadline && now > c->deadline) { /* the deadline as it is now: another thread may have moved it */
        PyErr_SetNone(c->timeout_exc);
        c->stop = 1;
        return 1;
    }
    if (PyErr_CheckSignals() < 0) {
        c->stop = 1;
        return 1;
    }
    return 0;
}

int read_mask(PyObject *obj, word *out) {
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
    PyErr_SetString(PyExc_ValueError, "a mask outside the compiled core (negative or too wide)");
    return 0;
}

PyObject *mask_object(word x) {
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

PyObject *masks_tuple(const word *m, int ncol) {
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

PyObject *state_list(const Core *c, const word *st) {
    Py_ssize_t size = (Py_ssize_t)c->nlines * c->ncol;
    PyObject *out = PyList_New(size);
    if (!out) return NULL;
    for (Py_ssize_t i = 0; i < size; i++) {
        PyObject *v = mask_object(st[i]);
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, v);
    }
    return out;
}

static int read_state(const Core *c, PyObject *obj, word *st) {
    PyObject *seq = PySequence_Fast(obj, "a state is a sequence of ints");
    if (!seq) return 0;
    Py_ssize_t size = (Py_ssize_t)c->nlines * c->ncol;
    int ok = PySequence_Fast_GET_SIZE(seq) == size;
    if (!ok) PyErr_SetString(PyExc_ValueError, "set_state: the state does not fit this puzzle");
    for (Py_ssize_t i = 0; ok && i < size; i++) {
        ok = read_mask(PySequence_Fast_GET_ITEM(seq, i), &st[i]);
        if (ok && st[i] >> c->len[i / c->ncol]) {
            PyErr_SetString(PyExc_ValueError, "set_state: a mask wider than its line");
            ok = 0;
        }
    }
    Py_DECREF(seq);
    return ok;
}

static void assign_cell(const Core *c, word *st, int r, int col, int colour) { /* reference.py: _assign */
    int ncol = c->ncol;
    word rbit = ~(WORD_ONE << col), cbit = ~(WORD_ONE << r);
    word *row = st + (Py_ssize_t)r * ncol, *column = st + (Py_ssize_t)(c->H + col) * ncol;
    for (int k = 0; k < ncol; k++)
        if (k != colour) {
            row[k] &= rbit;
            column[k] &= cbit;
        }
}

static int call_trace(Core *c, PyObject *trace, PyObject *args) { /* 0 when it raised (c->stop set) */
    if (!args) {
        c->stop = 1;
        return 0;
    }
    PyObject *r = PyObject_CallObject(trace, args);
    Py_DECREF(args);
    if (!r) {
        c->stop = 1;
        return 0;
    }
    Py_DECREF(r);
    return 1;
}

/* ---------------------------------------------------------------- construction */

static void core_release(Core *c) {
    if (c->cdcl) {
        cdcl_free(c->cdcl, c->nvars, c->nlines);
        c->cdcl = NULL;
    }
    PyMem_Free(c->plans);
    PyMem_Free(c->len);
    PyMem_Free(c->st);
    PyMem_Free(c->queue);
    PyMem_Free(c->inq);
    PyMem_Free(c->score);
    PyMem_Free(c->scored);
    PyMem_Free(c->scratch);
    PyMem_Free(c->stamp);
    c->plans = NULL;
    c->len = NULL;
    c->st = c->scratch = NULL;
    c->queue = NULL;
    c->inq = c->scored = NULL;
    c->score = NULL;
    c->stamp = NULL;
}

static void reset_state(Core *c) {
    for (int ln = 0; ln < c->nlines; ln++) {
        word full = (WORD_ONE << c->len[ln]) - 1;
        for (int k = 0; k < c->ncol; k++) c->st[(Py_ssize_t)ln * c->ncol + k] = full;
    }
}

/* Core(blocks, lengths, height, width, ncol, timeout): blocks and lengths per line (rows, then columns);
 * timeout is the exception class to raise when the deadline passes. */
static int Core_init(Core *c, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"blocks", "lengths", "height", "width", "ncol", "timeout", NULL};
    PyObject *blocks, *lengths, *timeout;
    int H, W, ncol;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOiiiO", kwlist, &blocks, &lengths, &H, &W, &ncol, &timeout))
        return -1;
    core_release(c);
    if (H < 1 || W < 1 || H > MAX_N || W > MAX_N || ncol < 2 || ncol > MAX_COLOURS) {
        PyErr_SetString(PyExc_ValueError, "Core: the puzzle is outside the compiled core (size or colours)");
        return -1;
    }
    if (!PyExceptionClass_Check(timeout)) {
        PyErr_SetString(PyExc_TypeError, "Core: timeout must be an exception class");
        return -1;
    }
    c->H = H;
    c->W = W;
    c->ncol = ncol;
    c->nlines = H + W;
    c->ncells = H * W;
    c->nvars = H * W * ncol;
    Py_INCREF(timeout);
    Py_XSETREF(c->timeout_exc, timeout);
    c->has_deadline = 0;
    c->last_yield = 0.0;
    c->failed_line = -1;
    c->stop = 0;
    c->line_solves = c->probes = c->probe_passes = 0;
    c->clock = 0;
    int nlines = c->nlines;
    c->plans = PyMem_Calloc(nlines, sizeof(Plan));
    c->len = PyMem_Calloc(nlines, sizeof(int));
    c->st = PyMem_Calloc((size_t)nlines * ncol, sizeof(word));
    c->scratch = PyMem_Calloc((size_t)nlines * ncol, sizeof(word));
    c->queue = PyMem_Calloc(nlines + 1, sizeof(int));
    c->inq = PyMem_Calloc(nlines, 1);
    c->score = PyMem_Calloc(c->ncells, sizeof(long));
    c->scored = PyMem_Calloc(c->ncells, 1);
    c->stamp = PyMem_Calloc(nlines, sizeof(unsigned long long));
    if (!c->plans || !c->len || !c->st || !c->scratch || !c->queue || !c->inq || !c->score || !c->scored ||
        !c->stamp) {
        PyErr_NoMemory();
        return -1;
    }
    PyObject *bseq = PySequence_Fast(blocks, "Core: blocks must be a sequence of clues");
    if (!bseq) return -1;
    PyObject *lseq = PySequence_Fast(lengths, "Core: lengths must be a sequence of ints");
    if (!lseq) {
        Py_DECREF(bseq);
        return -1;
    }
    int ok = PySequence_Fast_GET_SIZE(bseq) == nlines && PySequence_Fast_GET_SIZE(lseq) == nlines;
    if (!ok) PyErr_SetString(PyExc_ValueError, "Core: one clue and one length per line");
    for (int ln = 0; ok && ln < nlines; ln++) {
        long n = PyLong_AsLong(PySequence_Fast_GET_ITEM(lseq, ln));
        if (n == -1 && PyErr_Occurred()) {
            ok = 0;
            break;
        }
        if (n != (ln < H ? W : H)) {
            PyErr_SetString(PyExc_ValueError, "Core: a line's length is not the grid's");
            ok = 0;
            break;
        }
        c->len[ln] = (int)n;
        ok = plan_from(PySequence_Fast_GET_ITEM(bseq, ln), (int)n, &c->plans[ln]);
        for (int j = 0; ok && j < c->plans[ln].k; j++)
            if (c->plans[ln].col[j] >= ncol) {
                PyErr_SetString(PyExc_ValueError, "Core: a block's colour is not in the palette");
                ok = 0;
            }
    }
    Py_DECREF(bseq);
    Py_DECREF(lseq);
    if (!ok) return -1;
    reset_state(c);
    return 0;
}

static int Core_traverse(Core *c, visitproc visit, void *arg) {
    Py_VISIT(c->timeout_exc);
    if (c->cdcl) return cdcl_traverse(c->cdcl, visit, arg);
    return 0;
}

static int Core_clear(Core *c) {
    Py_CLEAR(c->timeout_exc);
    if (c->cdcl) {
        cdcl_free(c->cdcl, c->nvars, c->nlines);
        c->cdcl = NULL;
    }
    return 0;
}

static void Core_dealloc(Core *c) {
    PyObject_GC_UnTrack(c);
    Core_clear(c);
    core_release(c);
    Py_TYPE(c)->tp_free((PyObject *)c);
}

/* ---------------------------------------------------------------- the state */

static PyObject *Core_reset(Core *c, PyObject *Py_UNUSED(noargs)) {
    reset_state(c);
    Py_RETURN_NONE;
}

static PyObject *Core_set_state(Core *c, PyObject *st) {
    word *tmp = PyMem_Malloc(sizeof(word) * c->nlines * c->ncol);
    if (!tmp) return PyErr_NoMemory();
    if (!read_state(c, st, tmp)) {
        PyMem_Free(tmp);
        return NULL;
    }
    memcpy(c->st, tmp, sizeof(word) * c->nlines * c->ncol);
    PyMem_Free(tmp);
    Py_RETURN_NONE;
}

static PyObject *Core_state(Core *c, PyObject *Py_UNUSED(noargs)) { return state_list(c, c->st); }

static PyObject *Core_masks(Core *c, PyObject *Py_UNUSED(noargs)) { /* reference.py: masks */
    PyObject *out = PyList_New(c->ncells);
    if (!out) return NULL;
    for (int r = 0; r < c->H; r++) {
        const word *row = c->st + (Py_ssize_t)r * c->ncol;
        for (int col = 0; col < c->W; col++) {
            unsigned long long m = 0;
            for (int k = 0; k < c->ncol; k++) m |= (unsigned long long)((row[k] >> col) & 1) << k;
            PyObject *v = PyLong_FromUnsignedLongLong(m);
            if (!v) {
                Py_DECREF(out);
                return NULL;
            }
            PyList_SET_ITEM(out, r * c->W + col, v);
        }
    }
    return out;
}

static int cell_args(Core *c, PyObject *args, int *r, int *col, int *k) {
    if (!PyArg_ParseTuple(args, "iii", r, col, k)) return 0;
    if (*r < 0 || *r >= c->H || *col < 0 || *col >= c->W || *k < 0 || *k >= c->ncol) {
        PyErr_SetString(PyExc_IndexError, "no such cell or colour");
        return 0;
    }
    return 1;
}

static PyObject *Core_assign(Core *c, PyObject *args) {
    int r, col, k;
    if (!cell_args(c, args, &r, &col, &k)) return NULL;
    assign_cell(c, c->st, r, col, k);
    Py_RETURN_NONE;
}

static PyObject *Core_forbid(Core *c, PyObject *args) {
    int r, col, k;
    if (!cell_args(c, args, &r, &col, &k)) return NULL;
    c->st[(Py_ssize_t)r * c->ncol + k] &= ~(WORD_ONE << col);
    c->st[(Py_ssize_t)(c->H + col) * c->ncol + k] &= ~(WORD_ONE << r);
    Py_RETURN_NONE;
}

static PyObject *Core_counters(Core *c, PyObject *Py_UNUSED(noargs)) {
    PyObject *d = Py_BuildValue("{sLsLsL}", "line_solves", c->line_solves, "probes", c->probes, "probe_passes",
                                c->probe_passes);
    if (d && c->cdcl && cdcl_counters(c->cdcl, d) < 0) Py_CLEAR(d);
    return d;
}

static PyObject *Core_solve_line(Core *c, PyObject *args) { /* reference.py: solve_line */
    int ln;
    PyObject *masks_obj;
    if (!PyArg_ParseTuple(args, "iO", &ln, &masks_obj)) return NULL;
    if (ln < 0 || ln >= c->nlines) {
        PyErr_SetString(PyExc_IndexError, "no such line");
        return NULL;
    }
    PyObject *seq = PySequence_Fast(masks_obj, "masks must be a sequence of ints");
    if (!seq) return NULL;
    word masks[MAX_COLOURS], out[MAX_COLOURS];
    int ok = PySequence_Fast_GET_SIZE(seq) == c->ncol;
    if (!ok) PyErr_SetString(PyExc_ValueError, "solve_line: one mask per colour");
    for (int k = 0; ok && k < c->ncol; k++) {
        ok = read_mask(PySequence_Fast_GET_ITEM(seq, k), &masks[k]);
        if (ok && masks[k] >> c->len[ln]) {
            PyErr_SetString(PyExc_ValueError, "solve_line: a mask wider than its line");
            ok = 0;
        }
    }
    Py_DECREF(seq);
    if (!ok) return NULL;
    c->stop = 0;
    int res = core_solve(c, ln, masks, out);
    if (res < 0) return NULL;
    if (!res) Py_RETURN_NONE;
    return masks_tuple(out, c->ncol);
}

/* ---------------------------------------------------------------- propagation */

/* reference.py: _propagate. Line solves on the dirty `lines`, first in first out, to a fixpoint of `st`.
 * Returns the candidates removed, -1 on a contradiction (failed_line set), -2 when stopped (exception set).
 * `*changed` counts the solves that narrowed their line; with `stamped`, the lines that narrow get the next
 * clock value (probe's memo reads them); with `trace`, every narrowing is reported before it is applied. */
static long propagate_from(Core *c, word *st, const int *lines, int nl, PyObject *trace, int stamped,
                           long *changed) {
    int ncol = c->ncol, H = c->H, size = c->nlines + 1, head = 0, tail = 0;
    int *queue = c->queue;
    char *inq = c->inq;
    for (int i = 0; i < nl; i++) {
        int ln = lines[i];
        if (!inq[ln]) {
            inq[ln] = 1;
            queue[tail] = ln;
            tail = (tail + 1) % size;
        }
    }
    long removed = 0, ch = 0, result;
    word out[MAX_COLOURS];
    for (;;) {
        if (head == tail) {
            result = removed;
            break;
        }
        int ln = queue[head];
        head = (head + 1) % size;
        inq[ln] = 0;
        word *m = st + (Py_ssize_t)ln * ncol;
        int ok = core_solve(c, ln, m, out);
        if (ok < 0) {
            result = -2;
            break;
        }
        if (!ok) {
            c->failed_line = ln;
            result = -1;
            break;
        }
        int same = 1;
        for (int k = 0; k < ncol; k++) same &= m[k] == out[k];
        if (same) continue;
        ch++;
        if (trace && !call_trace(c, trace, Py_BuildValue("(iiNN)", TRACE_LINE, ln, masks_tuple(m, ncol),
                                                         masks_tuple(out, ncol)))) {
            result = -2;
            break;
        }
        int cross0 = ln < H ? H : 0, bit = ln < H ? ln : ln - H;
        word clear = ~(WORD_ONE << bit);
        if (stamped) c->stamp[ln] = ++c->clock;
        for (int k = 0; k < ncol; k++) {
            word rem = m[k] ^ out[k];
            if (!rem) continue;
            m[k] = out[k];
            while (rem) {
                int i = lowest_bit(rem);
                rem &= rem - 1;
                int cl = cross0 + i;
                st[(Py_ssize_t)cl * ncol + k] &= clear;
                removed++;
                if (stamped) c->stamp[cl] = c->clock;
                if (!inq[cl]) {
                    inq[cl] = 1;
                    queue[tail] = cl;
                    tail = (tail + 1) % size;
                }
            }
        }
    }
    while (head != tail) { /* what is left queued after a contradiction or a stop */
        inq[queue[head]] = 0;
        head = (head + 1) % size;
    }
    if (changed) *changed = ch;
    return result;
}

/* propagate(lines=None, trace=None) -> removed, or -1 on a contradiction (reference.py: propagate) */
static PyObject *Core_propagate(Core *c, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"lines", "trace", NULL};
    PyObject *lines = Py_None, *trace = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|OO", kwlist, &lines, &trace)) return NULL;
    int *dirty = PyMem_Malloc(sizeof(int) * (c->nlines + 1));
    if (!dirty) return PyErr_NoMemory();
    int nl = 0;
    if (lines == Py_None) {
        for (int ln = 0; ln < c->nlines; ln++) dirty[nl++] = ln;
    } else {
        PyObject *it = PyObject_GetIter(lines);
        if (!it) {
            PyMem_Free(dirty);
            return NULL;
        }
        PyObject *item;
        char *listed = PyMem_Calloc(c->nlines, 1);
        if (!listed) {
            Py_DECREF(it);
            PyMem_Free(dirty);
            return PyErr_NoMemory();
        }
        while ((item = PyIter_Next(it))) {
            long ln = PyLong_AsLong(item);
            Py_DECREF(item);
            if (ln < 0 || ln >= c->nlines) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_IndexError, "propagate: no such line");
                break;
            }
            if (!listed[ln]) { /* a line listed twice is queued once, as the reference's queue does */
                listed[ln] = 1;
                dirty[nl++] = (int)ln;
            }
        }
        Py_DECREF(it);
        PyMem_Free(listed);
        if (PyErr_Occurred()) {
            PyMem_Free(dirty);
            return NULL;
        }
    }
    c->stop = 0;
    long n = propagate_from(c, c->st, dirty, nl, trace == Py_None ? NULL : trace, 0, NULL);
    PyMem_Free(dirty);
    if (n == -2) return NULL;
    return PyLong_FromLong(n);
}

/* ---------------------------------------------------------------- probing (reference.py: probe) */

/* A probed colour's fixpoint, kept as the lines where it differs from the state it was taken in, and the
 * clock then: it is still inside the state when every line narrowed since is among those lines and still
 * holds the child's masks (reference.py: _inside, without a copy of the whole state per child). */
typedef struct {
    long n; /* candidates its propagation removed */
    int k;
    unsigned long long clock;
    int nd;
    int *lines;
    word *masks;
} Child;

typedef struct {
    int count;
    Child ch[MAX_COLOURS];
} Entry;

static void entry_free(Entry *e) {
    if (!e) return;
    for (int j = 0; j < e->count; j++) {
        PyMem_Free(e->ch[j].lines);
        PyMem_Free(e->ch[j].masks);
    }
    PyMem_Free(e);
}

static int child_inside(const Core *c, const Child *ch) {
    int ncol = c->ncol, j = 0;
    for (int ln = 0; ln < c->nlines; ln++) {
        if (c->stamp[ln] <= ch->clock) continue;
        while (j < ch->nd && ch->lines[j] < ln) j++;
        if (j == ch->nd || ch->lines[j] != ln) return 0;
        const word *cm = ch->masks + (Py_ssize_t)j * ncol, *sm = c->st + (Py_ssize_t)ln * ncol;
        for (int k = 0; k < ncol; k++)
            if (cm[k] & ~sm[k]) return 0;
    }
    return 1;
}

/* the lines where c->scratch differs from the state, into `ch` (0 on no memory) */
static int record_child(Core *c, Child *ch, long n, int k) {
    int ncol = c->ncol, nd = 0;
    for (int ln = 0; ln < c->nlines; ln++)
        if (memcmp(c->scratch + (Py_ssize_t)ln * ncol, c->st + (Py_ssize_t)ln * ncol, sizeof(word) * ncol)) nd++;
    ch->n = n;
    ch->k = k;
    ch->clock = c->clock;
    ch->nd = nd;
    ch->lines = PyMem_Malloc(sizeof(int) * (nd ? nd : 1));
    ch->masks = PyMem_Malloc(sizeof(word) * ncol * (nd ? nd : 1));
    if (!ch->lines || !ch->masks) return 0;
    nd = 0;
    for (int ln = 0; ln < c->nlines; ln++) {
        const word *a = c->scratch + (Py_ssize_t)ln * ncol;
        if (!memcmp(a, c->st + (Py_ssize_t)ln * ncol, sizeof(word) * ncol)) continue;
        ch->lines[nd] = ln;
        memcpy(ch->masks + (Py_ssize_t)nd * ncol, a, sizeof(word) * ncol);
        nd++;
    }
    return 1;
}

/* the full state of a child that is inside the state: the state with the child's lines */
static PyObject *child_state(Core *c, const Child *ch) {
    memcpy(c->scratch, c->st, sizeof(word) * c->nlines * c->ncol);
    for (int j = 0; j < ch->nd; j++)
        memcpy(c->scratch + (Py_ssize_t)ch->lines[j] * c->ncol, ch->masks + (Py_ssize_t)j * c->ncol,
               sizeof(word) * c->ncol);
    return state_list(c, c->scratch);
}

typedef struct {
    word *acc; /* per line: the union of the children's masks where they differ from the state */
    int *hits; /* per line: how many children differ there */
    int *dirty;
} Union;

/* reference.py: _agreement, for children just taken against the current state (so a child equals the state
 * outside its own lines, and the union differs from the state only on lines every child changed). Returns
 * removed + 1, 0 when nothing is agreed, -1 on a contradiction, -2 when stopped. */
static long agreement(Core *c, Entry *e, Union *u, int r, int col, PyObject *trace) {
    int ncol = c->ncol, nlines = c->nlines;
    for (int j = 0; j < e->count; j++) {
        const Child *ch = &e->ch[j];
        for (int d = 0; d < ch->nd; d++) {
            int ln = ch->lines[d];
            word *a = u->acc + (Py_ssize_t)ln * ncol;
            const word *m = ch->masks + (Py_ssize_t)d * ncol;
            if (!u->hits[ln]++)
                memcpy(a, m, sizeof(word) * ncol);
            else
                for (int k = 0; k < ncol; k++) a[k] |= m[k];
        }
    }
    int nd = 0;
    for (int ln = 0; ln < nlines; ln++) {
        if (u->hits[ln] == e->count &&
            memcmp(u->acc + (Py_ssize_t)ln * ncol, c->st + (Py_ssize_t)ln * ncol, sizeof(word) * ncol))
            u->dirty[nd++] = ln;
        u->hits[ln] = 0;
    }
    if (!nd) return 0;
    if (trace) {
        memcpy(c->scratch, c->st, sizeof(word) * nlines * ncol);
        for (int d = 0; d < nd; d++)
            memcpy(c->scratch + (Py_ssize_t)u->dirty[d] * ncol, u->acc + (Py_ssize_t)u->dirty[d] * ncol,
                   sizeof(word) * ncol);
        if (!call_trace(c, trace, Py_BuildValue("(iiNN)", TRACE_AGREE, r * c->W + col, state_list(c, c->st),
                                                state_list(c, c->scratch))))
            return -2;
    }
    ++c->clock;
    for (int d = 0; d < nd; d++) {
        int ln = u->dirty[d];
        memcpy(c->st + (Py_ssize_t)ln * ncol, u->acc + (Py_ssize_t)ln * ncol, sizeof(word) * ncol);
        c->stamp[ln] = c->clock;
    }
    long n = propagate_from(c, c->st, u->dirty, nd, trace, 1, NULL);
    return n < 0 ? n : n + 1;
}

/* reference.py: probe. 1: consistent (*best: a new reference to the branch, or NULL for None), 0: a
 * contradiction, -1: stopped or no memory (exception set). */
int core_probe(Core *c, PyObject *trace, int want_branch, PyObject **best_out) {
    int H = c->H, W = c->W, ncol = c->ncol, nlines = c->nlines;
    Entry **memo = PyMem_Calloc(c->ncells, sizeof(Entry *));
    word *unknown = PyMem_Malloc(sizeof(word) * H);
    Union u = {PyMem_Malloc(sizeof(word) * nlines * ncol), PyMem_Calloc(nlines, sizeof(int)),
               PyMem_Malloc(sizeof(int) * nlines)};
    int result = -1;
    Entry *fresh = NULL;
    *best_out = NULL;
    if (!memo || !unknown || !u.acc || !u.hits || !u.dirty) {
        PyErr_NoMemory();
        goto done;
    }
    memset(c->scored, 0, c->ncells);
    c->stop = 0;
    for (;;) {
        c->probe_passes++;
        int changed = 0, best = -1;
        long best_score = -1;
        int any = 0;
        for (int r = 0; r < H; r++) {
            const word *row = c->st + (Py_ssize_t)r * ncol;
            word seen = 0, multi = 0;
            for (int k = 0; k < ncol; k++) {
                multi |= seen & row[k];
                seen |= row[k];
            }
            unknown[r] = multi;
            any |= multi != 0;
        }
        if (!any) {
            result = 1;
            goto done;
        }
        for (int r = 0; r < H; r++) {
            word un = unknown[r];
            while (un) {
                int col = lowest_bit(un);
                un &= un - 1;
                int cell = r * W + col;
                Entry *e = memo[cell];
                if (e) {
                    for (int j = 0; j < e->count; j++)
                        if (!child_inside(c, &e->ch[j])) {
                            entry_free(e);
                            e = memo[cell] = NULL;
                            break;
                        }
                }
                if (!e) {
                    int colours[MAX_COLOURS], ncolours = 0;
                    word bit = WORD_ONE << col;
                    for (int k = 0; k < ncol; k++)
                        if (c->st[(Py_ssize_t)r * ncol + k] & bit) colours[ncolours++] = k;
                    if (ncolours < 2) continue;
                    if (core_check_limits(c)) goto done;
                    fresh = PyMem_Calloc(1, sizeof(Entry));
                    if (!fresh) {
                        PyErr_NoMemory();
                        goto done;
                    }
                    int refuted = 0;
                    for (int x = 0; x < ncolours; x++) {
                        int k = colours[x];
                        memcpy(c->scratch, c->st, sizeof(word) * nlines * ncol);
                        assign_cell(c, c->scratch, r, col, k);
                        c->probes++;
                        int start[2] = {r, H + col};
                        long chain;
                        long n = propagate_from(c, c->scratch, start, 2, NULL, 0, &chain);
                        if (n == -2) goto done;
                        if (n < 0) {
                            word *row = c->st + (Py_ssize_t)r * ncol;
                            if (trace) {
                                unsigned long long old = 0;
                                for (int j = 0; j < ncol; j++) old |= (unsigned long long)((row[j] >> col) & 1) << j;
                                if (!call_trace(c, trace, Py_BuildValue("(iiiilK)", TRACE_REFUTE, cell, k,
                                                                        c->failed_line, chain, old)))
                                    goto done;
                            }
                            ++c->clock;
                            row[k] &= ~bit;
                            c->st[(Py_ssize_t)(H + col) * ncol + k] &= ~(WORD_ONE << r);
                            c->stamp[r] = c->stamp[H + col] = c->clock;
                            long m = propagate_from(c, c->st, start, 2, trace, 1, NULL);
                            if (m == -2) goto done;
                            if (m < 0) {
                                result = 0;
                                goto done;
                            }
                            changed = 1;
                            refuted = 1;
                            break; /* the cell is narrowed; the next pass re-probes it */
                        }
                        if (!record_child(c, &fresh->ch[fresh->count], n, k)) {
                            fresh->count++;
                            PyErr_NoMemory();
                            goto done;
                        }
                        fresh->count++;
                    }
                    if (refuted) {
                        entry_free(fresh);
                        fresh = NULL;
                        continue; /* the state changed; scores of this cell are stale */
                    }
                    e = memo[cell] = fresh;
                    fresh = NULL;
                    long agreed = agreement(c, e, &u, r, col, trace);
                    if (agreed == -2) goto done;
                    if (agreed < 0) {
                        result = 0;
                        goto done;
                    }
                    if (agreed) {
                        changed = 1;
                        continue;
                    }
                }
                /* branch_score: the smallest plus the largest of the probes' removals */
                long lo = e->ch[0].n, hi = e->ch[0].n;
                for (int j = 1; j < e->count; j++) {
                    if (e->ch[j].n < lo) lo = e->ch[j].n;
                    if (e->ch[j].n > hi) hi = e->ch[j].n;
                }
                long score = lo + hi;
                c->score[cell] = score;
                c->scored[cell] = 1;
                if (score > best_score) {
                    best_score = score;
                    best = cell;
                }
            }
        }
        if (changed) continue;
        if (best < 0 || !want_branch) {
            result = 1;
            goto done;
        }
        /* the children by decreasing removals, colour order among equals (a stable sort) */
        Entry *e = memo[best];
        int order[MAX_COLOURS];
        for (int j = 0; j < e->count; j++) {
            int y = j - 1;
            while (y >= 0 && e->ch[order[y]].n < e->ch[j].n) {
                order[y + 1] = order[y];
                y--;
            }
            order[y + 1] = j;
        }
        PyObject *children = PyList_New(e->count);
        if (!children) goto done;
        for (int j = 0; j < e->count; j++) {
            const Child *ch = &e->ch[order[j]];
            PyObject *item = Py_BuildValue("(iN)", ch->k, child_state(c, ch));
            if (!item) {
                Py_DECREF(children);
                goto done;
            }
            PyList_SET_ITEM(children, j, item);
        }
        *best_out = Py_BuildValue("((ii)N)", best / W, best % W, children);
        result = *best_out ? 1 : -1;
        goto done;
    }
done:
    entry_free(fresh);
    if (memo)
        for (int i = 0; i < c->ncells; i++) entry_free(memo[i]);
    PyMem_Free(memo);
    PyMem_Free(unknown);
    PyMem_Free(u.acc);
    PyMem_Free(u.hits);
    PyMem_Free(u.dirty);
    if (result < 0 && !PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "probe: stopped without a reason");
    return result;
}

/* probe(trace=None, branch=False) -> (consistent, best) (reference.py: probe) */
static PyObject *Core_probe(Core *c, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"trace", "branch", NULL};
    PyObject *trace = Py_None, *best;
    int want_branch = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|Op", kwlist, &trace, &want_branch)) return NULL;
    int ok = core_probe(c, trace == Py_None ? NULL : trace, want_branch, &best);
    if (ok < 0) return NULL;
    return Py_BuildValue("(ON)", ok ? Py_True : Py_False, best ? best : (Py_INCREF(Py_None), Py_None));
}

static PyObject *Core_scores(Core *c, PyObject *Py_UNUSED(noargs)) {
    PyObject *d = PyDict_New();
    if (!d) return NULL;
    for (int cell = 0; cell < c->ncells; cell++) {
        if (!c->scored[cell]) continue;
        PyObject *key = Py_BuildValue("(ii)", cell / c->W, cell % c->W), *v = PyLong_FromLong(c->score[cell]);
        if (!key || !v || PyDict_SetItem(d, key, v) < 0) {
            Py_XDECREF(key);
            Py_XDECREF(v);
            Py_DECREF(d);
            return NULL;
        }
        Py_DECREF(key);
        Py_DECREF(v);
    }
    return d;
}

static PyObject *Core_cdcl_solution(Core *c, PyObject *Py_UNUSED(noargs)) { return state_list(c, c->st); }

/* ---------------------------------------------------------------- attributes and the type */

static PyObject *get_deadline(Core *c, void *Py_UNUSED(closure)) {
    if (!c->has_deadline) Py_RETURN_NONE;
    return PyFloat_FromDouble(c->deadline);
}

static int set_deadline(Core *c, PyObject *value, void *Py_UNUSED(closure)) {
    if (!value || value == Py_None) {
        c->has_deadline = 0;
        return 0;
    }
    double d = PyFloat_AsDouble(value);
    if (d == -1.0 && PyErr_Occurred()) return -1;
    c->deadline = d;
    c->has_deadline = 1;
    return 0;
}

static PyObject *get_failed_line(Core *c, void *Py_UNUSED(closure)) { return PyLong_FromLong(c->failed_line); }

static PyObject *get_implementation(Core *Py_UNUSED(c), void *Py_UNUSED(closure)) {
    return PyUnicode_FromString("c");
}

static PyObject *get_int(Core *c, void *closure) {
    switch ((int)(intptr_t)closure) {
        case 0: return PyLong_FromLong(c->H);
        case 1: return PyLong_FromLong(c->W);
        case 2: return PyLong_FromLong(c->ncol);
        default: return PyLong_FromLong(c->nlines);
    }
}

static PyGetSetDef Core_getset[] = {
    {"deadline", (getter)get_deadline, (setter)set_deadline, "time.monotonic() value to stop at, or None", NULL},
    {"failed_line", (getter)get_failed_line, NULL, "the line of the last contradiction propagation met", NULL},
    {"implementation", (getter)get_implementation, NULL, "'c'", NULL},
    {"H", (getter)get_int, NULL, "rows", (void *)0},
    {"W", (getter)get_int, NULL, "columns", (void *)1},
    {"ncol", (getter)get_int, NULL, "colours (background included)", (void *)2},
    {"nlines", (getter)get_int, NULL, "rows + columns", (void *)3},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef Core_methods[] = {
    {"reset", (PyCFunction)Core_reset, METH_NOARGS, "every colour possible in every cell"},
    {"set_state", (PyCFunction)Core_set_state, METH_O, "set_state(st): the state as a flat list of line masks"},
    {"state", (PyCFunction)Core_state, METH_NOARGS, "the state as a flat list of line masks"},
    {"masks", (PyCFunction)Core_masks, METH_NOARGS, "row-major cell masks (Domains.masks)"},
    {"assign", (PyCFunction)Core_assign, METH_VARARGS, "assign(r, c, colour): restrict a cell, no propagation"},
    {"forbid", (PyCFunction)Core_forbid, METH_VARARGS, "forbid(r, c, colour): remove a colour, no propagation"},
    {"solve_line", (PyCFunction)Core_solve_line, METH_VARARGS, "solve_line(line, masks) -> narrowed masks or None"},
    {"propagate", (PyCFunction)(void (*)(void))Core_propagate, METH_VARARGS | METH_KEYWORDS,
     "propagate(lines=None, trace=None) -> candidates removed, or -1 on a contradiction"},
    {"probe", (PyCFunction)(void (*)(void))Core_probe, METH_VARARGS | METH_KEYWORDS,
     "probe(trace=None, branch=False) -> (consistent, best cell and children or None)"},
    {"scores", (PyCFunction)Core_scores, METH_NOARGS, "{(r, c): branch score} from the last probe"},
    {"counters", (PyCFunction)Core_counters, METH_NOARGS, "the work done: line solves, probes, conflicts, ..."},
    {"cdcl_begin", (PyCFunction)(void (*)(void))Core_cdcl_begin, METH_VARARGS | METH_KEYWORDS,
     "cdcl_begin(minimize=True, guide=True, audit=None): a CDCL search over the current state"},
    {"cdcl_search", (PyCFunction)Core_cdcl_search, METH_VARARGS,
     "cdcl_search(restart_at, pause=None) -> EXHAUSTED 0, SOLUTION 1, RESTART 2 or PAUSE 3"},
    {"cdcl_solution", (PyCFunction)Core_cdcl_solution, METH_NOARGS, "the solved state after SOLUTION"},
    {"cdcl_block", (PyCFunction)Core_cdcl_block, METH_NOARGS, "forbid the solution found; False: none left"},
    {"cdcl_restart", (PyCFunction)Core_cdcl_restart, METH_NOARGS, "back to level 0"},
    {"cdcl_prefer", (PyCFunction)Core_cdcl_prefer, METH_O, "cdcl_prefer(colours): the colour each cell's decisions keep"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "nonocp.engines.native._core.Core",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "One puzzle's search state and the algorithms on it (nonocp.engines.native.core).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Core_init,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_traverse = (traverseproc)Core_traverse,
    .tp_clear = (inquiry)Core_clear,
    .tp_methods = Core_methods,
    .tp_getset = Core_getset,
};

static PyMethodDef module_functions[] = {
    {"beliefs", core_beliefs, METH_VARARGS,
     "beliefs(rows, cols, ncol, masks, rounds, damping, epsilon, deadline, timeout) -> floats (belief.py)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_core", "The compiled native core (see nonocp.engines.native.core).", -1, module_functions,
};

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&CoreType) < 0) return NULL;
    SIXTY_FOUR = PyLong_FromLong(64);
    if (!SIXTY_FOUR) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0 ||
        PyModule_AddIntConstant(m, "MAX_N", MAX_N) < 0 || PyModule_AddIntConstant(m, "MAX_COLOURS", MAX_COLOURS) < 0) {
        Py_DECREF(&CoreType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
