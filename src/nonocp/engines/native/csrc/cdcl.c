/* The CDCL search over cells with line-solver explanations: reference_cdcl.py in C arrays, step for step (read
 * that module's docstring first). Differences are in storage only: a line's removals are read back from its
 * trail entries instead of a cumulative int per entry, a clause step's reason is copied to an arena cut back
 * on backtracking (the reference copies it to a tuple), forgotten clauses are freed when the last watch on
 * them is dropped, and backtracking restores the state bit by bit (the reference does the same).
 * One file, as reference_cdcl.py is one module: its parts share one search state (struct Cdcl). */
#include "core.h"

#include <time.h>

#define FIRST_REDUCE 2000
#define GREEDY_MAX 12
#define STORE_WAYS 4
#define STORE_WORDS (8L << 20) /* the store is emptied before it holds more line masks than this */
#define REPHASE_EVERY 8

enum { R_DECISION = 0, R_LINE = 1, R_CLAUSE = 2 };

typedef struct {
    int size, lbd, refs, deleted;
    int lit[];
} Clause;

/* A watch: the clause, and a literal of it (the other watched one when the watch was made) whose truth shows the
 * clause satisfied without reading the clause (a blocker) */
typedef struct {
    Clause *cl;
    int blocker;
} Watch;

typedef struct {
    Watch *a;
    int n, cap;
} Watches;

/* Remembered explanations (reference_cdcl.py: _shrink): per step kind (line, cell, colour; a line's contradiction
 * is its own kind), up to STORE_WAYS removal sets, one per colour each, in a ring. A kind's entries are
 * allocated when it is first stored. */
typedef struct {
    int ncol, per_line; /* kinds per line: cell * ncol + colour, and one for a contradiction */
    long kinds;         /* per_line * lines */
    int *slot;          /* per kind: index of its first entry in `data` (in units of ncol words), or -1 */
    int *count;        /* per kind: explanations stored so far (the ring's next place is count % STORE_WAYS) */
    word *data;
    long used, cap;     /* kinds allocated in `data` */
} Store;

typedef struct Cdcl {
    int broken; /* a search stopped mid-step (a limit, an exception, no memory): it cannot go on */
    int minimize;
    PyObject *audit;
    word *st0; /* the level-0 state */
    unsigned char *alive;
    int *cnt;
    int *vcell, *vcolour, *crow, *ccol; /* a literal's cell and colour, a cell's row and column: no divisions */
    int *trail, *tlevel, *rtype, *rdata, *rlen, *rlim, *atop;
    /* per trail index: its line reason's explanation once worked out (-1: not yet), kept while it is on the trail;
     * the explanations sit in xarena, which is copied without the undone ones when it fills up */
    long *xoff;
    int *xlen, *xarena;
    long nx, capx;
    int ntrail;
    int *pos;
    int **lt; /* per line: trail indices of its removals */
    int *ltn;
    int *trail_lim;
    int nlevels;
    int qhead;
    /* dirty lines, first in first out: a ring of qcap (the line count) places, nq of them from qfront. Why not
     * last in first out: a line then waits while its other cells change and is solved once for all of them */
    int *queue;
    int nq, qfront, qcap;
    char *inq;
    Watches *watches;
    Clause **learned;
    int nlearned, caplearned;
    double *activity;
    double inc;
    int *heap, *hpos, nheap; /* the undecided cells (and some decided ones, dropped when met), by activity */
    int *phase;  /* per cell: the colour it had when last undone */
    int *target; /* per cell: its colour on the longest trail so far */
    int *preferred; /* per cell: the colour its decisions keep while alive, or -1 (cdcl_prefer) */
    long long preferred_at; /* restarts when the preferences came */
    int best_trail;
    long long conflicts, restarts, decisions, max_level, since_restart;
    long max_learned;
    int conflict_line;
    int *arena; /* clause steps' reasons */
    long narena, caparena;
    Store store;
    int *confl, *rbuf, *lower, *marked, *clause;
    int *bucket; /* per decision level, while a learned clause is sorted */
    unsigned char *seen; /* per trail index, during analysis */
} Cdcl;

static double monotonic_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---------------------------------------------------------------- remembered explanations */

static long store_kind(const Store *m, int ln, int i, int k) {
    return (long)ln * m->per_line + (i < 0 ? 0 : 1 + i * m->ncol + k);
}

/* An earlier explanation of the same kind that still holds into `need` (its removals made again now, the ones
 * since become facts dropped): 1, else 0. */
static int store_find(const Store *m, long kind, const word *base, const word *removed, word *need) {
    long at = m->slot[kind];
    if (at < 0) return 0;
    int ncol = m->ncol;
    long n = m->count[kind] < STORE_WAYS ? m->count[kind] : STORE_WAYS;
    for (long e = 0; e < n; e++) {
        const word *cand = m->data + (at + e) * ncol;
        int holds = 1;
        for (int c = 0; c < ncol && holds; c++)
            if (cand[c] & base[c] & ~removed[c]) holds = 0;
        if (holds) {
            for (int c = 0; c < ncol; c++) need[c] = cand[c] & removed[c];
            return 1;
        }
    }
    return 0;
}

/* 0 on no memory */
static int store_put(Store *m, long kind, const word *need) {
    if (m->slot[kind] < 0 && (m->used + 1) * STORE_WAYS * m->ncol > STORE_WORDS) { /* reference: emptied */
        for (long x = 0; x < m->kinds; x++) {
            m->slot[x] = -1;
            m->count[x] = 0;
        }
        m->used = 0;
    }
    if (m->slot[kind] < 0) {
        if (m->used == m->cap) {
            long cap = m->cap ? 2 * m->cap : 64;
            word *data = PyMem_Realloc(m->data, sizeof(word) * STORE_WAYS * m->ncol * cap);
            if (!data) return 0;
            m->data = data;
            m->cap = cap;
        }
        m->slot[kind] = m->used++ * STORE_WAYS;
    }
    long e = m->count[kind] % STORE_WAYS;
    memcpy(m->data + (m->slot[kind] + e) * m->ncol, need, sizeof(word) * m->ncol);
    if (++m->count[kind] == 2 * STORE_WAYS) m->count[kind] = STORE_WAYS; /* the same place in the ring, full */
    return 1;
}

/* ---------------------------------------------------------------- life cycle */

static void clause_release(Clause *cl) {
    if (--cl->refs <= 0) PyMem_Free(cl);
}

