/* Eketorp's random play-out in whole steps, in C: the same game as eketorp/playout.py.
 *
 * Each step here is one call of ``playout.step`` there (a seat's whole plan, the reveal, a
 * round's fights, the sharing, a seat's building, the next round), drawing from each seat's
 * SplitMix64 generator exactly what the random bot draws, in the same order, and adding one to
 * the version per action a step stands for.  The state is one flat array of 32-bit integers laid
 * out by native/__init__.py, which writes the O_* offsets below before compiling (so the layout
 * has one source).  Lists are a length followed by their items.  Rule IDs: docs/rules/eketorp.md.
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

/* -- the fights (fights.py) ------------------------------------------------------------------ */

#define MAX_CHOICES 128

/* fight_choices: every fight or siege ``seat`` may start, in board order (R5.3-R5.7) */
static int fight_choices(G *g, int seat, int *fld, int *other) {
    int n = NP, count = 0;
    for (int f = 0; f < NFIELDS; f++) {
        if (!BOARD(f, seat)) continue;
        int occupied = 0, total = 0;
        for (int s = 0; s < n; s++) {
            occupied += BOARD(f, s) != 0;
            total += BOARD(f, s);
        }
        if (occupied >= 2 && total > field_stones(g, f)) {
            for (int o = 0; o < n; o++) {
                if (o != seat && BOARD(f, o)) {
                    fld[count] = f;
                    other[count++] = o;
                }
            }
        }
    }
    for (int owner = 0; owner < n; owner++) {
        if (owner == seat) continue; /* R5.7 */
        for (int side = 0; side < 3; side++) {
            int key = SIEGE(owner, side);
            int mine = BOARD(key, seat);
            if (!mine) continue;
            if (sum_board(g, key) > mine) { /* R5.4 */
                for (int o = 0; o < n; o++) {
                    if (o != seat && BOARD(key, o)) {
                        fld[count] = key;
                        other[count++] = o;
                    }
                }
            } else {
                int done = 0; /* R5.5, R5.14 */
                for (int i = 0; i < S[O_SIEGES]; i++) done |= S[O_SIEGES + 1 + i] == key;
                if (!done) {
                    fld[count] = key;
                    other[count++] = -1;
                }
            }
        }
    }
    return count;
}

static int has_fight(G *g, int seat) {
    int fld[MAX_CHOICES], other[MAX_CHOICES];
    return fight_choices(g, seat, fld, other) > 0;
}

static int can_swap(G *g, int seat) { /* D8 */
    int size = S[HAND(seat)];
    return 0 < size && size <= S[O_AMULETS + seat]
           && S[O_DRAW] + S[O_GENERAL] >= size;
}

static void exchange_hand(G *g, int seat) { /* R5.8, D8, D11 */
    int hand = HAND(seat), size = S[hand];
    int fresh[CARD_CAP];
    S[O_AMULETS + seat] -= size;
    for (int k = 0; k < size; k++) { /* draw_cards: an empty pile takes the general discard */
        if (S[O_DRAW] == 0) {
            int len = S[O_GENERAL];
            for (int i = 0; i <= len; i++) S[O_DRAW + i] = S[O_GENERAL + i];
            S[O_GENERAL] = 0;
            for (int i = len - 1; i > 0; i--) { /* the table's generator shuffles */
                int j = below(g, &g->r[6], i + 1);
                int32_t t = S[O_DRAW + 1 + i];
                S[O_DRAW + 1 + i] = S[O_DRAW + 1 + j];
                S[O_DRAW + 1 + j] = t;
            }
        }
        if (S[O_DRAW] == 0) {
            g->err = E_STATE;
            return;
        }
        fresh[k] = S[O_DRAW + S[O_DRAW]];
        S[O_DRAW]--;
    }
    for (int k = 0; k < size; k++) push(g, O_GENERAL, CARD_CAP, S[hand + 1 + k]);
    S[hand] = size;
    for (int k = 0; k < size; k++) S[hand + 1 + k] = fresh[k];
    sort_list(g, hand);
}

