/* Beliefs by loopy belief propagation between rows and columns: belief.py's `beliefs` in C, the same sums in
 * the same order of operations (read that module's docstring first). Why in C: a round is a forward-backward
 * pass over every line's clue automaton, and the numpy version pays an array call per cell position; on a
 * 50x50 picture its 100 rounds took seconds, which the CDCL search's driver pays before it may use them.
 *
 * Per line the automaton is stored as one entry per state: does it loop on the background (gap states),
 * which colour moves it one state on, which moves it two on (a block's last cell straight into the next
 * block's first when their colours differ), and whether it accepts. Each state has at most one colour of
 * each kind, so a weighted move is one weight, not a sum over colours. */
#include "core.h"

#include <time.h>

typedef struct {
    int n, size;    /* cells, states */
    signed char *stay, *accept;
    int *one, *two; /* per state: the colour that moves one (two) states on, or -1 */
    int has_two;    /* some state moves two on */
    /* per state, 1.0 or 0.0: it loops on the background, it moves one on on the background, on colour 1 (the
     * black-and-white case's sums as products: no branch, no sum waiting on a store) */
    double *is_stay, *is_one0, *is_one1;
} Automaton;

static double now_monotonic(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* belief.py: _Automata, one line. 0 on a bad clue (an exception is set), -1 on no memory. */
static int automaton_of(PyObject *clue, int n, int ncol, Automaton *a) {
    Py_ssize_t k = PySequence_Fast_GET_SIZE(clue);
    PyObject **blocks = PySequence_Fast_ITEMS(clue);
    long states = 1;
    for (Py_ssize_t j = 0; j < k; j++) {
        long len, col;
        if (!PyArg_ParseTuple(blocks[j], "ll", &len, &col)) return 0;
        if (len < 1 || col < 1 || col >= ncol || len > n) {
            PyErr_SetString(PyExc_ValueError, "beliefs: a block is (length >= 1, colour 1..ncol-1)");
            return 0;
        }
        states += len + 1;
    }
    a->n = n;
    a->size = (int)states;
    a->stay = PyMem_Calloc(states, 1);
    a->accept = PyMem_Calloc(states, 1);
    a->one = PyMem_Malloc(sizeof(int) * states);
    a->two = PyMem_Malloc(sizeof(int) * states);
    a->is_stay = PyMem_Malloc(sizeof(double) * states);
    a->is_one0 = PyMem_Malloc(sizeof(double) * states);
    a->is_one1 = PyMem_Malloc(sizeof(double) * states);
    if (!a->stay || !a->accept || !a->one || !a->two || !a->is_stay || !a->is_one0 || !a->is_one1) return -1;
    for (long s = 0; s < states; s++) a->one[s] = a->two[s] = -1;
    int q = 0;
    for (Py_ssize_t j = 0; j < k; j++) {
        long len, col;
        PyArg_ParseTuple(blocks[j], "ll", &len, &col);
        a->stay[q] = 1;
        a->one[q++] = (int)col; /* gap -> the block's first cell */
        for (long t = 0; t < len - 1; t++) a->one[q++] = (int)col;
        a->one[q] = 0; /* the last cell -> the gap after it */
        if (j + 1 < k) {
            long nlen, ncolour;
            PyArg_ParseTuple(blocks[j + 1], "ll", &nlen, &ncolour);
            if (ncolour != col) a->two[q] = (int)ncolour;
        } else {
            a->accept[q] = 1;
        }
        q++;
    }
    a->stay[q] = 1;
    a->accept[q] = 1;
    a->has_two = 0;
    for (long t = 0; t < states; t++) {
        a->has_two |= a->two[t] >= 0;
        a->is_stay[t] = a->stay[t] ? 1.0 : 0.0;
        a->is_one0[t] = a->one[t] == 0 ? 1.0 : 0.0;
        a->is_one1[t] = a->one[t] == 1 ? 1.0 : 0.0;
    }
    return 1;
}

static void automaton_free(Automaton *a) {
    PyMem_Free(a->stay);
    PyMem_Free(a->accept);
    PyMem_Free(a->one);
    PyMem_Free(a->two);
    PyMem_Free(a->is_stay);
    PyMem_Free(a->is_one0);
    PyMem_Free(a->is_one1);
}

/* scaled to sum 1, by one reciprocal (a division per state was a third of a round's time); the result differs
 * from belief.py's division by at most a rounding, far below what the tests compare */
static void normalise(double *x, int size) {
    double sum = 0.0;
    for (int s = 0; s < size; s++) sum += x[s];
    if (sum < 1e-300) sum = 1e-300;
    double scale = 1.0 / sum;
    for (int s = 0; s < size; s++) x[s] *= scale;
}

/* belief.py: line_messages for one line. w: the line's weights (cell i, colour k at w[i * wstride + k *
 * kstride]); out likewise (cells x colours, normalised per cell); alpha, beta: (n + 1) x size scratch. */
static void line_message(const Automaton *a, int ncol, const double *w, long wstride, long kstride, double *out,
                         long ostride, long okstride, double *alpha, double *beta) {
    int n = a->n, size = a->size;
    memset(alpha, 0, sizeof(double) * size);
    alpha[0] = 1.0;
    for (int i = 0; i < n; i++) { /* forward: the placements of cells 0..i-1 ending in each state */
        const double *cur = alpha + (long)i * size, *wi = w + i * wstride;
        double *nxt = alpha + (long)(i + 1) * size;
        for (int s = 0; s < size; s++) {
            double v = a->stay[s] ? wi[0] * cur[s] : 0.0;
            if (s >= 1 && a->one[s - 1] >= 0) v += wi[a->one[s - 1] * kstride] * cur[s - 1];
            if (s >= 2 && a->two[s - 2] >= 0) v += wi[a->two[s - 2] * kstride] * cur[s - 2];
            nxt[s] = v;
        }
        normalise(nxt, size);
    }
    double *b = beta + (long)n * size;
    for (int s = 0; s < size; s++) b[s] = a->accept[s];
    for (int i = n - 1; i >= 0; i--) { /* backward: the placements of cells i..n-1 from each state */
        const double *after = beta + (long)(i + 1) * size, *wi = w + i * wstride;
        double *nxt = beta + (long)i * size;
        for (int s = 0; s < size; s++) {
            double v = a->stay[s] ? wi[0] * after[s] : 0.0;
            if (s + 1 < size && a->one[s] >= 0) v += wi[a->one[s] * kstride] * after[s + 1];
            if (s + 2 < size && a->two[s] >= 0) v += wi[a->two[s] * kstride] * after[s + 2];
            nxt[s] = v;
        }
        normalise(nxt, size);
    }
    /* a colour's weight at cell i: the placements reaching a state before it, times the move on that colour
     * (unweighted: the cell's own weight is left out), times the placements from where the move lands */
    if (ncol == 2 && !a->has_two) { /* black and white: three sums kept in registers */
        for (int i = 0; i < n; i++) {
            const double *head = alpha + (long)i * size, *tail = beta + (long)(i + 1) * size;
            double stay = 0.0, to0 = 0.0, to1 = 0.0;
            for (int s = 0; s + 1 < size; s++) {
                double moved = head[s] * tail[s + 1];
                to0 += a->is_one0[s] * moved;
                to1 += a->is_one1[s] * moved;
                stay += a->is_stay[s] * (head[s] * tail[s]);
            }
            stay += a->is_stay[size - 1] * (head[size - 1] * tail[size - 1]);
            double *o = out + i * ostride, w0 = to0 + stay, sum = w0 + to1;
            if (sum < 1e-300) sum = 1e-300;
            o[0] = w0 / sum;
            o[okstride] = to1 / sum;
        }
        return;
    }
    for (int i = 0; i < n; i++) {
        const double *head = alpha + (long)i * size, *tail = beta + (long)(i + 1) * size;
        double *o = out + i * ostride, sum = 0.0, acc[MAX_COLOURS];
        /* summed in a local array, the same additions in the same order: through `out` every addition waited
         * for the store of the one before */
        for (int k = 0; k < ncol; k++) acc[k] = 0.0;
        for (int s = 0; s < size; s++) {
            if (a->one[s] >= 0 && s + 1 < size) acc[a->one[s]] += head[s] * tail[s + 1];
            if (a->two[s] >= 0 && s + 2 < size) acc[a->two[s]] += head[s] * tail[s + 2];
            if (a->stay[s]) acc[0] += head[s] * tail[s];
        }
        for (int k = 0; k < ncol; k++) sum += acc[k];
        if (sum < 1e-300) sum = 1e-300;
        for (int k = 0; k < ncol; k++) o[k * okstride] = acc[k] / sum;
    }
}

/* beliefs(rows, cols, ncol, masks, rounds, damping, epsilon, deadline, timeout) -> list of floats (row-major,
 * height x width x colours): belief.py's `beliefs`. rows, cols: per line a list of (length, colour). */
PyObject *core_beliefs(PyObject *Py_UNUSED(module), PyObject *args) {
    PyObject *rows_in, *cols_in, *masks_in, *deadline_in, *timeout_exc;
    int ncol, rounds;
    double damping, epsilon;
    if (!PyArg_ParseTuple(args, "OOiOiddOO", &rows_in, &cols_in, &ncol, &masks_in, &rounds, &damping, &epsilon,
                          &deadline_in, &timeout_exc))
        return NULL;
    double deadline = 0.0;
    int has_deadline = deadline_in != Py_None;
    if (has_deadline) {
        deadline = PyFloat_AsDouble(deadline_in);
        if (deadline == -1.0 && PyErr_Occurred()) return NULL;
    }
    PyObject *rows = PySequence_Fast(rows_in, "rows: a sequence"), *cols = NULL, *masks = NULL, *result = NULL;
    if (!rows) return NULL;
    cols = PySequence_Fast(cols_in, "cols: a sequence");
    masks = cols ? PySequence_Fast(masks_in, "masks: a sequence") : NULL;
    int H = rows ? (int)PySequence_Fast_GET_SIZE(rows) : 0, W = cols ? (int)PySequence_Fast_GET_SIZE(cols) : 0;
    Automaton *autos = NULL; /* zeroed: freeing one never built is harmless */
    double *prior = NULL, *from_rows = NULL, *from_cols = NULL, *weights = NULL, *fresh = NULL, *alpha = NULL,
           *beta = NULL;
    if (!masks) goto done;
    if (ncol < 2 || ncol > MAX_COLOURS || H < 1 || W < 1 || PySequence_Fast_GET_SIZE(masks) != (Py_ssize_t)H * W) {
        PyErr_SetString(PyExc_ValueError, "beliefs: height x width masks, 2..MAX_COLOURS colours");
        goto done;
    }
    long cells = (long)H * W, total = cells * ncol;
    autos = PyMem_Calloc(H + W, sizeof(Automaton));
    prior = PyMem_Malloc(sizeof(double) * total);
    from_rows = PyMem_Malloc(sizeof(double) * total);
    from_cols = PyMem_Malloc(sizeof(double) * total);
    weights = PyMem_Malloc(sizeof(double) * total);
    fresh = PyMem_Malloc(sizeof(double) * total);
    if (!autos || !prior || !from_rows || !from_cols || !weights || !fresh) {
        PyErr_NoMemory();
        goto done;
    }
    int maxsize = 0, maxlen = H > W ? H : W;
    for (int l = 0; l < H + W; l++) {
        PyObject *clue = PySequence_Fast(PySequence_Fast_GET_ITEM(l < H ? rows : cols, l < H ? l : l - H),
                                         "a clue: a sequence of (length, colour)");
        if (!clue) goto done;
        int ok = automaton_of(clue, l < H ? W : H, ncol, &autos[l]);
        Py_DECREF(clue);
        if (ok <= 0) {
            if (ok < 0) PyErr_NoMemory();
            goto done;
        }
        if (autos[l].size > maxsize) maxsize = autos[l].size;
    }
    alpha = PyMem_Malloc(sizeof(double) * (maxlen + 1) * maxsize);
    beta = PyMem_Malloc(sizeof(double) * (maxlen + 1) * maxsize);
    if (!alpha || !beta) {
        PyErr_NoMemory();
        goto done;
    }
    for (long i = 0; i < cells; i++) {
        unsigned long long m = PyLong_AsUnsignedLongLongMask(PySequence_Fast_GET_ITEM(masks, i));
        if (m == (unsigned long long)-1 && PyErr_Occurred()) goto done;
        for (int k = 0; k < ncol; k++) {
            prior[i * ncol + k] = (double)((m >> k) & 1);
            from_rows[i * ncol + k] = from_cols[i * ncol + k] = 1.0 / ncol;
        }
    }
    for (int round = 0; round < rounds; round++) {
        if (has_deadline && now_monotonic() > deadline) {
            PyErr_SetNone(timeout_exc);
            goto done;
        }
        /* rows hear the columns: cell (r, c) of row r is at (r * W + c) * ncol */
        for (long x = 0; x < total; x++) weights[x] = from_cols[x] * prior[x] + epsilon;
        for (int r = 0; r < H; r++)
            line_message(&autos[r], ncol, weights + (long)r * W * ncol, ncol, 1, fresh + (long)r * W * ncol, ncol, 1,
                         alpha, beta);
        for (long x = 0; x < total; x++) from_rows[x] = damping * from_rows[x] + (1 - damping) * fresh[x];
        /* columns hear the rows: cell r of column c is at (r * W + c) * ncol, a stride of W * ncol */
        for (long x = 0; x < total; x++) weights[x] = from_rows[x] * prior[x] + epsilon;
        for (int c = 0; c < W; c++)
            line_message(&autos[H + c], ncol, weights + (long)c * ncol, (long)W * ncol, 1, fresh + (long)c * ncol,
                         (long)W * ncol, 1, alpha, beta);
        for (long x = 0; x < total; x++) from_cols[x] = damping * from_cols[x] + (1 - damping) * fresh[x];
    }
    result = PyList_New(total);
    if (!result) goto done;
    for (long i = 0; i < cells; i++) {
        double sum = 0.0, *b = fresh + i * ncol;
        for (int k = 0; k < ncol; k++) {
            b[k] = from_rows[i * ncol + k] * from_cols[i * ncol + k] * prior[i * ncol + k];
            sum += b[k];
        }
        if (sum < 1e-300) sum = 1e-300;
        for (int k = 0; k < ncol; k++) {
            PyObject *f = PyFloat_FromDouble(b[k] / sum);
            if (!f) {
                Py_CLEAR(result);
                goto done;
            }
            PyList_SET_ITEM(result, i * ncol + k, f);
        }
    }
done:
    if (autos)
        for (int l = 0; l < H + W; l++) automaton_free(&autos[l]);
    PyMem_Free(autos);
    PyMem_Free(prior);
    PyMem_Free(from_rows);
    PyMem_Free(from_cols);
    PyMem_Free(weights);
    PyMem_Free(fresh);
    PyMem_Free(alpha);
    PyMem_Free(beta);
    Py_XDECREF(rows);
    Py_XDECREF(cols);
    Py_XDECREF(masks);
    return result;
}