void cdcl_free(Cdcl *d, int nvars, int nlines) {
    if (!d) return;
    if (d->watches) { /* every clause of two or more literals sits in exactly `refs` watch lists */
        for (int v = 0; v < nvars; v++) {
            Watches *w = &d->watches[v];
            for (int j = 0; j < w->n; j++) clause_release(w->a[j].cl);
            PyMem_Free(w->a);
        }
        PyMem_Free(d->watches);
    }
    if (d->lt) {
        for (int ln = 0; ln < nlines; ln++) PyMem_Free(d->lt[ln]);
        PyMem_Free(d->lt);
    }
    PyMem_Free(d->st0);
    PyMem_Free(d->alive);
    PyMem_Free(d->cnt);
    PyMem_Free(d->vcell);
    PyMem_Free(d->vcolour);
    PyMem_Free(d->crow);
    PyMem_Free(d->ccol);
    PyMem_Free(d->trail);
    PyMem_Free(d->tlevel);
    PyMem_Free(d->rtype);
    PyMem_Free(d->rdata);
    PyMem_Free(d->rlen);
    PyMem_Free(d->rlim);
    PyMem_Free(d->atop);
    PyMem_Free(d->xoff);
    PyMem_Free(d->xlen);
    PyMem_Free(d->xarena);
    PyMem_Free(d->pos);
    PyMem_Free(d->ltn);
    PyMem_Free(d->trail_lim);
    PyMem_Free(d->queue);
    PyMem_Free(d->inq);
    PyMem_Free(d->learned);
    PyMem_Free(d->activity);
    PyMem_Free(d->phase);
    PyMem_Free(d->target);
    PyMem_Free(d->preferred);
    PyMem_Free(d->heap);
    PyMem_Free(d->hpos);
    PyMem_Free(d->arena);
    PyMem_Free(d->store.slot);
    PyMem_Free(d->store.count);
    PyMem_Free(d->store.data);
    PyMem_Free(d->confl);
    PyMem_Free(d->rbuf);
    PyMem_Free(d->lower);
    PyMem_Free(d->bucket);
    PyMem_Free(d->marked);
    PyMem_Free(d->clause);
    PyMem_Free(d->seen);
    Py_XDECREF(d->audit);
    PyMem_Free(d);
}

int cdcl_traverse(Cdcl *d, visitproc visit, void *arg) {
    Py_VISIT(d->audit);
    return 0;
}

static void core_drop_cdcl(Core *c) {
    if (c->cdcl) {
        cdcl_free(c->cdcl, c->nvars, c->nlines);
        c->cdcl = NULL;
    }
}

int cdcl_counters(Cdcl *d, PyObject *dict) {
    PyObject *v;
#define PUT(name, value)                                       \
    v = PyLong_FromLongLong(value);                            \
    if (!v || PyDict_SetItemString(dict, name, v) < 0) {       \
        Py_XDECREF(v);                                         \
        return -1;                                             \
    }                                                          \
    Py_DECREF(v);
    PUT("conflicts", d->conflicts)
    PUT("restarts", d->restarts)
    PUT("decisions", d->decisions)
    PUT("max_level", d->max_level)
#undef PUT
    return 0;
}

static int watch_push(Watches *w, Clause *cl, int blocker) {
    if (w->n == w->cap) {
        int cap = w->cap ? 2 * w->cap : 4;
        Watch *a = PyMem_Realloc(w->a, sizeof(Watch) * cap);
        if (!a) return 0;
        w->a = a;
        w->cap = cap;
    }
    w->a[w->n].cl = cl;
    w->a[w->n++].blocker = blocker;
    return 1;
}

/* ---------------------------------------------------------------- the decision order
 * The reference scans every cell for the undecided one of highest activity (the first of equals); a binary
 * heap ordered the same way (activity, then the lower cell first) finds the same cell in O(log cells). */

static inline int heap_before(const Cdcl *d, int a, int b) {
    return d->activity[a] > d->activity[b] || (d->activity[a] == d->activity[b] && a < b);
}

static void heap_up(Cdcl *d, int i) {
    int x = d->heap[i];
    while (i > 0) {
        int p = (i - 1) / 2;
        if (!heap_before(d, x, d->heap[p])) break;
        d->heap[i] = d->heap[p];
        d->hpos[d->heap[i]] = i;
        i = p;
    }
    d->heap[i] = x;
    d->hpos[x] = i;
}

static void heap_down(Cdcl *d, int i) {
    int x = d->heap[i];
    for (;;) {
        int l = 2 * i + 1;
        if (l >= d->nheap) break;
        int r = l + 1, m = r < d->nheap && heap_before(d, d->heap[r], d->heap[l]) ? r : l;
        if (!heap_before(d, d->heap[m], x)) break;
        d->heap[i] = d->heap[m];
        d->hpos[d->heap[i]] = i;
        i = m;
    }
    d->heap[i] = x;
    d->hpos[x] = i;
}

static void heap_insert(Cdcl *d, int cell) {
    if (d->hpos[cell] >= 0) return;
    d->heap[d->nheap] = cell;
    d->hpos[cell] = d->nheap++;
    heap_up(d, d->nheap - 1);
}

static void heap_pop(Cdcl *d) {
    int top = d->heap[0];
    d->hpos[top] = -1;
    if (--d->nheap) {
        d->heap[0] = d->heap[d->nheap];
        d->hpos[d->heap[0]] = 0;
        heap_down(d, 0);
    }
}

static void heap_build(Cdcl *d, int ncells) {
    d->nheap = 0;
    for (int cell = 0; cell < ncells; cell++) {
        d->hpos[cell] = -1;
        if (d->cnt[cell] > 1) {
            d->heap[d->nheap] = cell;
            d->hpos[cell] = d->nheap++;
        }
    }
    for (int i = d->nheap / 2 - 1; i >= 0; i--) heap_down(d, i);
}

/* ---------------------------------------------------------------- trail (reference_cdcl.py: _remove, _backtrack) */

static inline void enqueue(Cdcl *d, int ln) {
    if (!d->inq[ln]) {
        d->inq[ln] = 1;
        int at = d->qfront + d->nq++;
        d->queue[at < d->qcap ? at : at - d->qcap] = ln;
    }
}