/* a card drawn as the random bot draws it: one of the distinct values in hand, ascending */
static int pick_card(G *g, int seat) {
    int hand = HAND(seat), present = 0, values[7], count = 0;
    for (int i = 0; i < S[hand]; i++) present |= 1 << S[hand + 1 + i];
    for (int v = 0; v < 7; v++)
        if (present & (1 << v)) values[count++] = v;
    int card = values[below(g, &g->r[seat], count)];
    remove_first(g, hand, card);
    return card;
}

static int station_for(int damage) { return damage >= 3 ? 0 : damage >= 1 ? 1 : 2; }

/* fights.settle: the result, the hospital, the card exchange, the refill (R5.10-R5.16, D7) */
static int settle(G *g, int siege, int fld, int a, int b, int defended, int card_a, int card_b) {
    int value_b = defended ? card_b : 0, damage = card_a - value_b;
    if (damage < 0) damage = -damage;
    int b_place = siege ? CASTLE(b) : fld, winner, nh = 0;
    int hs[2] = {0, 0}, hst[2] = {0, 0};
    if (card_a == value_b) {
        winner = -1;
        BOARD(fld, a)--;
        HOSP(a, 2)++;
        BOARD(b_place, b)--;
        HOSP(b, 2)++;
        hs[0] = a, hst[0] = 2, hs[1] = b, hst[1] = 2, nh = 2;
    } else if (card_a > value_b) {
        winner = a;
        if (defended) {
            int station = station_for(damage) + (siege ? 1 : 0); /* R5.15 */
            BOARD(b_place, b)--;
            HOSP(b, station)++;
            hs[0] = b, hst[0] = station, nh = 1;
        }
    } else {
        winner = b;
        int station = station_for(damage);
        BOARD(fld, a)--;
        HOSP(a, station)++;
        hs[0] = a, hst[0] = station, nh = 1;
    }
    push(g, DISC(a), CARD_CAP, card_b); /* R5.12 */
    push(g, DISC(b), CARD_CAP, card_a);
    int seats[2] = {a, b};
    for (int i = 0; i < 2; i++) {
        int seat = seats[i];
        if (S[HAND(seat)] == 0) { /* R5.13 */
            for (int k = 0; k <= S[DISC(seat)]; k++) S[HAND(seat) + k] = S[DISC(seat) + k];
            sort_list(g, HAND(seat));
            S[DISC(seat)] = 0;
        }
    }
    if (siege) push(g, O_SIEGES, MAX_SIEGES, fld);
    int32_t *lf = S + O_LAST;
    lf[0] = 1, lf[1] = siege, lf[2] = fld, lf[3] = a, lf[4] = b, lf[5] = defended;
    lf[6] = card_a, lf[7] = card_b, lf[8] = winner, lf[9] = nh;
    lf[10] = hs[0], lf[11] = hst[0], lf[12] = hs[1], lf[13] = hst[1];
    lf[14] = -1; /* the loot: None */
    return winner;
}

static int enter(G *g, int phase);

static void go(G *g, int phase) {
    while (phase != P_NONE && !g->err) {
        S[O_PHASE] = phase;
        phase = enter(g, phase);
    }
}

