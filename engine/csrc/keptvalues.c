/*
 * The values of what a reply's rack can keep (playout.c, reply.c): for every kept multiset of the rack
 * (kept_layout's mixed-radix index) the learned leave value, and per leave size the most one is
 * worth (the search's bounds). Within a kernel call the opponent's rack of an iteration is the same for
 * every candidate, so the values of the last two racks are remembered.
 */

#include "playout.h"

/* leave_value of kept multiset `index`, summed in leave_value's order (so equal to the last bit),
 * without going over the whole alphabet; its size in *size. */
static double kept_value(const LeaveTableObject *table, int index, const int *distinct, const int *multiplicity,
                         int ndistinct, int *size) {
    int tiles = table->letters + 1;
    int present[MAX_LETTERS + 1], copies[MAX_LETTERS + 1], npresent = 0, total = 0, vowels = 0;
    for (int i = 0; i < ndistinct; i++) {
        int n = index % (multiplicity[i] + 1);
        index /= multiplicity[i] + 1;
        if (n) {
            int code = distinct[i] < 0 ? tiles - 1 : distinct[i];  /* the blank last, as leave_value has it */
            present[npresent] = code;
            copies[npresent++] = n;
            total += n;
            if (distinct[i] >= 0 && ((table->vowels >> code) & 1)) {
                vowels += n;
            }
        }
    }
    *size = total;
    return leave_features_value(table, present, copies, npresent, total, vowels);
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
    for (Py_ssize_t index = 0; index < nkept; index++) {
        int size;
        double value = kept_value(k->table, (int)index, distinct, multiplicity, ndistinct, &size);
        memo->kept[index] = value;
        if (value > memo->max_kept[size]) {
            memo->max_kept[size] = value;
        }
    }
    return memo;
}