static void cd_remove(Core *c, Cdcl *d, int v, int rtype, int rdata, int rlen, int rlim, int skip_line) {
    int ncol = c->ncol, H = c->H;
    int cell = d->vcell[v], k = d->vcolour[v], r = d->crow[cell], col = d->ccol[cell];
    d->alive[v] = 0;
    d->cnt[cell]--;
    word rbit = ~(WORD_ONE << col), cbit = ~(WORD_ONE << r);
    c->st[(Py_ssize_t)r * ncol + k] &= rbit;
    c->st[(Py_ssize_t)(H + col) * ncol + k] &= cbit;
    if (!d->nlevels) {
        d->st0[(Py_ssize_t)r * ncol + k] &= rbit;
        d->st0[(Py_ssize_t)(H + col) * ncol + k] &= cbit;
    }
    int t = d->ntrail++;
    d->trail[t] = v;
    d->tlevel[t] = d->nlevels;
    d->rtype[t] = rtype;
    d->rdata[t] = rdata;
    d->rlen[t] = rlen;
    d->rlim[t] = rlim;
    d->atop[t] = rtype == R_CLAUSE ? rdata : (int)d->narena;
    d->xoff[t] = -1;
    d->pos[v] = t;
    d->lt[r][d->ltn[r]++] = t;
    d->lt[H + col][d->ltn[H + col]++] = t;
    if (r != skip_line) enqueue(d, r);
    if (H + col != skip_line) enqueue(d, H + col);
}

static void cd_backtrack(Core *c, Cdcl *d, int level) {
    if (level >= d->nlevels) return;
    int lim = d->trail_lim[level], ncol = c->ncol, H = c->H;
    for (int t = d->ntrail - 1; t >= lim; t--) {
        int v = d->trail[t], cell = d->vcell[v], k = d->vcolour[v];
        if (d->cnt[cell] == 1) /* the cell was decided: remember its colour for the next decision on it */
            for (int j = 0; j < ncol; j++)
                if (d->alive[cell * ncol + j]) d->phase[cell] = j;
        d->alive[v] = 1;
        d->cnt[cell]++;
        d->pos[v] = -1;
        heap_insert(d, cell);
        int r = d->crow[cell], col = d->ccol[cell];
        c->st[(Py_ssize_t)r * ncol + k] |= WORD_ONE << col;
        c->st[(Py_ssize_t)(H + col) * ncol + k] |= WORD_ONE << r;
        while (d->ltn[r] && d->lt[r][d->ltn[r] - 1] >= lim) d->ltn[r]--;
        while (d->ltn[H + col] && d->lt[H + col][d->ltn[H + col] - 1] >= lim) d->ltn[H + col]--;
    }
    if (lim < d->ntrail) d->narena = d->atop[lim];
    d->ntrail = lim;
    d->nlevels = level;
    d->qhead = lim;
    for (int j = 0, at = d->qfront; j < d->nq; j++, at = at + 1 < d->qcap ? at + 1 : 0) d->inq[d->queue[at]] = 0;
    d->nq = 0;
    d->qfront = 0;
}

/* ---------------------------------------------------------------- explanations (reference_cdcl.py: _shrink) */

typedef struct {
    Core *c;
    int ln, n, i, k;
    const word *base;
} Narrowing;

/* -1 when stopped (then the caller abandons the search) */
static int implies(Narrowing *w, const word *keep) {
    word masks[MAX_COLOURS];
    int ncol = w->c->ncol;
    /* reference_cdcl.py: _narrow's implies (cell i forced to colour k; nothing forced for a contradiction) */
    word forced = w->k < 0 ? 0 : WORD_ONE << w->i;
    for (int c = 0; c < ncol; c++) masks[c] = w->base[c] & ~keep[c] & (c == w->k ? ~(word)0 : ~forced);
    int f = core_feasible(w->c, w->ln, masks);
    return f < 0 ? -1 : !f;
}

static void window(const Narrowing *w, const word *removed, int a, int b, word *keep) {
    if (b > w->n - 1) b = w->n - 1; /* `removed` has n bits: cells past the line add nothing */
    word bits = a <= b ? (((WORD_ONE << (b + 1)) - 1) ^ ((WORD_ONE << a) - 1)) : 0;
    for (int c = 0; c < w->c->ncol; c++) keep[c] = removed[c] & bits;
}

static int implies_window(Narrowing *w, const word *removed, int a, int b) {
    word keep[MAX_COLOURS];
    window(w, removed, a, b, keep);
    return implies(w, keep);
}

