/* Eketorp's random play-out in C, the fights (eketorp/fights.py): compiled after state.c and
 * before playout.c, as one file (see state.c). */

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