/* one whole fight or siege ``a`` picks; whether it was looted (the game has gone on then) */
static int fight(G *g, int a, const int *choice_fld, const int *choice_other, int choices) {
    int n = NP, k = below(g, &g->r[a], choices);
    int fld = choice_fld[k], b = choice_other[k], siege = b < 0, side = 0, defended = 1;
    if (siege) {
        b = (fld - 7) / 3;
        side = (fld - 7) % 3;
        defended = BOARD(CASTLE(b), b) > 0; /* R5.15, R5.16 */
    }
    int actions = 3; /* the pick and both cards */
    for (int idx = 0; idx < 2; idx++) { /* R5.8: the initiator, then the opponent */
        int seat = idx ? b : a;
        if (idx && !defended) break;
        while (can_swap(g, seat)) {
            actions++;
            if (below(g, &g->r[seat], 2)) break; /* keep */
            exchange_hand(g, seat);
            if (g->err) return 0;
        }
    }
    int card_a = pick_card(g, a);
    int card_b = pick_card(g, b);
    if (g->err) return 0;
    int winner = settle(g, siege, fld, a, b, defended, card_a, card_b);
    S[O_VERSION] += actions;
    if (siege && winner == a) { /* R5.17, D6, D13: the loot */
        int damage = card_a - (defended ? card_b : 0);
        if (damage < 0) damage = -damage;
        int sa = STACK(b, 2 * side), sb = STACK(b, 2 * side + 1);
        int can = (S[sa] && S[sa + S[sa]] + 1 <= damage) || (S[sb] && S[sb + S[sb]] + 1 <= damage);
        if (can) {
            int val_a[3] = {0}, kinds_a[3] = {0}, val_b[3] = {0}, kinds_b[3] = {0};
            int top_a = S[sa] < 2 ? S[sa] : 2, top_b = S[sb] < 2 ? S[sb] : 2;
            for (int t = 1; t <= top_a; t++) {
                int stone = S[sa + S[sa] - t + 1];
                val_a[t] = val_a[t - 1] + stone + 1;
                kinds_a[t] = kinds_a[t - 1] | (1 << stone);
            }
            for (int t = 1; t <= top_b; t++) {
                int stone = S[sb + S[sb] - t + 1];
                val_b[t] = val_b[t - 1] + stone + 1;
                kinds_b[t] = kinds_b[t - 1] | (1 << stone);
            }
            int opt_a[48], opt_b[48], opt_keep[48], count = 0;
            for (int ta = 0; ta <= top_a; ta++) {
                if (val_a[ta] > damage) break;
                for (int tb = 0; tb <= top_b; tb++) {
                    if (val_a[ta] + val_b[tb] > damage || ta + tb > 2) break;
                    if (!ta && !tb) continue;
                    int kinds = kinds_a[ta] | kinds_b[tb];
                    for (int stone = 0; stone < 4; stone++) {
                        if (kinds & (1 << stone)) {
                            opt_a[count] = ta, opt_b[count] = tb, opt_keep[count++] = stone;
                        }
                    }
                }
            }
            int pick = below(g, &g->r[a], count + 1);
            S[O_VERSION] += 1;
            if (pick < count) {
                int removed[2], nr = 0, keep = opt_keep[pick];
                for (int t = 0; t < opt_a[pick]; t++) removed[nr++] = S[sa + S[sa]--];
                for (int t = 0; t < opt_b[pick]; t++) removed[nr++] = S[sb + S[sb]--];
                push(g, CARRY(a), STONE_CAP, keep);
                int kept = 0;
                for (int i = 0; i < nr; i++) {
                    if (!kept && removed[i] == keep) kept = 1;
                    else S[O_SUPPLY + removed[i]]++;
                }
                int32_t *lf = S + O_LAST;
                lf[14] = nr, lf[15] = removed[0], lf[16] = nr > 1 ? removed[1] : -1, lf[17] = keep;
                S[O_TURN] = (a + 1) % n;
                go(g, P_PICK);
                return 1;
            }
        }
        int32_t *lf = S + O_LAST;
        lf[14] = 0, lf[15] = -1, lf[16] = -1, lf[17] = -1; /* nothing taken */
    }
    S[O_TURN] = (a + 1) % n;
    return 0;
}

static void fights_step(G *g) {
    int n = NP, fld[MAX_CHOICES], other[MAX_CHOICES];
    int choices = fight_choices(g, S[O_TURN], fld, other);
    for (;;) {
        if (fight(g, S[O_TURN], fld, other, choices)) {
            if (g->err || S[O_PHASE] != P_PICK) return;
            choices = fight_choices(g, S[O_TURN], fld, other);
            continue;
        }
        if (g->err) return;
        int turn = S[O_TURN], found = 0;
        for (int k = 0; k < n; k++) { /* as enter_pick: the next seat clockwise with a fight */
            int seat = (turn + k) % n;
            choices = fight_choices(g, seat, fld, other);
            if (choices) {
                S[O_TURN] = seat;
                found = 1;
                break;
            }
        }
        if (!found) {
            go(g, P_SHARING);
            return;
        }
    }
}

/* -- sharing and building (building.py) ----------------------------------------------------- */