static int largest_left(Narrowing *w, const word *removed, int lo, int hi, int b) {
    while (lo < hi && !w->c->stop) {
        int mid = (lo + hi + 1) / 2;
        if (implies_window(w, removed, mid, b))
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

static int smallest_right(Narrowing *w, const word *removed, int a, int lo, int hi) {
    while (lo < hi && !w->c->stop) {
        int mid = (lo + hi) / 2;
        if (implies_window(w, removed, a, mid))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* reference_cdcl.py: _narrow */
static void narrow(Narrowing *w, const word *removed, word *keep) {
    int n = w->n, i = w->i, ncol = w->c->ncol, a, b;
    if (i >= 0) {
        int radius = 1;
        while (radius < n && !w->c->stop && !implies_window(w, removed, radius <= i ? i - radius : 0, i + radius))
            radius *= 2;
        b = i + radius < n - 1 ? i + radius : n - 1;
        a = largest_left(w, removed, i - radius > 0 ? i - radius : 0, i, b);
        b = smallest_right(w, removed, a, i, b);
    } else {
        b = smallest_right(w, removed, 0, 0, n - 1);
        a = largest_left(w, removed, 0, b, b);
    }
    window(w, removed, a, b, keep);
    /* greedy deletion of single removals inside the window, when few; farthest from the centre first */
    int inside_c[GREEDY_MAX + 1], inside_p[GREEDY_MAX + 1], count = 0;
    for (int c = 0; c < ncol && count <= GREEDY_MAX; c++)
        for (int p = a; p <= b && count <= GREEDY_MAX; p++)
            if ((keep[c] >> p) & 1) {
                inside_c[count] = c;
                inside_p[count] = p;
                count++;
            }
    if (count > 1 && count <= GREEDY_MAX) {
        int centre = i >= 0 ? i : (a + b) / 2;
        for (int x = 1; x < count; x++) { /* insertion sort: stable, as Python's sort */
            int c = inside_c[x], p = inside_p[x], dist = abs(p - centre), y = x - 1;
            while (y >= 0 && abs(inside_p[y] - centre) < dist) {
                inside_c[y + 1] = inside_c[y];
                inside_p[y + 1] = inside_p[y];
                y--;
            }
            inside_c[y + 1] = c;
            inside_p[y + 1] = p;
        }
        for (int x = 0; x < count && !w->c->stop; x++) {
            word bit = WORD_ONE << inside_p[x];
            keep[inside_c[x]] &= ~bit;
            if (implies(w, keep) == 0) keep[inside_c[x]] |= bit;
        }
    }
}

static int call_audit(Core *c, Cdcl *d, PyObject *args) {
    if (!args) {
        c->stop = 1;
        return 0;
    }
    PyObject *r = PyObject_CallObject(d->audit, args);
    Py_DECREF(args);
    if (!r) {
        c->stop = 1;
        return 0;
    }
    Py_DECREF(r);
    return 1;
}

static PyObject *ints_tuple(const int *a, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int j = 0; j < n; j++) {
        PyObject *x = PyLong_FromLong(a[j]);
        if (!x) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, j, x);
    }
    return t;
}

/* The first `upto` removals of line ln that still imply the step (colour k leaves cell i of the line; k < 0: a
 * contradiction), as trail indices into `out`: their count, or -1 when stopped. */
static int shrink(Core *c, Cdcl *d, int ln, int upto, int i, int k, int *out) {
    int ncol = c->ncol, n = c->len[ln], H = c->H, W = c->W;
    word base[MAX_COLOURS], removed[MAX_COLOURS], need[MAX_COLOURS];
    memcpy(base, d->st0 + (Py_ssize_t)ln * ncol, sizeof(word) * ncol);
    int row = ln < H, from = 0, to = upto;
    if (upto <= d->ltn[ln] - upto) { /* the first `upto` removals, one by one */
        memset(removed, 0, sizeof(word) * ncol);
    } else { /* or all of them, from the line's state now, without the later ones (each removal is made once) */
        for (int col = 0; col < ncol; col++) removed[col] = ~c->st[(Py_ssize_t)ln * ncol + col];
        from = upto;
        to = d->ltn[ln];
    }
    for (int j = from; j < to; j++) {
        int v = d->trail[d->lt[ln][j]], cell = d->vcell[v];
        removed[d->vcolour[v]] ^= WORD_ONE << (row ? d->ccol[cell] : d->crow[cell]);
    }
    int total = 0;
    for (int col = 0; col < ncol; col++) { /* removals made at level 0 drop out: they are facts in base */
        removed[col] &= base[col];
        total += popcount(removed[col]);
    }
    if (total > 1) {
        long kind = store_kind(&d->store, ln, i, k);
        if (!store_find(&d->store, kind, base, removed, need)) {
            Narrowing w = {c, ln, n, i, k, base};
            narrow(&w, removed, need);
            if (c->stop) return -1;
            if (!store_put(&d->store, kind, need)) {
                PyErr_NoMemory();
                c->stop = 1;
                return -1;
            }
        }
    } else {
        memcpy(need, removed, sizeof(word) * ncol);
    }
    if (d->audit && !call_audit(c, d, Py_BuildValue("(iiiiNNN)", AUDIT_EXPLAIN, ln, i, k, masks_tuple(base, ncol),
                                                    masks_tuple(removed, ncol), masks_tuple(need, ncol))))
        return -1;
    int m = 0;
    for (int col = 0; col < ncol; col++) {
        word x = need[col];
        while (x) {
            int p = lowest_bit(x);
            x &= x - 1;
            int cell = row ? ln * W + p : p * W + (ln - H);
            out[m++] = d->pos[cell * ncol + col];
        }
    }
    return m;
}

static int lower_bound(const int *a, int n, int x) { /* bisect_left */
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (a[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* trail entry t's explanation (m trail indices) is kept while t is on the trail; 0 on no memory */
static int keep_explanation(Cdcl *d, int t, const int *out, int m) {
    if (d->nx + m > d->capx) { /* full: a new arena with only the explanations of entries still on the trail */
        long live = 0, at = 0;
        for (int u = 0; u < d->ntrail; u++)
            if (d->xoff[u] >= 0) live += d->xlen[u];
        long cap = 2 * (live + m) + 1024;
        int *a = PyMem_Malloc(sizeof(int) * cap);
        if (!a) return 0;
        for (int u = 0; u < d->ntrail; u++)
            if (d->xoff[u] >= 0) {
                memcpy(a + at, d->xarena + d->xoff[u], sizeof(int) * d->xlen[u]);
                d->xoff[u] = at;
                at += d->xlen[u];
            }
        PyMem_Free(d->xarena);
        d->xarena = a;
        d->capx = cap;
        d->nx = at;
    }
    memcpy(d->xarena + d->nx, out, sizeof(int) * m);
    d->xoff[t] = d->nx;
    d->xlen[t] = m;
    d->nx += m;
    return 1;
}

/* reference_cdcl.py: _reason_of; the count, or -1 when stopped */
static int reason_of(Core *c, Cdcl *d, int t, int *out) {
    int m;
    if (d->rtype[t] == R_LINE) {
        int ln = d->rdata[t];
        if (!d->minimize) {
            m = lower_bound(d->lt[ln], d->ltn[ln], d->rlim[t]);
            memcpy(out, d->lt[ln], sizeof(int) * m);
        } else if (d->xoff[t] >= 0) { /* worked out in an earlier conflict */
            m = d->xlen[t];
            memcpy(out, d->xarena + d->xoff[t], sizeof(int) * m);
        } else {
            int v = d->trail[t], cell = d->vcell[v];
            m = shrink(c, d, ln, lower_bound(d->lt[ln], d->ltn[ln], d->rlim[t]),
                       ln < c->H ? d->ccol[cell] : d->crow[cell], d->vcolour[v], out);
            if (m < 0) return -1;
            if (!keep_explanation(d, t, out, m)) {
                PyErr_NoMemory();
                c->stop = 1;
                return -1;
            }
        }
        if (d->audit && !call_audit(c, d, Py_BuildValue("(iiiN)", AUDIT_REASON, t, d->rlim[t], ints_tuple(out, m))))
            return -1;
        return m;
    }
    m = d->rlen[t];
    for (int j = 0; j < m; j++) out[j] = d->pos[d->arena[d->rdata[t] + j]];
    if (d->audit && !call_audit(c, d, Py_BuildValue("(iiiN)", AUDIT_REASON, t, -1, ints_tuple(out, m)))) return -1;
    return m;
}

/* ---------------------------------------------------------------- propagation (reference_cdcl.py: _propagate) */

static int arena_push(Cdcl *d, const int *lits, int n) { /* the offset, or -1 on no memory */
    if (d->narena + n > d->caparena) {
        long cap = d->caparena ? d->caparena : 1024;
        while (cap < d->narena + n) cap *= 2;
        int *a = PyMem_Realloc(d->arena, sizeof(int) * cap);
        if (!a) return -1;
        d->arena = a;
        d->caparena = cap;
    }
    int off = (int)d->narena;
    memcpy(d->arena + off, lits, sizeof(int) * n);
    d->narena += n;
    return off;
}

/* every other colour of the cell of lits[0] goes, for the reason lits[1..n) (copied); 0 on no memory */
static int assert_first(Core *c, Cdcl *d, const int *lits, int n) {
    int ncol = c->ncol, first = lits[0], cell = d->vcell[first], any = 0;
    for (int u = cell * ncol; u < cell * ncol + ncol; u++) any |= u != first && d->alive[u];
    if (!any) return 1;
    int off = arena_push(d, lits + 1, n - 1);
    if (off < 0) return 0;
    for (int u = cell * ncol; u < cell * ncol + ncol; u++)
        if (u != first && d->alive[u]) cd_remove(c, d, u, R_CLAUSE, off, n - 1, 0, -1);
    return 1;
}

/* reference_cdcl.py: _visit_watches. 0, 1 with a conflict in d->confl (*nconf), -1 on no memory */
static int visit(Core *c, Cdcl *d, int v, int *nconf) {
    Watches *wl = &d->watches[v];
    Watch *ws = wl->a;
    int n = wl->n, i = 0, j = 0;
    while (i < n) {
        Watch wt = ws[i++];
        int b = wt.blocker;
        if (d->alive[b] && d->cnt[d->vcell[b]] == 1) { /* satisfied by the blocker: the clause is not read */
            ws[j++] = wt;
            continue;
        }
        Clause *cl = wt.cl;
        if (cl->deleted) { /* forgotten clause: drop the watch */
            clause_release(cl);
            continue;
        }
        int *lit = cl->lit;
        if (lit[0] == v) {
            lit[0] = lit[1];
            lit[1] = v;
        }
        int other = lit[0];
        if (d->alive[other] && d->cnt[d->vcell[other]] == 1) { /* satisfied */
            ws[j].cl = cl;
            ws[j++].blocker = other;
            continue;
        }
        int moved = 0;
        for (int x = 2; x < cl->size; x++) {
            int w = lit[x];
            if (d->alive[w]) {
                lit[1] = w;
                lit[x] = v;
                if (!watch_push(&d->watches[w], cl, other)) {
                    while (i < n) ws[j++] = ws[i++];
                    wl->n = j;
                    PyErr_NoMemory();
                    return -1;
                }
                moved = 1;
                break;
            }
        }
        if (moved) continue;
        ws[j].cl = cl;
        ws[j++].blocker = other;
        if (!d->alive[other]) { /* every literal false: conflict */
            while (i < n) ws[j++] = ws[i++];
            wl->n = j;
            d->conflict_line = -1;
            for (int x = 0; x < cl->size; x++) d->confl[x] = d->pos[lit[x]];
            *nconf = cl->size;
            return 1;
        }
        /* unit: the cell of `other` takes its colour; the other literals are the reason */
        if (!assert_first(c, d, lit, cl->size)) {
            while (i < n) ws[j++] = ws[i++];
            wl->n = j;
            PyErr_NoMemory();
            return -1;
        }
    }
    wl->n = j;
    return 0;
}

/* 0: a fixpoint, 1: a conflict in d->confl (*nconf), -1: stopped or no memory (exception set) */
static int cd_propagate(Core *c, Cdcl *d, int *nconf) {
    int ncol = c->ncol, H = c->H, W = c->W;
    word old[MAX_COLOURS], res[MAX_COLOURS];
    for (;;) {
        while (d->qhead < d->ntrail) {
            int v = d->trail[d->qhead++];
            if (d->watches[v].n) {
                int rc = visit(c, d, v, nconf);
                if (rc) {
                    if (rc < 0) c->stop = 1;
                    return rc;
                }
            }
        }
        if (!d->nq) return 0;
        int ln = d->queue[d->qfront];
        d->qfront = d->qfront + 1 < d->qcap ? d->qfront + 1 : 0;
        d->nq--;
        d->inq[ln] = 0;
        memcpy(old, c->st + (Py_ssize_t)ln * ncol, sizeof(word) * ncol);
        int ok = core_solve(c, ln, old, res);
        if (ok < 0) return -1;
        if (!ok) {
            d->conflict_line = ln;
            memcpy(d->confl, d->lt[ln], sizeof(int) * d->ltn[ln]);
            *nconf = d->ltn[ln];
            return 1;
        }
        int lim = d->ntrail;
        for (int col = 0; col < ncol; col++) {
            word rem = old[col] ^ res[col];
            while (rem) {
                int i = lowest_bit(rem);
                rem &= rem - 1;
                int cell = ln < H ? ln * W + i : i * W + (ln - H);
                cd_remove(c, d, cell * ncol + col, R_LINE, ln, 0, lim, ln);
            }
        }
    }
}

/* ---------------------------------------------------------------- learning (reference_cdcl.py: _analyze) */

/* The learned clause into d->clause (*size), the backjump level and the LBD; 0 when stopped. */
static int analyze(Core *c, Cdcl *d, int nconf, int *size, int *back, int *lbd) {
    int cur = d->nlevels, nmarked = 0, nlower = 0, count = 0, uip = -1;
    double inc = d->inc;
    const int *pending = d->confl;
    int npending = nconf;
    int idx = d->ntrail - 1;
    for (;;) {
        for (int j = 0; j < npending; j++) {
            int t = pending[j];
            if (t < 0 || d->seen[t]) continue; /* t < 0: a fact */
            d->seen[t] = 1;
            d->marked[nmarked++] = t;
            int lv = d->tlevel[t];
            if (lv == 0) continue;
            int cell = d->vcell[d->trail[t]];
            d->activity[cell] += inc;
            if (d->hpos[cell] >= 0) heap_up(d, d->hpos[cell]);
            if (lv == cur)
                count++;
            else
                d->lower[nlower++] = t;
        }
        while (!d->seen[idx]) idx--;
        int t = idx--;
        count--;
        if (count == 0) {
            uip = t;
            break;
        }
        npending = reason_of(c, d, t, d->rbuf);
        if (npending < 0) break;
        pending = d->rbuf;
    }
    for (int j = 0; j < nmarked; j++) d->seen[d->marked[j]] = 0;
    if (uip < 0) return 0;
    if (nlower) { /* minimization: drop the removals whose reason lies within the clause (and the facts) */
        for (int j = 0; j < nlower; j++) d->seen[d->lower[j]] = 1;
        int failed = 0;
        for (int j = 0; j < nlower; j++) {
            int t = d->lower[j], redundant = 0;
            if (d->rtype[t] != R_DECISION) {
                int nr = reason_of(c, d, t, d->rbuf);
                if (nr < 0) {
                    failed = 1;
                    break;
                }
                redundant = 1;
                for (int x = 0; x < nr && redundant; x++) {
                    int u = d->rbuf[x];
                    if (u >= 0 && d->tlevel[u] > 0 && !d->seen[u]) redundant = 0;
                }
            }
            d->marked[j] = !redundant;
        }
        for (int j = 0; j < nlower; j++) d->seen[d->lower[j]] = 0;
        if (failed) return 0;
        int m = 0;
        for (int j = 0; j < nlower; j++)
            if (d->marked[j]) d->lower[m++] = d->lower[j];
        nlower = m;
    }
    /* the clause: the UIP, then the lower removals by decreasing level, as found within a level (a counting
     * sort: they lie on levels 1 .. cur - 1) */
    int *at = d->bucket, levels = 0, next = 1;
    *back = 0;
    for (int lv = 0; lv < cur; lv++) at[lv] = 0;
    for (int j = 0; j < nlower; j++) at[d->tlevel[d->lower[j]]]++;
    for (int lv = cur - 1; lv > 0; lv--) {
        int n = at[lv];
        if (n && !levels++) *back = lv;
        at[lv] = next;
        next += n;
    }
    d->clause[0] = d->trail[uip];
    for (int j = 0; j < nlower; j++) d->clause[at[d->tlevel[d->lower[j]]]++] = d->trail[d->lower[j]];
    *size = nlower + 1;
    *lbd = levels + 1;
    /* later conflicts bump by more (VSIDS); all activities are scaled down before they overflow */
    d->inc *= 1.0 / 0.95;
    if (d->inc > 1e100) {
        for (int cell = 0; cell < c->ncells; cell++) d->activity[cell] *= 1e-100;
        heap_build(d, c->ncells); /* rounding may have made equals of neighbours in the order */
        d->inc *= 1e-100;
    }
    if (d->audit && !call_audit(c, d, Py_BuildValue("(iN)", AUDIT_LEARN, ints_tuple(d->clause, *size)))) return 0;
    return 1;
}

/* reference_cdcl.py: _add_clause; lbd < 0: never forgotten (a blocked solution). 0 on no memory. */
static int add_clause(Core *c, Cdcl *d, const int *lits, int size, int lbd) {
    if (size >= 2) {
        Clause *cl = PyMem_Malloc(sizeof(Clause) + sizeof(int) * size);
        if (!cl) return 0;
        cl->size = size;
        cl->lbd = lbd;
        cl->refs = 2;
        cl->deleted = 0;
        memcpy(cl->lit, lits, sizeof(int) * size);
        if (!watch_push(&d->watches[lits[0]], cl, lits[1])) {
            PyMem_Free(cl);
            return 0;
        }
        if (!watch_push(&d->watches[lits[1]], cl, lits[0])) {
            d->watches[lits[0]].n--;
            PyMem_Free(cl);
            return 0;
        }
        if (lbd >= 0) {
            if (d->nlearned == d->caplearned) {
                int cap = d->caplearned ? 2 * d->caplearned : 256;
                Clause **a = PyMem_Realloc(d->learned, sizeof(Clause *) * cap);
                if (!a) return 0;
                d->learned = a;
                d->caplearned = cap;
            }
            d->learned[d->nlearned++] = cl;
        }
    }
    return assert_first(c, d, lits, size);
}

typedef struct {
    Clause *cl;
    int index;
} Ranked;

static int ranked_cmp(const void *x, const void *y) { /* (lbd, length), then as listed: a stable sort */
    const Ranked *a = x, *b = y;
    if (a->cl->lbd != b->cl->lbd) return a->cl->lbd - b->cl->lbd;
    if (a->cl->size != b->cl->size) return a->cl->size - b->cl->size;
    return a->index - b->index;
}

/* reference_cdcl.py: _reduce. 0 on no memory. */
static int reduce_learned(Cdcl *d) {
    int n = d->nlearned;
    Ranked *r = PyMem_Malloc(sizeof(Ranked) * (n ? n : 1));
    if (!r) return 0;
    for (int j = 0; j < n; j++) {
        r[j].cl = d->learned[j];
        r[j].index = j;
    }
    qsort(r, n, sizeof(Ranked), ranked_cmp);
    int keep = n / 2, m = 0;
    for (int j = 0; j < n; j++) {
        if (j >= keep && r[j].cl->lbd > 2)
            r[j].cl->deleted = 1; /* reasons on the trail are copies, so this never breaks an explanation */
        else
            d->learned[m++] = r[j].cl;
    }
    d->nlearned = m;
    PyMem_Free(r);
    d->max_learned = (long)((double)d->max_learned * 1.1) + 100;
    return 1;
}

/* ---------------------------------------------------------------- search */

static int decide(Core *c, Cdcl *d) { /* reference_cdcl.py: _decide; -1 when every cell is decided */
    int ncol = c->ncol;
    while (d->nheap && d->cnt[d->heap[0]] <= 1) heap_pop(d);
    if (!d->nheap) return -1;
    int best = d->heap[0];
    int keep = d->phase[best], base = best * ncol;
    if (d->target[best] >= 0 && d->alive[base + d->target[best]]) keep = d->target[best];
    if (d->preferred[best] >= 0 && d->alive[base + d->preferred[best]] &&
        (d->restarts - d->preferred_at) / REPHASE_EVERY % 2 == 0) /* reference_cdcl.py: preferences_in_force */
        keep = d->preferred[best];
    if (keep < 0 || !d->alive[base + keep])
        for (keep = ncol - 1; !d->alive[base + keep]; keep--) continue; /* the highest colour left */
    for (int k = ncol - 1; k >= 0; k--)
        if (k != keep && d->alive[base + k]) return base + k;
    return -1;
}

/* cdcl_begin(minimize=True, guide=True, audit=None) */
PyObject *Core_cdcl_begin(Core *c, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"minimize", "guide", "audit", NULL};
    int minimize = 1, guide = 1;
    PyObject *audit = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|ppO", kwlist, &minimize, &guide, &audit)) return NULL;
    core_drop_cdcl(c);
    int nvars = c->nvars, nlines = c->nlines, ncells = c->ncells, ncol = c->ncol;
    Cdcl *d = PyMem_Calloc(1, sizeof(Cdcl));
    if (!d) return PyErr_NoMemory();
    c->cdcl = d;
    d->minimize = minimize;
    if (audit != Py_None) {
        Py_INCREF(audit);
        d->audit = audit;
    }
    size_t words = (size_t)nlines * ncol;
    d->st0 = PyMem_Malloc(sizeof(word) * words);
    d->alive = PyMem_Calloc(nvars, 1);
    d->cnt = PyMem_Calloc(ncells, sizeof(int));
    d->vcell = PyMem_Malloc(sizeof(int) * nvars);
    d->vcolour = PyMem_Malloc(sizeof(int) * nvars);
    d->crow = PyMem_Malloc(sizeof(int) * ncells);
    d->ccol = PyMem_Malloc(sizeof(int) * ncells);
    d->trail = PyMem_Malloc(sizeof(int) * nvars);
    d->tlevel = PyMem_Malloc(sizeof(int) * nvars);
    d->rtype = PyMem_Malloc(sizeof(int) * nvars);
    d->rdata = PyMem_Malloc(sizeof(int) * nvars);
    d->rlen = PyMem_Malloc(sizeof(int) * nvars);
    d->rlim = PyMem_Malloc(sizeof(int) * nvars);
    d->atop = PyMem_Malloc(sizeof(int) * nvars);
    d->xoff = PyMem_Malloc(sizeof(long) * nvars);
    d->xlen = PyMem_Malloc(sizeof(int) * nvars);
    d->pos = PyMem_Malloc(sizeof(int) * nvars);
    d->lt = PyMem_Calloc(nlines, sizeof(int *));
    d->ltn = PyMem_Calloc(nlines, sizeof(int));
    d->trail_lim = PyMem_Malloc(sizeof(int) * (ncells + 1));
    d->queue = PyMem_Malloc(sizeof(int) * nlines);
    d->inq = PyMem_Calloc(nlines, 1);
    d->watches = PyMem_Calloc(nvars, sizeof(Watches));
    d->activity = PyMem_Calloc(ncells, sizeof(double));
    d->phase = PyMem_Malloc(sizeof(int) * ncells);
    d->target = PyMem_Malloc(sizeof(int) * ncells);
    d->preferred = PyMem_Malloc(sizeof(int) * ncells);
    d->heap = PyMem_Malloc(sizeof(int) * ncells);
    d->hpos = PyMem_Malloc(sizeof(int) * ncells);
    d->confl = PyMem_Malloc(sizeof(int) * (nvars + 1));
    d->rbuf = PyMem_Malloc(sizeof(int) * (nvars + 1));
    d->lower = PyMem_Malloc(sizeof(int) * (nvars + 1));
    d->marked = PyMem_Malloc(sizeof(int) * (nvars + 1));
    d->clause = PyMem_Malloc(sizeof(int) * (nvars + 1));
    d->bucket = PyMem_Malloc(sizeof(int) * (ncells + 1));
    d->seen = PyMem_Calloc(nvars + 1, 1);
    int maxn = 0;
    for (int ln = 0; ln < nlines; ln++)
        if (c->len[ln] > maxn) maxn = c->len[ln];
    d->store.ncol = ncol;
    d->store.per_line = maxn * ncol + 1;
    d->store.kinds = (long)nlines * d->store.per_line;
    d->store.slot = PyMem_Malloc(sizeof(int) * d->store.kinds);
    d->store.count = PyMem_Calloc(d->store.kinds, sizeof(int));
    if (!d->st0 || !d->alive || !d->cnt || !d->vcell || !d->vcolour || !d->crow || !d->ccol || !d->trail || !d->tlevel || !d->rtype || !d->rdata || !d->rlen ||
        !d->rlim || !d->atop || !d->xoff || !d->xlen || !d->pos || !d->lt || !d->ltn || !d->trail_lim || !d->queue || !d->inq ||
        !d->watches || !d->activity || !d->phase || !d->target || !d->preferred || !d->heap || !d->hpos || !d->confl || !d->rbuf || !d->lower || !d->marked ||
        !d->clause || !d->bucket || !d->seen || !d->store.slot || !d->store.count)
        goto nomem;
    for (int ln = 0; ln < nlines; ln++) {
        d->lt[ln] = PyMem_Malloc(sizeof(int) * c->len[ln] * ncol);
        if (!d->lt[ln]) goto nomem;
    }
    memcpy(d->st0, c->st, sizeof(word) * words);
    for (int r = 0; r < c->H; r++)
        for (int col = 0; col < c->W; col++) {
            int cell = r * c->W + col;
            for (int k = 0; k < ncol; k++)
                if ((c->st[(Py_ssize_t)r * ncol + k] >> col) & 1) {
                    d->alive[cell * ncol + k] = 1;
                    d->cnt[cell]++;
                }
        }
    for (int v = 0; v < nvars; v++) {
        d->pos[v] = -1;
        d->vcell[v] = v / ncol;
        d->vcolour[v] = v % ncol;
    }
    for (int cell = 0; cell < ncells; cell++) {
        d->crow[cell] = cell / c->W;
        d->ccol[cell] = cell % c->W;
    }
    for (long kind = 0; kind < d->store.kinds; kind++) d->store.slot[kind] = -1;
    for (int cell = 0; cell < ncells; cell++) d->phase[cell] = -1;
    for (int cell = 0; cell < ncells; cell++) d->target[cell] = -1;
    for (int cell = 0; cell < ncells; cell++) d->preferred[cell] = -1;
    for (int ln = 0; ln < nlines; ln++) { /* every line once, so that each is at a fixpoint of this search */
        d->queue[ln] = ln;
        d->inq[ln] = 1;
    }
    d->nq = nlines;
    d->qfront = 0;
    d->qcap = nlines;
    d->inc = 1.0;
    d->max_learned = FIRST_REDUCE;
    d->conflict_line = -1;
    if (guide) { /* root probing's branch scores seed the decision order, below one conflict's bump */
        long top = -1;
        for (int cell = 0; cell < ncells; cell++)
            if (c->scored[cell] && c->score[cell] > top) top = c->score[cell];
        if (top >= 0) {
            if (top == 0) top = 1;
            for (int cell = 0; cell < ncells; cell++)
                if (c->scored[cell]) d->activity[cell] = 0.5 * (double)c->score[cell] / (double)top;
        }
    }
    heap_build(d, ncells);
    Py_RETURN_NONE;
nomem:
    core_drop_cdcl(c);
    return PyErr_NoMemory();
}

static Cdcl *running(Core *c) {
    if (!c->cdcl || c->cdcl->broken) {
        PyErr_SetString(PyExc_RuntimeError, c->cdcl ? "the CDCL search was stopped: begin another"
                                                    : "no CDCL search: call cdcl_begin first");
        return NULL;
    }
    return c->cdcl;
}

/* cdcl_search(restart_at, pause=None) -> EXHAUSTED, SOLUTION, RESTART or PAUSE (reference_cdcl.py: search) */
PyObject *Core_cdcl_search(Core *c, PyObject *args) {
    long long restart_at;
    PyObject *pause_obj = Py_None;
    if (!PyArg_ParseTuple(args, "L|O", &restart_at, &pause_obj)) return NULL;
    double pause = -1.0;
    if (pause_obj != Py_None) {
        pause = PyFloat_AsDouble(pause_obj);
        if (pause == -1.0 && PyErr_Occurred()) return NULL;
    }
    Cdcl *d = running(c);
    if (!d) return NULL;
    c->stop = 0;
    double started = pause >= 0 ? monotonic_now() : 0.0;
    int code;
    for (;;) {
        int nconf = 0;
        int rc = cd_propagate(c, d, &nconf);
        if (rc < 0) goto fail;
        if (rc) {
            d->conflicts++;
            if (d->minimize && d->conflict_line >= 0) {
                nconf = shrink(c, d, d->conflict_line, d->ltn[d->conflict_line], -1, -1, d->confl);
                if (nconf < 0) goto fail;
            }
            d->since_restart++;
            int top = 0;
            for (int j = 0; j < nconf; j++)
                if (d->confl[j] >= 0 && d->tlevel[d->confl[j]] > top) top = d->tlevel[d->confl[j]];
            if (top == 0) { /* the level-0 facts alone contradict: no solution is left */
                code = EXHAUSTED;
                break;
            }
            if (top < d->nlevels) cd_backtrack(c, d, top);
            int size, back, lbd;
            if (!analyze(c, d, nconf, &size, &back, &lbd)) goto fail;
            cd_backtrack(c, d, back);
            if (!add_clause(c, d, d->clause, size, lbd)) goto nomem;
            if (core_check_limits(c)) goto fail;
            if (d->nlearned > d->max_learned && !reduce_learned(d)) goto nomem;
            if (pause >= 0 && !(d->conflicts & 15) && monotonic_now() - started > pause) {
                code = PAUSE;
                break;
            }
            continue;
        }
        if (d->since_restart >= restart_at && d->nlevels) {
            code = RESTART;
            break;
        }
        if (d->ntrail > d->best_trail) { /* the longest trail so far: its colours are the target phases */
            d->best_trail = d->ntrail;
            for (int cell = 0; cell < c->ncells; cell++)
                if (d->cnt[cell] == 1)
                    for (int j = 0; j < c->ncol; j++)
                        if (d->alive[cell * c->ncol + j]) d->target[cell] = j;
        }
        int v = decide(c, d);
        if (v < 0) { /* every cell decided and every line at a fixpoint: a solution */
            code = SOLUTION;
            break;
        }
        d->decisions++;
        d->trail_lim[d->nlevels++] = d->ntrail;
        if (d->nlevels > d->max_level) d->max_level = d->nlevels;
        cd_remove(c, d, v, R_DECISION, 0, 0, 0, -1);
    }
    return PyLong_FromLong(code);
nomem:
    PyErr_NoMemory();
fail:
    d->broken = 1; /* abandoned mid-step (its counters stay readable) */
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "cdcl_search: stopped without a reason");
    return NULL;
}

/* reference_cdcl.py: block */
PyObject *Core_cdcl_block(Core *c, PyObject *Py_UNUSED(noargs)) {
    Cdcl *d = running(c);
    if (!d) return NULL;
    int n = d->nlevels;
    if (!n) Py_RETURN_FALSE;
    for (int j = 0; j < n; j++) d->clause[j] = d->trail[d->trail_lim[n - 1 - j]]; /* the last decision first */
    cd_backtrack(c, d, n - 1);
    if (!add_clause(c, d, d->clause, n, -1)) {
        d->broken = 1;
        return PyErr_NoMemory();
    }
    Py_RETURN_TRUE;
}

PyObject *Core_cdcl_restart(Core *c, PyObject *Py_UNUSED(noargs)) {
    Cdcl *d = running(c);
    if (!d) return NULL;
    d->restarts++;
    d->since_restart = 0;
    if (d->restarts % REPHASE_EVERY == 0) { /* reference_cdcl.py: restart */
        d->best_trail = 0;
        for (int cell = 0; cell < c->ncells; cell++) d->target[cell] = -1;
    }
    cd_backtrack(c, d, 0);
    Py_RETURN_NONE;
}

/* cdcl_prefer(colours): a decision on a cell keeps colours[cell] while it is alive (reference_cdcl.py: prefer) */
PyObject *Core_cdcl_prefer(Core *c, PyObject *colours) {
    Cdcl *d = running(c);
    if (!d) return NULL;
    PyObject *seq = PySequence_Fast(colours, "prefer: a list of colours");
    if (!seq) return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != c->ncells) {
        PyErr_Format(PyExc_ValueError, "prefer: %zd colours for %d cells", PySequence_Fast_GET_SIZE(seq), c->ncells);
        Py_DECREF(seq);
        return NULL;
    }
    for (int cell = 0; cell < c->ncells; cell++) {
        long k = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, cell));
        if (k == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return NULL;
        }
        d->preferred[cell] = (k >= 0 && k < c->ncol) ? (int)k : -1;
    }
    d->preferred_at = d->restarts;
    Py_DECREF(seq);
    Py_RETURN_NONE;
}
