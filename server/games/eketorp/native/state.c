/* Eketorp's random play-out in whole steps, in C: the same game as eketorp/playout.py.
 *
 * Each step here is one call of ``playout.step`` there (a seat's whole plan, the reveal, a
 * round's fights, the sharing, a seat's building, the next round), drawing from each seat's
 * SplitMix64 generator exactly what the random bot draws, in the same order, and adding one to
 * the version per action a step stands for.  The state is one flat array of 32-bit integers laid
 * out by native/__init__.py, which writes the O_* offsets below before compiling (so the layout
 * has one source).  Lists are a length followed by their items.  Rule IDs: docs/rules/eketorp.md.
 *
 * Three files, compiled as one, in this order (native/__init__.py: SOURCE_NAMES): this one (the
 * flat state, the generators, the lists), fights.c (a round's fights) and playout.c (the sharing,
 * the building, the planning, the round and the entry point, ``eketorp_playout``).
 *
 * Board keys: 0-6 the material fields A-G, 7 + 3 * owner + side a siege field (catapult, boat,
 * ram), 25 + owner a castle.  Stones: 0 grass, 1 wood, 2 clay, 3 stone (value = kind + 1).
 * Phases: see the P_* numbers; a play-out never rests in the middle of a fight here (the Python
 * side finishes a fight under way first).
 */
#include <stdint.h>

#define NFIELDS 7
#define SIEGE(owner, side) (7 + 3 * (owner) + (side))
#define CASTLE(owner) (25 + (owner))
#define NKEYS 31
#define SITES 6
#define STACK_MAX 3
#define CASTLE_FULL 18

enum { P_PLANNING, P_REVEAL, P_PICK, P_SHARING, P_BUILDING, P_ROUND_END, P_OVER, P_NONE = -1 };

#define E_STATE -2 /* a state this engine does not play (the caller falls back to Python) */

typedef struct {
    int32_t *s;
    uint64_t *r; /* one generator per seat, then the table's (reshuffles) at index 6 */
    const int32_t *cards;
    int ncards;
    int err;
} G;

#define S (g->s)
#define NP (S[O_N])
#define BOARD(key, seat) S[O_BOARD + (key) * 6 + (seat)]
#define FIELD(f, stone) S[O_FIELDS + (f) * 4 + (stone)]
#define HOSP(seat, st) S[O_HOSP + (seat) * 3 + (st)]
#define PLAN(seat, key) S[O_PLANS + (seat) * NKEYS + (key)]
#define HAND(seat) (O_HANDS + (seat) * (1 + CARD_CAP))
#define DISC(seat) (O_DISCARDS + (seat) * (1 + CARD_CAP))
#define CARRY(seat) (O_CARRY + (seat) * (1 + STONE_CAP))
#define BESIDE(seat) (O_BESIDE + (seat) * (1 + STONE_CAP))
#define STACK(seat, site) (O_CASTLES + ((seat) * SITES + (site)) * (1 + STACK_MAX))
#define FRESH(seat, site) S[O_FRESH + (seat) * SITES + (site)]

/* -- SplitMix64, as games/rng.py ---------------------------------------------------------- */

static uint64_t next64(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int below(G *g, uint64_t *state, int n) {
    if (n <= 0) {
        g->err = E_STATE;
        return 0;
    }
    uint64_t un = (uint64_t)n;
    uint64_t rest = (0 - un) % un; /* 2**64 % n */
    for (;;) {
        uint64_t x = next64(state);
        if (rest == 0 || x < (uint64_t)(0 - rest)) return (int)(x % un);
    }
}

static void skip(uint64_t *state) { *state += 0x9E3779B97F4A7C15ULL; }

/* -- lists ---------------------------------------------------------------------------------- */

static void push(G *g, int at, int cap, int value) {
    int len = S[at];
    if (len >= cap) {
        g->err = E_STATE;
        return;
    }
    S[at + 1 + len] = value;
    S[at] = len + 1;
}

static void remove_first(G *g, int at, int value) {
    int len = S[at];
    for (int i = 0; i < len; i++) {
        if (S[at + 1 + i] == value) {
            for (int j = i; j < len - 1; j++) S[at + 1 + j] = S[at + 2 + j];
            S[at] = len - 1;
            return;
        }
    }
    g->err = E_STATE;
}

static void sort_list(G *g, int at) {
    int len = S[at];
    int32_t *v = S + at + 1;
    for (int i = 1; i < len; i++) {
        int32_t x = v[i];
        int j = i - 1;
        while (j >= 0 && v[j] > x) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = x;
    }
}

static int sum_board(G *g, int key) {
    int total = 0;
    for (int s = 0; s < NP; s++) total += BOARD(key, s);
    return total;
}

static int field_stones(G *g, int f) {
    return FIELD(f, 0) + FIELD(f, 1) + FIELD(f, 2) + FIELD(f, 3);
}

static int castle_stones(G *g, int seat) {
    int total = 0;
    for (int i = 0; i < SITES; i++) total += S[STACK(seat, i)];
    return total;
}
