/* The exact line solver (line.py's algorithm, read its docstring first), written once for a word type:
 * core.h includes it twice, with LS_WORD the core's `word` and a 64-bit word, LS_NAME naming each copy. */

static inline LS_WORD LS_NAME(fits)(LS_WORD f, int length) { /* starts of `length` consecutive cells all in f */
    int span = 1;
    while (span < length) {
        int step = span <= length - span ? span : length - span;
        f &= f >> step;
        span += step;
    }
    return f;
}

static inline LS_WORD LS_NAME(cover)(LS_WORD v, int length) { /* every cell some start in v covers */
    int span = 1;
    while (span < length) {
        int step = span <= length - span ? span : length - span;
        v |= v << step;
        span += step;
    }
    return v;
}

/* line._forward: 0 when no placement exists */
static inline int LS_NAME(forward)(int k, const int *len, const int *col, const int *gap, int n, const LS_WORD *masks,
                                   LS_WORD *starts, LS_WORD *gapcells) {
    LS_WORD bg = masks[0];
    LS_WORD g = 1 | (((1 & bg) + bg) ^ bg);
    gapcells[0] = g & bg;
    for (int j = 0; j < k; j++) {
        LS_WORD s = g & LS_NAME(fits)(masks[col[j]], len[j]);
        if (!s) return 0;
        starts[j] = s;
        LS_WORD e = s << len[j];
        LS_WORD p = gap[j] ? (e & bg) << 1 : e;
        g = p | (((p & bg) + bg) ^ bg);
        gapcells[j + 1] = (g | e) & bg;
    }
    return (int)((g >> n) & 1);
}

/* line.feasible_planned */
static inline int LS_NAME(feasible)(const Plan *plan, int n, const LS_WORD *masks) {
    LS_WORD starts[MAX_BLOCKS], gaps[MAX_BLOCKS + 1];
    return LS_NAME(forward)(plan->k, plan->len, plan->col, plan->gap, n, masks, starts, gaps);
}

/* line.solve_planned: 0 on a contradiction, else 1 with `out` holding the narrowed masks */
static inline int LS_NAME(solve)(const Plan *plan, int n, int ncol, const LS_WORD *masks, LS_WORD *out) {
    LS_WORD starts[MAX_BLOCKS], gaps[MAX_BLOCKS + 1], rstarts[MAX_BLOCKS], rgaps[MAX_BLOCKS + 1];
    LS_WORD rmasks[MAX_COLOURS];
    int k = plan->k;
    if (!LS_NAME(forward)(k, plan->len, plan->col, plan->gap, n, masks, starts, gaps)) return 0;
    memcpy(rmasks, masks, sizeof(LS_WORD) * ncol);
    LS_REVERSE_ALL(rmasks, ncol, n);
    if (!LS_NAME(forward)(k, plan->rlen, plan->rcol, plan->rgap, n, rmasks, rstarts, rgaps)) return 0;
    LS_REVERSE_ALL(rgaps, k + 1, n); /* the mirrored pass's results, back in the line's order */
    LS_REVERSE_ALL(rstarts, k, n);
    for (int c = 1; c < ncol; c++) out[c] = 0;
    LS_WORD bgnew = 0;
    for (int g = 0; g <= k; g++) bgnew |= gaps[g] & rgaps[k - g];
    out[0] = bgnew;
    for (int j = 0; j < k; j++) {
        /* the mirrored starts of block j are its last cells; shifted back by length - 1 to its starts */
        LS_WORD valid = starts[j] & (rstarts[k - 1 - j] >> (plan->len[j] - 1));
        if (!valid) return 0;
        out[plan->col[j]] |= LS_NAME(cover)(valid, plan->len[j]);
    }
    return 1;
}

