/*
 * The values of what a reply's rack can keep (playout.c, reply.c): for every kept multiset of the rack
 * (kept_layout's mixed-radix index) the learned leave value, and per leave size the most one is
 * worth (the search's bounds). Within a kernel call the opponent's rack of an iteration is the same for
 * every candidate, so the values of the last two racks are remembered.
 */

#include "playout.h"

/* The learned leave model's weights for the tiles of one rack (kept_values): each distinct tile's copies,
 * each pair of distinct tiles, whether it is a vowel. */
typedef struct {
    int ndistinct;
    double single[MAX_RACK][COPIES];
    double pair[MAX_RACK][MAX_RACK];
    int vowel[MAX_RACK];
    const double *shape;  /* the weights of a leave's (size, vowels) */
    int max_size;
} RackWeights;

/* The rack's weights, read once (distinct: its letters ascending, then the blank as -1; the blank's
 * code is the table's last, as leave_value has it). */
static void rack_weights(const LeaveTableObject *table, const int *distinct, const int *multiplicity, int ndistinct,
                         RackWeights *rw) {
    int tiles = table->letters + 1;
    const double *w = table->weights;
    int codes[MAX_RACK];
    rw->ndistinct = ndistinct;
    for (int i = 0; i < ndistinct; i++) {
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

/* leave_value of kept multiset `index` (kept_layout's), its features summed in leave_features_value's
 * order (so equal to the last bit); its size in *size. */
static double kept_value(const RackWeights *rw, int index, const int *multiplicity, int *size) {
    int copies[MAX_RACK], total = 0, vowels = 0;
    double value = 0.0;
    for (int i = 0; i < rw->ndistinct; i++) {
        int n = index % (multiplicity[i] + 1);
        index /= multiplicity[i] + 1;
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
    *size = total;
    if (total) {
        int shape = total > rw->max_size ? rw->max_size : total;
        value += rw->shape[(shape - 1) * (shape + 2) / 2 + (vowels < shape ? vowels : shape)];
    }
    return value;
}

static int same_rack(const Hand *a, const Hand *b, int letters) {
    return a->blanks == b->blanks && a->size == b->size && memcmp(a->counts, b->counts, sizeof(int) * (size_t)letters) == 0;
}

/* The kept values of `hand` (laid out by kept_layout: distinct, multiplicity, ndistinct, nkept). */
const KeptValues *kept_values(Kernel *k, const Hand *hand, const int *distinct, const int *multiplicity, int ndistinct,
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
    for (int i = 0; i <= MAX_RACK; i++) {
        memo->max_kept[i] = -1e300;
    }
    RackWeights rw;
    rack_weights(k->table, distinct, multiplicity, ndistinct, &rw);
    for (Py_ssize_t index = 0; index < nkept; index++) {
        int size;
        double value = kept_value(&rw, (int)index, multiplicity, &size);
        memo->kept[index] = value;
        if (value > memo->max_kept[size]) {
            memo->max_kept[size] = value;
        }
    }
    return memo;
}
