/*
 * The values of what a reply's rack can keep (playout.c, reply.c): for every kept multiset of the rack
 * (kept_layout's mixed-radix index) the learned leave value, and per leave size the most one is
 * worth (the search's bounds). Within a kernel call the opponent's rack of an iteration is the same for
 * every candidate, so the values of the last two racks are remembered.
 */

#include "reply.h"

/* The rack's weights, read once (distinct: its letters ascending, then the blank as -1; the blank's
 * code is the table's last, as leave_value has it). */
static void rack_weights(const LeaveTableObject *table, const int *distinct, const int *multiplicity, int ndistinct,
                         RackWeights *rw) {
    int tiles = table->letters + 1;
    const double *w = table->weights;
    int codes[MAX_RACK];
    rw->ndistinct = ndistinct;
    for (int i = 0; i < ndistinct; i++) {
        rw->multiplicity[i] = multiplicity[i];
        codes[i] = distinct[i] < 0 ? tiles - 1 : distinct[i];
        for (int c = 0; c < multiplicity[i] && c < COPIES; c++) {
            rw->single[i][c] = w[codes[i] * COPIES + c];
        }
        rw->vowel[i] = distinct[i] >= 0 && ((table->vowels >> codes[i]) & 1);
    }
    int pair_base = tiles * COPIES;
    for (int i = 0; i < ndistinct; i++) {
        int a = codes[i], row = pair_base + a * tiles - a * (a + 1) / 2;
        for (int j = i + 1; j < ndistinct; j++) {
            rw->pair[i][j] = w[row + codes[j] - a - 1];
        }
    }
    rw->shape = w + pair_base + tiles * (tiles - 1) / 2;
    rw->max_size = table->max_size;
}

/* The weight of a leave's shape: `size` tiles (at least 1), `vowels` of them vowels. */
static inline double shape_weight(const RackWeights *rw, int size, int vowels) {
    int shape = size > rw->max_size ? rw->max_size : size;
    return rw->shape[(shape - 1) * (shape + 2) / 2 + (vowels < shape ? vowels : shape)];
}

/* leave_value of kept multiset `index` (kept_layout's), its features summed in leave_features_value's
 * order (so equal to the last bit). */
static double kept_value(const RackWeights *rw, int index) {
    int copies[MAX_RACK], total = 0, vowels = 0;
    double value = 0.0;
    for (int i = 0; i < rw->ndistinct; i++) {
        int n = index % (rw->multiplicity[i] + 1);
        index /= rw->multiplicity[i] + 1;
        copies[i] = n;
        total += n;
        vowels += rw->vowel[i] ? n : 0;
        for (int c = 0; c < n && c < COPIES; c++) {
            value += rw->single[i][c];
        }
    }
    for (int i = 0; i < rw->ndistinct; i++) {
        if (copies[i]) {
            for (int j = i + 1; j < rw->ndistinct; j++) {
                if (copies[j]) {
                    value += rw->pair[i][j];
                }
            }
        }
    }
    if (total) {
        value += shape_weight(rw, total, vowels);
    }
    return value;
}

/* The exact value of kept multiset `index` of `memo` (a KeptValues), worked out when first needed. */
double kept_exact(void *memo, int index) {
    KeptValues *values = memo;
    if (values->kept[index] != values->kept[index]) {
        values->kept[index] = kept_value(&values->weights, index);
    }
    return values->kept[index];
}

/* Every kept value of `values` worked out (the best swap reads them all). */
void kept_all(KeptValues *values) {
    for (Py_ssize_t index = 0; index < values->nkept; index++) {
        kept_exact(values, (int)index);
    }
}

#define PRESENCE_MAX 8  /* distinct tiles up to which the bounds below are summed by presence */

/* The most a leave of each size can be worth (memo->max_kept, and memo->max_used over the leaves with
 * fewer than all copies of distinct tile `blank`, the blank's; -1: none), from its features summed in
 * another order than kept_value's (the pairs of each set of distinct tiles once, the copies brought up
 * to date one by one), plus more than that order can change: a bound. Returns -1 when the rack has too
 * many distinct tiles for it, or a weight of its tiles is not finite. */
