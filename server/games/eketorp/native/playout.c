/* Eketorp's random play-out in C, the rest of a round and the entry point: compiled after
 * state.c and fights.c, as one file (see state.c). */

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