static int next_field(G *g, int after) {
    for (int f = after + 1; f < NFIELDS; f++) {
        if (sum_board(g, f) && field_stones(g, f)) {
            S[O_SHARE] = 1, S[O_SHARE + 1] = f, S[O_SHARE + 2] = S[O_START];
            for (int s = 0; s < 6; s++) S[O_SHARE + 3 + s] = BOARD(f, s);
            return 1;
        }
    }
    S[O_SHARE] = 0;
    return 0;
}

static void take_stone(G *g, int seat, int f, int stone) {
    FIELD(f, stone)--;
    push(g, CARRY(seat), STONE_CAP, stone);
    S[O_SHARE + 3 + seat]--;
    S[O_SHARE + 2] = (seat + 1) % NP;
}

static int share_on(G *g) { /* take every stone nobody has a choice about (D4) */
    for (;;) {
        if (g->err) return P_NONE;
        if (!S[O_SHARE] && !next_field(g, -1)) return P_BUILDING;
        int f = S[O_SHARE + 1], left = field_stones(g, f), wanting = 0;
        for (int s = 0; s < NP; s++) wanting += S[O_SHARE + 3 + s];
        if (left == 0 || wanting == 0) { /* R5.1 */
            if (!next_field(g, f)) return P_BUILDING;
            continue;
        }
        int seat = S[O_SHARE + 2];
        while (!S[O_SHARE + 3 + seat]) seat = (seat + 1) % NP;
        int kinds[4], nk = 0;
        for (int stone = 0; stone < 4; stone++)
            if (FIELD(f, stone)) kinds[nk++] = stone;
        if (nk == 1) {
            take_stone(g, seat, f, kinds[0]);
        } else if (S[O_SHARE + 3 + seat] == wanting && wanting >= left) {
            for (int i = 0; i < nk; i++)
                while (FIELD(f, kinds[i]) && !g->err) take_stone(g, seat, f, kinds[i]);
        } else {
            S[O_SHARE + 2] = seat;
            return P_NONE;
        }
    }
}

static void share_step(G *g) {
    while (S[O_PHASE] == P_SHARING && !g->err) {
        int seat = S[O_SHARE + 2], f = S[O_SHARE + 1], kinds[4], nk = 0;
        for (int stone = 0; stone < 4; stone++)
            if (FIELD(f, stone)) kinds[nk++] = stone;
        take_stone(g, seat, f, kinds[below(g, &g->r[seat], nk)]);
        S[O_VERSION]++;
        go(g, share_on(g));
    }
}

static void keep_beside_if_full(G *g, int seat) { /* R6.5 */
    if (S[CARRY(seat)] && castle_stones(g, seat) >= CASTLE_FULL) {
        for (int i = 0; i < S[CARRY(seat)]; i++)
            push(g, BESIDE(seat), STONE_CAP, S[CARRY(seat) + 1 + i]);
        S[CARRY(seat)] = 0;
    }
}

static int finish_building(G *g) { /* R6.4, R7.4 */
    for (int s = 0; s < NP; s++) {
        if (castle_stones(g, s) >= CASTLE_FULL) {
            S[O_RESULT] = 1;
            return P_OVER;
        }
    }
    if (S[O_ROUND] >= S[O_MAX_ROUNDS]) {
        S[O_RESULT] = 2;
        return P_OVER;
    }
    for (int i = 0; i < 6 * SITES; i++) S[O_FRESH + i] = 0;
    return P_ROUND_END;
}

static void confirm(G *g, int seat) {
    S[O_DONE + seat] = 1;
    for (int s = 0; s < NP; s++)
        if (!S[O_DONE + s]) return;
    go(g, finish_building(g));
}

static void put_stone(G *g, int seat, int stone, int site) {
    remove_first(g, CARRY(seat), stone);
    push(g, STACK(seat, site), STACK_MAX, stone);
    FRESH(seat, site)++;
}