static int kept_bounds(KeptValues *memo, int blank) {
    const RackWeights *rw = &memo->weights;
    int nd = rw->ndistinct;
    if (nd > PRESENCE_MAX) {
        return -1;
    }
    double singles[PRESENCE_MAX][MAX_RACK + 1];  /* the first c copies of tile i */
    double scale = 1.0;  /* the magnitudes summed: the rounding of any order is far below 1e-9 of it */
    for (int i = 0; i < nd; i++) {
        singles[i][0] = 0.0;
        for (int c = 1; c <= rw->multiplicity[i]; c++) {
            double w = c <= COPIES ? rw->single[i][c - 1] : 0.0;
            singles[i][c] = singles[i][c - 1] + w;
            scale += fabs(w);
        }
    }
    for (int i = 0; i < nd; i++) {
        for (int j = i + 1; j < nd; j++) {
            scale += fabs(rw->pair[i][j]);
        }
    }
    if (!(scale < HUGE_VAL)) {
        return -1;  /* a weight not finite: the sums in another order are no bound */
    }
    double pairs[1 << PRESENCE_MAX];  /* by the set of distinct tiles present */
    pairs[0] = 0.0;
    for (int set = 1; set < (1 << nd); set++) {
        int high = 31 - __builtin_clz((unsigned)set);
        double sum = pairs[set & ~(1 << high)];
        for (int i = 0; i < high; i++) {
            if (set >> i & 1) {
                sum += rw->pair[i][high];
            }
        }
        pairs[set] = sum;
    }
    /* every kept multiset, counting up each distinct tile's copies (an odometer), its features' sum but the
     * shape's brought up to date digit by digit; the most of those sums by size and vowels, to which the
     * shape's weight is added once: the same for all of them, and rounding keeps their order, so that is the
     * most of the sums with it */
    double most[MAX_RACK + 1][MAX_RACK + 1], most_used[MAX_RACK + 1][MAX_RACK + 1];
    int tiles = 0;
    for (int i = 0; i < nd; i++) {
        tiles += rw->multiplicity[i];
    }
    for (int n = 0; n <= tiles; n++) {
        for (int v = 0; v <= n; v++) {
            most[n][v] = most_used[n][v] = -HUGE_VAL;
        }
    }
    double value = 0.0;
    int copies[PRESENCE_MAX] = {0}, size = 0, vowels = 0, set = 0;
    for (Py_ssize_t index = 0; index < memo->nkept; index++) {
        double partial = value + pairs[set];
        if (partial > most[size][vowels]) {
            most[size][vowels] = partial;
        }
        if (blank >= 0 && copies[blank] < rw->multiplicity[blank] && partial > most_used[size][vowels]) {
            most_used[size][vowels] = partial;
        }
        for (int i = 0; i < nd; i++) {
            int vowel = rw->vowel[i];
            if (copies[i] < rw->multiplicity[i]) {
                value += singles[i][copies[i] + 1] - singles[i][copies[i]];
                copies[i]++;
                size++;
                vowels += vowel;
                set |= 1 << i;
                break;
            }
            value -= singles[i][copies[i]];  /* back to none of tile i, on to the next tile */
            size -= copies[i];
            vowels -= vowel ? copies[i] : 0;
            copies[i] = 0;
            set &= ~(1 << i);
        }
    }
    double shape_most = 0.0;
    for (int n = 0; n <= tiles; n++) {
        for (int v = 0; v <= n; v++) {
            if (most[n][v] == -HUGE_VAL) {
                continue;  /* no kept multiset of this size and vowels */
            }
            double shape = n ? shape_weight(rw, n, v) : 0.0;
            double total = n ? most[n][v] + shape : most[n][v];
            shape_most = fabs(shape) > shape_most ? fabs(shape) : shape_most;
            if (total > memo->max_kept[n]) {
                memo->max_kept[n] = total;
            }
            double used = n ? most_used[n][v] + shape : most_used[n][v];
            if (most_used[n][v] > -HUGE_VAL && used > memo->max_used[n]) {
                memo->max_used[n] = used;
            }
        }
    }
    double slack = 1e-9 * (scale + shape_most);
    for (int i = 0; i <= MAX_RACK; i++) {
        if (memo->max_kept[i] > -1e300) {
            memo->max_kept[i] += slack;
        }
        if (memo->max_used[i] > -1e300) {
            memo->max_used[i] += slack;
        }
    }
    return 0;
}

static int same_rack(const Hand *a, const Hand *b, int letters) {
    return a->blanks == b->blanks && a->size == b->size && memcmp(a->counts, b->counts, sizeof(int) * (size_t)letters) == 0;
}

/* The kept values of `hand` (laid out by kept_layout: distinct, multiplicity, ndistinct, nkept): each
 * worked out when a search first needs it, their bounds by size now. */
KeptValues *kept_values(Kernel *k, const Hand *hand, const int *distinct, const int *multiplicity, int ndistinct,
                        Py_ssize_t nkept) {
    int letters = k->rules->letters;
    for (int m = 0; m < 2; m++) {
        if (k->memo[m].filled && same_rack(&k->memo[m].rack, hand, letters)) {
            k->recent = m;
            return &k->memo[m];
        }
    }
    KeptValues *memo = &k->memo[1 - k->recent];  /* the one used longer ago */
    k->recent = 1 - k->recent;
    memo->rack = *hand;
    memo->filled = 1;
    memo->nkept = nkept;
    for (int i = 0; i <= MAX_RACK; i++) {
        memo->max_kept[i] = memo->max_used[i] = -1e300;
    }
    int blank = ndistinct > 0 && distinct[ndistinct - 1] < 0 ? ndistinct - 1 : -1;  /* kept_layout puts it last */
    rack_weights(k->table, distinct, multiplicity, ndistinct, &memo->weights);
    for (Py_ssize_t index = 0; index < nkept; index++) {
        memo->kept[index] = NAN;
    }
    if (kept_bounds(memo, blank) < 0) {
        /* many distinct tiles (a long rack): every value worked out, the bounds exact */
        kept_all(memo);
        for (Py_ssize_t index = 0; index < nkept; index++) {
            int size = 0, used = 0;
            for (int i = 0, rest = (int)index; i < ndistinct; i++) {
                int copies = rest % (multiplicity[i] + 1);
                size += copies;
                used |= i == blank && copies < multiplicity[i];
                rest /= multiplicity[i] + 1;
            }
            if (memo->kept[index] > memo->max_kept[size]) {
                memo->max_kept[size] = memo->kept[index];
            }
            if (used && memo->kept[index] > memo->max_used[size]) {
                memo->max_used[size] = memo->kept[index];
            }
        }
    }
    return memo;
}
