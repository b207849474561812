/* Clue plans for the line solver in core.h (line.py: plan_of). */
#include "core.h"

/* The plan of one clue, ((length, colour), ...), for a line of n cells: 1, or 0 with an exception set. A clue
 * that cannot fit (a block longer than the line, more blocks than MAX_BLOCKS) gets k = -1: no placement. */
int plan_from(PyObject *blocks, int n, Plan *plan) {
    PyObject *seq = PySequence_Fast(blocks, "a clue must be a sequence of (length, colour)");
    if (!seq) return 0;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    int infeasible = k > MAX_BLOCKS;
    plan->k = infeasible ? -1 : (int)k;
    for (Py_ssize_t j = 0; j < k; j++) {
        int length, colour;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, j), "ii", &length, &colour)) {
            Py_DECREF(seq);
            return 0;
        }
        if (length < 1 || colour < 1 || colour >= MAX_COLOURS) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "a block needs a length >= 1 and an ink colour");
            return 0;
        }
        if (length > n) infeasible = 1;
        if (!infeasible) {
            plan->len[j] = length;
            plan->col[j] = colour;
        }
    }
    Py_DECREF(seq);
    if (infeasible) {
        plan->k = -1;
        return 1;
    }
    int kk = plan->k;
    for (int j = 0; j < kk; j++) {
        plan->gap[j] = j + 1 < kk && plan->col[j + 1] == plan->col[j];
        plan->rlen[j] = plan->len[kk - 1 - j];
        plan->rcol[j] = plan->col[kk - 1 - j];
    }
    for (int j = 0; j < kk; j++) plan->rgap[j] = j + 1 < kk && plan->rcol[j + 1] == plan->rcol[j];
    return 1;
}