static void auto_build(G *g, int seat) { /* D9: best stones first, each on the lowest stack */
    int heights[SITES], stones[STONE_CAP], count = 0;
    for (int i = 0; i < SITES; i++) heights[i] = S[STACK(seat, i)];
    for (int stone = 3; stone >= 0; stone--)
        for (int i = 0; i < S[CARRY(seat)]; i++)
            if (S[CARRY(seat) + 1 + i] == stone) stones[count++] = stone;
    for (int i = 0; i < count && !g->err; i++) {
        int site = 0;
        for (int j = 1; j < SITES; j++)
            if (heights[j] < heights[site]) site = j;
        if (heights[site] >= STACK_MAX) break;
        heights[site]++;
        put_stone(g, seat, stones[i], site);
    }
    keep_beside_if_full(g, seat);
    confirm(g, seat);
}

static void build_step(G *g) {
    int seat = 0;
    while (S[O_DONE + seat]) seat++;
    uint64_t *rng = &g->r[seat];
    while (!S[O_DONE + seat] && !g->err) {
        S[O_VERSION]++;
        int carry = CARRY(seat);
        if (!S[carry]) {
            skip(rng);
            confirm(g, seat);
            return;
        }
        int kinds[4], nk = 0, sites[SITES], ns = 0;
        for (int stone = 0; stone < 4; stone++) {
            for (int i = 0; i < S[carry]; i++) {
                if (S[carry + 1 + i] == stone) {
                    kinds[nk++] = stone;
                    break;
                }
            }
        }
        for (int i = 0; i < SITES; i++)
            if (S[STACK(seat, i)] < STACK_MAX) sites[ns++] = i;
        int choices = nk * ns, k = below(g, rng, choices + 1);
        if (k == choices) {
            auto_build(g, seat);
            return;
        }
        put_stone(g, seat, kinds[k / ns], sites[k % ns]);
        keep_beside_if_full(g, seat);
    }
}

/* -- planning, the reveal, the round (planning.py, materials.py) ---------------------------- */

static int destinations(G *g, int seat, int *out) { /* R3.1, in the planning board's order */
    int count = 0;
    for (int f = 0; f < NFIELDS; f++) out[count++] = f;
    for (int owner = 0; owner < NP; owner++)
        if (owner != seat)
            for (int side = 0; side < 3; side++) out[count++] = SIEGE(owner, side);
    out[count++] = CASTLE(seat);
    return count;
}

static void plan_step(G *g) {
    int seat = 0;
    while (S[O_COMMITTED + seat]) seat++;
    uint64_t *rng = &g->r[seat];
    int free = S[O_HOME + seat];
    for (int key = 0; key < NKEYS; key++) free -= PLAN(seat, key);
    if (free > 0) {
        int all[NKEYS], dests[NKEYS], nd = 0, na = destinations(g, seat, all);
        for (int i = 0; i < na; i++) { /* one viking per siege field; the rest may stack */
            int key = all[i];
            if (!(key >= 7 && key < 25 && PLAN(seat, key))) dests[nd++] = key;
        }
        for (int v = 0; v < free; v++) {
            int k = below(g, rng, nd), key = dests[k];
            PLAN(seat, key)++;
            if (key >= 7 && key < 25) {
                for (int j = k; j < nd - 1; j++) dests[j] = dests[j + 1];
                nd--;
            }
        }
        S[O_VERSION] += free;
    }
    skip(rng); /* the random bot draws even from one choice */
    S[O_COMMITTED + seat] = 1;
    S[O_VERSION]++;
    for (int s = 0; s < NP; s++)
        if (!S[O_COMMITTED + s]) return;
    go(g, P_REVEAL);
}

static void reveal(G *g) { /* R4.1 */
    for (int s = 0; s < NP; s++) {
        for (int key = 0; key < NKEYS; key++) {
            int count = PLAN(s, key);
            if (count) {
                BOARD(key, s) += count;
                S[O_HOME + s] -= count;
            }
        }
    }
    S[O_REVEALED] = 1;
    S[O_TURN] = S[O_START];
    go(g, P_PICK);
}

static int enter_materials(G *g) { /* R2, D2: the next material card of the house deck */
    if (S[O_DECK] == 0) {
        g->err = E_STATE;
        return P_NONE;
    }
    int card = S[O_DECK + S[O_DECK]];
    S[O_DECK]--;
    if (card < 0 || card >= g->ncards) {
        g->err = E_STATE;
        return P_NONE;
    }
    const int32_t *c = g->cards + card * CARD_INTS;
    S[O_CARD] = card;
    for (int e = 0; e < c[0]; e++) {
        int f = c[1 + 4 * e], stone = c[2 + 4 * e];
        int want = c[3 + 4 * e] + (NP >= 5 ? c[4 + 4 * e] : 0); /* R2.1 */
        int got = want < S[O_SUPPLY + stone] ? want : S[O_SUPPLY + stone];
        S[O_SUPPLY + stone] -= got;
        FIELD(f, stone) += got;
        S[O_CARD_GOT + e] = got;
    }
    return P_PLANNING;
}

static int enter(G *g, int phase) {
    int n = NP;
    switch (phase) {
    case P_PLANNING: { /* R3.2: a player with every viking in the hospital is done */
        int all = 1;
        for (int i = 0; i < 6 * NKEYS; i++) S[O_PLANS + i] = 0;
        for (int s = 0; s < n; s++) {
            S[O_COMMITTED + s] = S[O_HOME + s] == 0;
            all &= S[O_COMMITTED + s];
        }
        S[O_REVEALED] = 0;
        S[O_LAST] = 0;
        S[O_SIEGES] = 0;
        return all ? P_REVEAL : P_NONE;
    }
    case P_PICK: {
        int turn = S[O_TURN];
        for (int k = 0; k < n; k++) {
            int seat = (turn + k) % n;
            if (has_fight(g, seat)) {
                S[O_TURN] = seat;
                return P_NONE;
            }
        }
        return P_SHARING;
    }
    case P_SHARING:
        S[O_SHARE] = 0;
        return share_on(g);
    case P_BUILDING: { /* R6.1: every viking on the board goes home */
        int all = 1;
        S[O_SHARE] = 0;
        for (int key = 0; key < NKEYS; key++) {
            for (int s = 0; s < n; s++) {
                S[O_HOME + s] += BOARD(key, s);
                BOARD(key, s) = 0;
            }
        }
        for (int i = 0; i < 6 * SITES; i++) S[O_FRESH + i] = 0;
        for (int s = 0; s < n; s++) {
            keep_beside_if_full(g, s);
            S[O_DONE + s] = S[CARRY(s)] == 0;
            all &= S[O_DONE + s];
        }
        return all ? finish_building(g) : P_NONE;
    }
    case P_ROUND_END: /* R7.1-R7.3 */
        for (int s = 0; s < n; s++) {
            int big = HOSP(s, 0), small = HOSP(s, 1), tie = HOSP(s, 2);
            S[O_HOME + s] += tie;
            HOSP(s, 0) = 0, HOSP(s, 1) = big, HOSP(s, 2) = small;
        }
        for (int f = 0; f < NFIELDS; f++) {
            for (int stone = 0; stone < 2; stone++) {
                S[O_SUPPLY + stone] += FIELD(f, stone);
                FIELD(f, stone) = 0;
            }
        }
        S[O_START] = (S[O_START] + 1) % n;
        return P_NONE;
    default:
        return P_NONE;
    }
}

/* Play up to ``steps`` whole steps (or to the end: steps < 0); return the steps played, or
 * E_STATE for a state this engine does not play (nothing the caller holds has changed then). */
int eketorp_playout(int32_t *s, uint64_t *rngs, const int32_t *cards, int ncards, int steps) {
    G game = {s, rngs, cards, ncards, 0};
    G *g = &game;
    int played = 0;
    if (NP < 3 || NP > 6) return E_STATE;
    while (S[O_PHASE] != P_OVER && played != steps) {
        switch (S[O_PHASE]) {
        case P_PLANNING:
            plan_step(g);
            break;
        case P_REVEAL:
            reveal(g);
            S[O_VERSION]++;
            break;
        case P_PICK:
            fights_step(g);
            break;
        case P_SHARING:
            share_step(g);
            break;
        case P_BUILDING:
            build_step(g);
            break;
        case P_ROUND_END: /* the table's next round */
            S[O_ROUND]++;
            S[O_CARD] = -2; /* None until the card is turned */
            go(g, enter_materials(g));
            S[O_VERSION]++;
            break;
        default:
            return E_STATE;
        }
        if (g->err) return g->err;
        played++;
    }
    return played;
}
