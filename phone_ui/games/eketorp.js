// Eketorp on the phone: each player's private board (it replaces the cardboard screen) and hand.
// Loaded by the phone's shell (phone_ui/phone.js) only when the table plays Eketorp; it draws
// every screen of the game from the latest message, so a reconnect redraws it exactly.

import { errorText, h, icon, seatBadge, styleSheet, t } from "/static/common.js";
import {
  FIELDS, SIDES, SIDE_SITES, STONES, STONE_VALUE, endReason, errorWords, logLine, placeName, stoneChip, stoneCounts,
} from "/static/games/eketorp.js";
import {
  act, actionButton, caughtUp, finalScores, legalHas, me, msg, name, online, openSheet, present, render,
  seats, send, showToast, strip, tableStep, ui, waiting, waitingFor,
} from "../page.js";

// Eketorp's own look on the phone (the shell's phone.css holds what every game shares). The
// module is ready only once its style sheet is, so its first screen is never drawn unstyled.
await styleSheet(new URL("./eketorp.css", import.meta.url).href);

// what this game's screens remember between redraws (the shell's ui holds the rest)
const local = {
  selected: null, // building: the carried stone picked to place
  move: null, // planning: a viking being moved, {from} (picked up) or {to} (which one goes there?)
  loot: null, // loot: {key, depth: {site: stones taken from its top}}
  queued: null, // a fight: the card chosen while still asked to swap, {fight, card}: put down next
};

/** Which fight this is (a queued card belongs to it and to no later one). */
function fightKey(pub) {
  const f = pub.fight;
  return f ? `${pub.round}:${f.field}:${f.a}:${f.b}` : null;
}

function cardFace(value, attrs = {}) {
  return h("span", { class: `card card-${value} ${attrs.class || ""}` }, String(value));
}


function carried() {
  const g = msg && msg.game;
  if (!g || me() === null || !g.public.seats[me()]) return [];
  return g.public.seats[me()].carry;
}

const SCORE_VALUE = { amulets: 1, ...STONE_VALUE };

/** One row per category: what it is, how many (times what they are worth), the points. */
function scoreRows(score, withTotal = true) {
  return h("table", { class: "score-rows" }, h("tbody", {},
    ["amulets", ...STONES, "complete"].map((c) => {
      const { count, points } = score.breakdown[c];
      const what = c === "amulets" ? icon("amulet") : STONES.includes(c) ? stoneChip(c) : icon("shield");
      const how = c === "complete" ? (count ? "✓" : "—") : `${count} × ${SCORE_VALUE[c]}`;
      return h("tr", { "data-category": c }, h("th", {}, what, " ", t(`score.${c}`)), h("td", { class: "count" }, how), h("td", { class: "points" }, String(points)));
    }),
    withTotal ? h("tr", { class: "sum" }, h("th", {}, t("score.total")), h("td", {}), h("td", { class: "points" }, String(score.total))) : null));
}


// -- the game ------------------------------------------------------------------------------------

function screen(g) {
  const pub = g.public;
  const view = PHASES[pub.phase];
  const parts = [view ? view(g) : h("p", {}, t(`phase.${pub.phase}`))];
  if (pub.last_fight && ["pick", "swap", "choose", "loot", "sharing", "building"].includes(pub.phase)) {
    parts.push(lastFight(pub.last_fight));
  }
  return parts;
}

function roundBar(pub) {
  return h("div", { class: "roundbar" },
    h("span", {}, t("game.round", { round: pub.round, max: pub.max_rounds })),
    h("strong", {}, t(`phase.${pub.phase}`)),
    h("span", {}, t("game.start_player", { name: name(pub.start_player) })));
}

function materialsView(g) {
  const pub = g.public;
  if (pub.active.includes(me())) return cardEntry(g, (action) => act(action));
  return h("div", {},
    waiting(t("materials.wait", { name: name(pub.start_player) })),
    msg.you.host && !present(pub.start_player) ? hostCardEntry(g) : null);
}

function hostCardEntry(g) {
  const start = g.public.start_player;
  return h("section", { class: "panel" },
    h("p", {}, t(seats()[start].kind === "bot" ? "materials.host_enters" : "materials.host_enters_away", { name: name(start) })),
    cardEntry(g, (action) => send("proxy", { seat: start, action: strip(action) }), true));
}

function cardEntry(g, run, proxy = false) {
  const draft = g.public.material.draft;
  const grid = h("div", { class: "card-entry" });
  for (const field of FIELDS) {
    const entry = draft[field];
    const row = h("div", { class: "entry-row", "data-field": field }, h("strong", { class: "entry-field" }, field));
    for (const stone of STONES) {
      const action = { type: "card_add", field, stone };
      row.append(h("button", {
        class: `entry-add ${entry && entry[0] === stone ? "chosen" : ""}`, disabled: ui.pending || (entry && entry[0] !== stone),
        "aria-label": t("materials.add", { stone: t(`stone.${stone}`), field }),
        "data-action": proxy ? null : JSON.stringify(action), onclick: () => run(action) }, stoneChip(stone)));
    }
    row.append(h("span", { class: "entry-count" }, entry ? [`${entry[1]} × `, stoneChip(entry[0])] : "—"));
    row.append(h("button", { class: "small entry-remove", disabled: ui.pending || !entry, "aria-label": t("materials.remove", { field }),
      onclick: () => run({ type: "card_remove", field }) }, "−"));
    grid.append(row);
  }
  return h("section", { class: "panel" },
    h("h2", {}, t("materials.title")),
    h("p", { class: "muted" }, t("materials.intro")),
    grid,
    h("button", { class: "primary wide", disabled: ui.pending,
      "data-action": proxy ? null : JSON.stringify({ type: "card_done" }),
      onclick: () => run({ type: "card_done" }) }, t("materials.done")));
}

// planning: the secret planning board (the printed game's planbord behind its screen)
function planningView(g) {
  const pub = g.public;
  const mine = pub.seats[me()];
  const plan = g.private.plan;
  const hospital = mine.hospital.reduce((a, b) => a + b, 0);
  if (pub.phase === "reveal") {
    return h("section", { class: "panel" },
      h("h2", {}, t("planning.all_committed")),
      h("p", {}, t("planning.reveal_intro")),
      h("button", { class: "primary wide", id: "reveal", disabled: ui.pending, "data-table": "reveal", onclick: () => tableStep("reveal") }, t("planning.reveal")),
      planSummary(plan));
  }
  if (mine.committed) {
    const waitingNames = pub.active.map(name).join(", ");
    return h("section", { class: "panel" },
      h("h2", {}, t("planning.committed")),
      h("p", {}, t("planning.waiting", { names: waitingNames })),
      planSummary(plan),
      legalHas("uncommit") ? actionButton(t("planning.uncommit"), { type: "uncommit" }, { class: "wide" }) : null);
  }
  const free = g.private.unplanned;
  const move = local.move;
  if (move && move.from && !plan[move.from]) local.move = null;
  let status;
  if (local.move) {
    const text = local.move.from
      ? t("planning.moving", { place: placeName(local.move.from, seats()) })
      : t("planning.moving_to", { place: placeName(local.move.to, seats()) });
    status = h("p", { class: "plan-status moving", role: "status" }, h("span", {}, text),
      h("button", { class: "small", id: "cancel-move", onclick: () => { local.move = null; render(); } }, t("planning.cancel")));
  } else {
    status = h("p", { class: "plan-status", role: "status" },
      free > 0 ? t("planning.left", { free, total: mine.home }) : t("planning.move_help"));
  }
  const canCommit = free === 0 && Boolean(legalHas("commit"));
  // only this stays on screen while scrolling: the vikings, the commit button, one line
  const head = h("section", { class: "panel sticky plan-head" },
    h("div", { class: "plan-head-row" },
      h("div", { class: "vikings", "aria-label": t("planning.left", { free, total: mine.home }) },
        Array.from({ length: mine.home }, (_, i) => h("span", { class: `viking ${i < free ? "free" : "placed"}` }, icon("viking"))),
        Array.from({ length: hospital }, () => h("span", { class: "viking hurt", title: t("planning.in_hospital_one") }, icon("viking")))),
      // the legal actions decide, not the count: while a bot stands in, its half-done plan is no
      // plan this phone may commit
      h("button", { class: "primary", id: "commit", disabled: ui.pending || !canCommit, "data-action": canCommit ? JSON.stringify({ type: "commit" }) : null, onclick: () => act({ type: "commit" }) },
        t("planning.commit"))),
    status);
  const fields = h("div", { class: "grid fields" });
  for (const field of FIELDS) fields.append(destination(g, field, plan));
  const castles = [];
  pub.seats.forEach((s, owner) => {
    if (owner === me()) return;
    const row = h("div", { class: "siege-row" });
    for (const side of SIDES) row.append(destination(g, `siege:${owner}:${side}`, plan));
    castles.push(h("div", { class: "castle-target" }, h("h3", {}, t("planning.castle_of", { name: name(owner) })), row));
  });
  return h("div", {}, head,
    hospital ? h("p", { class: "muted small-text note" }, t("planning.in_hospital", { n: hospital })) : null,
    h("section", { class: "panel" }, h("h2", {}, t("planning.fields")), stoneLegend(), fields),
    h("section", { class: "panel" }, h("h2", {}, t("planning.sieges")), h("p", { class: "muted small-text" }, t("planning.siege_help")), castles),
    h("section", { class: "panel" }, h("h2", {}, t("planning.defend")), destination(g, "castle", plan)));
}

/** What each stone is worth, once, where the stones are first seen. */
function stoneLegend() {
  return h("p", { class: "legend small-text" }, t("help.stones"), " ",
    STONES.map((s) => h("span", { class: "legend-item" }, stoneChip(s), " ", t(`stone.${s}`))));
}

/** Whether one of the player's placed vikings could stand on ``dest`` instead (R3.1). */
function canMoveTo(dest, plan) {
  return !(dest.startsWith("siege:") && plan[dest]);
}

function destination(g, dest, plan) {
  const pub = g.public;
  const count = plan[dest] || 0;
  const free = g.private.unplanned;
  const move = local.move;
  const canPlace = !move && legalHas("place", { to: dest });
  const canTakeBack = Boolean(legalHas("unplace", { from: dest }));
  // while moving: the places it can go to (from a viking), or the vikings that can go (to a place)
  const target = move && (move.from ? move.from !== dest && canMoveTo(dest, plan) : count > 0 && dest !== move.to);
  const pickable = !move && free === 0 && count > 0; // all placed: a tap picks this one up
  let detail = null;
  let empty = false;
  if (FIELDS.includes(dest)) {
    const stones = pub.fields[dest];
    empty = STONES.every((s) => !stones[s]);
    detail = h("span", { class: "chips" }, stoneCounts(stones));
  } else if (dest.startsWith("siege:")) {
    const [, owner, side] = dest.split(":");
    const castle = pub.seats[Number(owner)].castle;
    empty = SIDE_SITES[side].every((site) => castle[site - 1].length === 0);
    detail = empty ? null : sitePair(castle, side);
  } else if (dest === "castle") {
    // what defending protects: the player's own stacks, under the siege field attacking each pair
    detail = ownCastle(pub.seats[me()].castle);
  }
  const label = dest === "castle" ? t("planning.castle") : FIELDS.includes(dest) ? dest : t(`side.${dest.split(":")[2]}`);
  const live = canPlace || target || pickable || (!move && free === 0);
  const classes = ["dest", count ? "has" : "", move && move.from === dest ? "from" : "", move && move.to === dest ? "to" : "",
    target ? "target" : "", live ? "" : "blocked", empty && dest !== "castle" ? "empty" : ""];
  return h("div", { class: classes.filter(Boolean).join(" "), "data-place": dest },
    h("button", {
      class: "dest-main",
      disabled: ui.pending || !online,
      "aria-disabled": live ? "false" : "true",
      "data-action": canPlace ? JSON.stringify({ type: "place", to: dest }) : null,
      "data-dest": dest,
      onclick: () => tapDestination(dest),
    }, h("strong", {}, label), detail,
      empty && dest !== "castle" ? h("span", { class: "hint-text" }, t("planning.nothing_to_win")) : null),
    count ? h("span", { class: "dest-side" },
      h("button", {
        class: `dest-count ${move && move.from === dest ? "chosen" : ""}`, disabled: ui.pending || !canTakeBack,
        "aria-pressed": move && move.from === dest ? "true" : "false", "aria-label": t("planning.move_from_here"),
        onclick: () => { local.move = move && move.from === dest ? null : { from: dest }; render(); },
      }, icon("viking"), `×${count}`),
      h("button", { class: "small take-back", disabled: ui.pending || !canTakeBack, "aria-label": t("planning.take_back"), onclick: () => act({ type: "unplace", from: dest }) }, "−"))
      : null);
}

/** A tap on a place of the planning board: place a viking, or move one there. */
function tapDestination(dest) {
  const g = msg.game;
  const plan = g.private.plan;
  const move = local.move;
  if (move && move.from) {
    if (move.from === dest) local.move = null;
    else moveViking(move.from, dest);
  } else if (move && move.to) {
    if (plan[dest] && dest !== move.to) moveViking(dest, move.to);
    else local.move = dest === move.to ? null : { to: dest };
  } else if (g.private.unplanned > 0) {
    act({ type: "place", to: dest });
    return;
  } else if (plan[dest]) {
    local.move = { from: dest }; // every viking is placed: this one is picked up
  } else {
    const sources = Object.keys(plan);
    if (sources.length === 1) moveViking(sources[0], dest); // only one place to take it from
    else local.move = { to: dest }; // ask which one
  }
  render();
}

/** Move one viking: take it back from one place and put it on another (two steps of the plan). */
async function moveViking(from, to) {
  local.move = null;
  if (!canMoveTo(to, msg.game.private.plan)) {
    showToast(errorText({ code: "siege_field_taken", message: "", params: {} }), "error");
    return;
  }
  const first = await act({ type: "unplace", from });
  if (!first || !first.ok) return;
  await caughtUp(first.version);
  const second = await act({ type: "place", to });
  if (second && !second.ok) { // refused (its reason is shown): the viking goes back where it was
    await caughtUp(second.version);
    await act({ type: "place", to: from }, { keepError: true });
  }
}

function planSummary(plan) {
  const entries = Object.entries(plan);
  if (!entries.length) return null;
  return h("ul", { class: "plan" }, entries.map(([dest, n]) => h("li", {}, `${placeName(dest, seats())}: ${n}`)));
}

/** One building site: its stack of stones (bottom first) over its number. */
function siteStack(stack, site, chip = (stone) => stoneChip(stone)) {
  return h("span", { class: "site", "data-site": site },
    h("span", { class: "stack" }, stack.length ? stack.map((stone, level) => chip(stone, level)) : h("span", { class: "stone none" }, "·")),
    h("span", { class: "site-no" }, site));
}

/** The two building sites a siege field touches (D3). */
function sitePair(castle, side) {
  return h("span", { class: "site-pair" }, SIDE_SITES[side].map((site) => siteStack(castle[site - 1], site)));
}

/** A castle's six sites in pairs, each under its siege field's picture and name (D3). */
function ownCastle(castle) {
  return h("span", { class: "own-castle" }, SIDES.map((side) => h("span", { class: "own-side", "data-side": side },
    h("span", { class: "side-label" }, icon(side), " ", t(`side.${side}`)),
    sitePair(castle, side))));
}

function castleMini(stacks, owner) {
  return h("div", { class: "castle-mini", "aria-label": t("planning.castle_of", { name: name(owner) }) },
    stacks.map((stack, i) => siteStack(stack, i + 1)));
}

// fights
function pickView(g) {
  const pub = g.public;
  if (pub.turn !== me()) return waiting(t("fight.wait_pick", { name: name(pub.turn) }));
  // one block per place, with what can be won there, then whom to fight
  const places = new Map();
  for (const a of g.legal) {
    if (a.type !== "fight" && a.type !== "siege") continue;
    if (!places.has(a.field)) places.set(a.field, []);
    places.get(a.field).push(a);
  }
  return h("section", { class: "panel" },
    h("h2", {}, t("fight.your_pick")),
    [...places].map(([field, options]) => h("div", { class: "fight-place", "data-field": field },
      h("h3", { class: "capital" }, placeName(field, seats())),
      atStake(pub, field, options),
      h("div", { class: "options" }, options.map((a) => {
        let label;
        if (a.type === "siege") {
          const owner = Number(field.split(":")[1]);
          const defended = (pub.board[`castle:${owner}`] || [])[owner];
          label = t(defended ? "fight.siege_option" : "fight.siege_undefended_option", { name: name(owner), side: t(`side.${field.split(":")[2]}`) });
        } else {
          label = t("fight.against", { name: name(a.opponent) });
        }
        return actionButton(label, a, { class: "option" });
      })))));
}

/** What a fight or siege there can win: the stones on a field, or what the castle's two
 * building sites next to a siege field could lose. */
function atStake(pub, field, options) {
  if (FIELDS.includes(field)) {
    const stones = pub.fields[field];
    const vikings = (pub.board[field] || []).reduce((a, b) => a + b, 0);
    if (STONES.every((s) => !stones[s])) return h("p", { class: "stake none" }, t("fight.nothing_at_stake"));
    return h("p", { class: "stake" }, t("fight.field_stake", { vikings }), " ", h("span", { class: "chips" }, stoneCounts(stones)));
  }
  const [, owner, side] = field.split(":");
  const castle = pub.seats[Number(owner)].castle;
  const [a, b] = SIDE_SITES[side];
  if (!castle[a - 1].length && !castle[b - 1].length) return h("p", { class: "stake none" }, t("fight.nothing_at_stake_castle"));
  const siege = options.some((o) => o.type === "siege");
  return h("div", { class: "stake" },
    h("p", {}, t(siege ? "fight.siege_stake" : "fight.siege_field_stake", { a, b, name: name(Number(owner)) })),
    sitePair(castle, side));
}

function fightHeader(pub) {
  const f = pub.fight;
  const where = f.kind === "siege"
    ? t("fight.siege_title", { a: name(f.a), b: name(f.b), side: t(`side.${f.field.split(":")[2]}`) })
    : t("fight.fight_title", { a: name(f.a), b: name(f.b), place: placeName(f.field, seats()) });
  return h("h2", {}, where);
}

function handView(hand, playable, extra = "", choose = null) {
  return h("div", { class: `hand ${extra}` }, hand.map((value) => {
    const action = { type: "play", card: value };
    return playable
      ? h("button", { class: "card-button", disabled: ui.pending || !online, "data-action": JSON.stringify(action),
        onclick: () => (choose ? choose(value) : act(action)) }, cardFace(value))
      : cardFace(value);
  }));
}

/** After a swap with amulets, the new hand, said plainly (and what it cost). */
function swappedNote(g) {
  const f = g.public.fight;
  const index = [f.a, f.b].indexOf(me());
  if (index < 0 || !f.swaps[index]) return null;
  const spent = f.swaps[index] * g.private.hand.length; // D11: the hand keeps its size
  return h("p", { class: "swapped", role: "status" }, t("fight.swapped", { n: spent }));
}

function swapView(g) {
  const pub = g.public;
  const f = pub.fight;
  const hand = g.private.hand;
  const fighting = [f.a, f.b].includes(me());
  if (f.swapper !== me()) {
    return h("section", { class: "panel" }, fightHeader(pub), h("p", {}, t("fight.wait_swap", { name: name(f.swapper) })),
      fighting ? [swappedNote(g) || h("p", { class: "label" }, t("fight.your_hand")), handView(hand, false, swappedNote(g) ? "new" : "")] : null);
  }
  // the card choice screen itself: a card tapped keeps the hand and goes down as soon as the
  // cards are chosen (no tap of its own for "keep my hand"); or swap the hand first
  const amulets = pub.seats[me()].amulets;
  const note = swappedNote(g);
  const choose = (card) => {
    local.queued = { fight: fightKey(pub), card };
    act({ type: "keep" });
  };
  return h("section", { class: "panel" },
    fightHeader(pub),
    note,
    h("p", {}, t("fight.choose_or_swap")),
    handView(hand, true, note ? "new" : "", choose),
    h("p", { class: "cost" }, t("fight.swap_cost", { n: hand.length, amulets })),
    h("div", { class: "button-row" },
      actionButton(t("fight.swap", { n: hand.length }), { type: "swap" }, { class: "option" })),
    h("p", { class: "muted small-text" }, t("fight.swap_note")));
}

function chooseView(g) {
  const pub = g.public;
  const f = pub.fight;
  const fighters = [f.a, f.b];
  if (!fighters.includes(me())) {
    return h("section", { class: "panel" }, fightHeader(pub), h("p", {}, t("fight.they_choose", { a: name(f.a), b: name(f.b) })));
  }
  const played = g.private.played;
  const other = me() === f.a ? f.b : f.a;
  if (played !== null) {
    // until the other card is down, a slip of the finger can be undone
    return h("section", { class: "panel" }, fightHeader(pub),
      h("p", {}, t("fight.you_played", { name: name(other) })), cardFace(played, { class: "big" }),
      legalHas("take_back") ? actionButton(t("fight.take_back"), { type: "take_back" }, { class: "wide", id: "take-back" }) : null);
  }
  const queued = local.queued;
  if (queued && queued.fight === fightKey(pub) && legalHas("play", { card: queued.card })) {
    local.queued = null; // chosen on the swap screen: it goes down now, once
    setTimeout(() => act({ type: "play", card: queued.card }), 0);
  }
  const undefended = f.kind === "siege" && me() === f.b && !f.defended;
  const note = swappedNote(g);
  return h("section", { class: "panel" }, fightHeader(pub),
    note,
    h("p", {}, undefended ? t("fight.choose_undefended") : t("fight.choose")),
    handView(g.private.hand, true, note ? "new" : ""));
}

// loot: tap stones from the top of the two sites down, then choose the one to keep
function lootView(g) {
  const pub = g.public;
  const f = pub.fight;
  const last = pub.last_fight;
  if (f.a !== me()) return h("section", { class: "panel" }, h("p", {}, t("loot.wait", { name: name(f.a) })));
  const owner = Number(f.field.split(":")[1]);
  const side = f.field.split(":")[2];
  const castle = pub.seats[owner].castle;
  const sites = SIDE_SITES[side];
  const options = g.legal.filter((a) => a.type === "loot");
  const key = JSON.stringify([f.field, last.damage, sites.map((site) => castle[site - 1])]);
  if (!local.loot || local.loot.key !== key) local.loot = { key, depth: Object.fromEntries(sites.map((site) => [site, 0])) };
  const depth = local.loot.depth;
  // the stones a choice of depths removes, as the engine names them: [site, level], top first
  const takeFor = (d) => sites.flatMap((site) => {
    const height = castle[site - 1].length;
    return Array.from({ length: d[site] }, (_, i) => [site, height - 1 - i]);
  });
  const sameTake = (a, take) => JSON.stringify(a.take) === JSON.stringify(take);
  const allowed = (d) => options.some((a) => sameTake(a, takeFor(d)));
  const take = takeFor(depth);
  const removed = take.map(([site, level]) => castle[site - 1][level]);
  const value = removed.reduce((sum, stone) => sum + STONE_VALUE[stone], 0);
  const keeps = options.filter((a) => sameTake(a, take));
  const tapStone = (site, level) => {
    const height = castle[site - 1].length;
    const wanted = height - level; // this stone and every stone above it
    const next = { ...depth, [site]: depth[site] === wanted ? wanted - 1 : wanted };
    if (next[site] === 0 && Object.values(next).every((n) => n === 0)) local.loot.depth = next;
    else if (allowed(next)) local.loot.depth = next;
    else {
      // D13: never a third stone; else the stones would be worth more than the damage
      const count = Object.values(next).reduce((sum, n) => sum + n, 0);
      showToast(count > 2 ? t("loot.too_many") : t("loot.too_much", { damage: last.damage }), "error");
      return;
    }
    render();
  };
  const stacks = h("div", { class: "loot-sites" }, sites.map((site) => {
    const stack = castle[site - 1];
    return h("div", { class: "loot-site" },
      h("p", { class: "label" }, t("loot.site", { site })),
      siteStack(stack, site, (stone, level) => {
        const taken = level >= stack.length - depth[site];
        const reachable = taken || allowed({ ...depth, [site]: stack.length - level });
        return h("button", {
          class: `stone-button ${taken ? "taken" : ""}`, disabled: ui.pending || !reachable, "aria-pressed": taken ? "true" : "false",
          "data-site": site, "data-level": level, "aria-label": `${t(`stone.${stone}`)} (${STONE_VALUE[stone]}), ${t("loot.site", { site })}`,
          onclick: () => tapStone(site, level),
        }, stoneChip(stone));
      }));
  }));
  return h("section", { class: "panel loot" },
    h("h2", {}, t("loot.title", { damage: last.damage })),
    h("p", {}, t("loot.intro", { damage: last.damage, name: name(owner) })),
    h("p", { class: "muted small-text" }, t("loot.tap_stones")),
    stacks,
    h("p", { class: "loot-sum", role: "status" }, take.length
      ? [t("loot.removing", { value, damage: last.damage }), " ", removed.map((stone) => stoneChip(stone))]
      : t("loot.none_yet")),
    keeps.length ? h("p", { class: "label" }, t("loot.keep_which")) : null,
    h("div", { class: "options row" }, keeps.map((a) => actionButton(
      h("span", {}, stoneChip(a.keep), " ", t("loot.keep_stone", { stone: t(`stone.${a.keep}`) })), a, { class: "option keep" }))),
    actionButton(t("loot.nothing"), { type: "skip_loot" }, { class: take.length ? "" : "primary" }));
}

function sharingView(g) {
  const pub = g.public;
  const share = pub.sharing;
  if (share.turn !== me()) return waiting(t("share.wait", { name: name(share.turn), field: share.field }));
  return h("section", { class: "panel" },
    h("h2", {}, t("share.title", { field: share.field })),
    h("p", {}, t("share.intro")),
    h("div", { class: "options row" }, g.legal.filter((a) => a.type === "take").map((a) =>
      actionButton(h("span", {}, stoneChip(a.stone), " ", t(`stone.${a.stone}`), ` (${STONE_VALUE[a.stone]})`), a, { class: "option" }))));
}

function buildingView(g) {
  const pub = g.public;
  const mine = pub.seats[me()];
  if (mine.built) {
    return h("div", {}, waitingFor(pub, "build.wait"), hostBuildFor(g));
  }
  const proposal = g.private.proposal;
  const carry = mine.carry;
  const chips = h("div", { class: "carry" }, carry.map((stone, i) =>
    h("button", { class: `stone-button ${local.selected === stone ? "chosen" : ""}`, "aria-pressed": local.selected === stone ? "true" : "false",
      onclick: () => { local.selected = local.selected === stone ? null : stone; render(); }, "data-index": i }, stoneChip(stone))));
  // the siege field above the two sites it attacks, as on the board (D3)
  const sides = SIDES.map((side) => h("span", { class: "build-side", "data-side": side }, icon(side), " ", t(`side.${side}`)));
  const sites = h("div", { class: "castle-build" }, sides, mine.castle.map((stack, i) => {
    const site = i + 1;
    const proposed = proposal.filter(([, s]) => s === site).map(([stone]) => stone);
    const canBuild = local.selected && legalHas("build", { stone: local.selected, site });
    return h("div", { class: `site big ${canBuild ? "target" : ""}` },
      h("button", {
        class: "site-button", disabled: ui.pending || !local.selected,
        "aria-label": t("build.site", { site }),
        "data-action": canBuild ? JSON.stringify({ type: "build", stone: local.selected, site }) : null,
        onclick: () => act({ type: "build", stone: local.selected, site }),
      },
      h("div", { class: "stack" },
        stack.map((stone, level) => stoneChip(stone, level >= stack.length - mine.fresh[i] ? "fresh" : "")),
        proposed.map((stone) => stoneChip(stone, "ghost")))),
      mine.fresh[i] ? h("button", { class: "small", disabled: ui.pending, "aria-label": t("build.take_back"), onclick: () => act({ type: "unbuild", site }) }, "↶") : null,
      h("span", { class: "site-no" }, site));
  }));
  return h("div", {}, h("section", { class: "panel" },
    h("h2", {}, t("build.title")),
    carry.length ? h("p", {}, t("build.intro")) : h("p", {}, t("build.all_placed")),
    chips, sites,
    h("div", { class: "button-row" },
      carry.length ? actionButton(t("build.as_proposed"), { type: "auto_build" }, { class: "primary" }) : null,
      !carry.length ? actionButton(t("build.done"), { type: "done" }, { class: "primary" }) : null)),
    hostBuildFor(g));
}

function hostBuildFor(g) {
  if (!msg.you.host) return null;
  const pub = g.public;
  // bots build by themselves; only a player whose phone is gone needs the host
  const absent = pub.active.filter((s) => s !== me() && seats()[s].kind === "human" && !seats()[s].bot && !present(s));
  if (!absent.length) return null;
  return h("section", { class: "panel" }, h("p", { class: "muted" }, t("build.host_help")),
    absent.map((s) => h("button", { disabled: ui.pending, onclick: () => send("proxy", { seat: s, action: { type: "auto_build" } }) }, t("build.for", { name: name(s) }))));
}

function roundEndView(g) {
  const pub = g.public;
  const event = [...pub.log].reverse().find((e) => e.e === "round_end");
  const healed = event ? event.healed.reduce((a, b) => a + b, 0) : 0;
  return h("section", { class: "panel" },
    h("h2", {}, t("round_end.title", { round: pub.round })),
    h("ul", {},
      h("li", {}, t("round_end.hospital", { n: healed })),
      h("li", {}, t("round_end.stones")),
      h("li", {}, t("round_end.deck", { name: name(pub.start_player) }))),
    h("button", { class: "primary wide", id: "next-round", disabled: ui.pending, "data-table": "next_round", onclick: () => tableStep("next_round") }, t("round_end.next")));
}

function lastFight(last) {
  const line = logLine({ e: "result", ...last, values: last.values }, seats());
  return h("section", { class: "panel last-fight" },
    h("h3", {}, t("fight.last")),
    h("div", { class: "duel" }, seatBadge(seats()[last.a]), cardFace(last.values[0]), h("span", {}, ":"), cardFace(last.values[1]), seatBadge(seats()[last.b])),
    h("p", { class: "small-text" }, line),
    last.loot && last.loot.kept ? h("p", { class: "small-text" }, t("loot.taken", { stone: t(`stone.${last.loot.kept}`) })) : null);
}

const PHASES = {
  materials: materialsView,
  planning: planningView,
  reveal: planningView,
  pick: pickView,
  swap: swapView,
  choose: chooseView,
  loot: lootView,
  sharing: sharingView,
  building: buildingView,
  round_end: roundEndView,
  over: (g) => finalScores({ scores: g.public.seats.map((s) => s.score), winners: g.public.result.winners, seats: seats(), status: "finished" }),
};

// -- always at hand: hand, amulets, castle, score; the help and hand sheets ------------------------

function atHand() {
  const g = msg.game;
  const mine = g.public.seats[me()];
  return h("footer", { class: "athand" },
    h("button", { class: "athand-hand", onclick: () => openSheet("castle") },
      h("span", { class: "label" }, t("hand.cards")),
      h("span", { class: "mini-hand" }, g.private.hand.map((v) => cardFace(v, { class: "mini" })))),
    h("span", { class: "stat", title: t("hand.amulets") }, icon("amulet", t("hand.amulets")), " ", mine.amulets),
    h("span", { class: "stat", title: t("hand.hospital") }, icon("hospital", t("hand.hospital")), " ", mine.hospital.reduce((a, b) => a + b, 0)),
    h("span", { class: "stat", title: t("hand.score") }, icon("star", t("hand.score")), " ", mine.score.total));
}

/** The game's own sheets: the help for this phase, and the hand with the castle. */
function sheet(kind) {
  if (kind === "help") {
    const phase = msg.game ? msg.game.public.phase : "lobby";
    return [h("h2", {}, t("help.title")), h("h3", {}, t(`phase.${phase}`)), h("p", {}, t(`help.${phase}`)),
      h("h3", {}, t("help.goal_title")), h("p", { class: "goal" }, t("help.goal")), stoneLegend(),
      h("p", { class: "muted small-text" }, t("help.more"))];
  }
  if (kind === "castle") {
    const mine = msg.game.public.seats[me()];
    return [h("h2", {}, t("hand.title")),
      h("p", {}, t("hand.cards_text"), " "), handView(msg.game.private.hand, false),
      h("p", { class: "muted small-text" }, t("hand.discard", { cards: mine.discard.join(" ") || "—" })),
      h("p", {}, t("hand.amulets_text", { n: mine.amulets })),
      h("h3", {}, t("hand.castle")), castleMini(mine.castle, me()),
      mine.beside.length ? h("p", {}, t("hand.beside"), stoneCounts(countOf(mine.beside))) : null,
      h("h3", {}, t("hand.score")), scoreRows(mine.score)];
  }
  return null;
}

function countOf(list) {
  const out = {};
  for (const s of list) out[s] = (out[s] || 0) + 1;
  return out;
}

// -- the host: the material deck, in the lobby -------------------------------------------------

/** Longhall's deck, or the printed cards the start player draws and enters (D1). */
function lobbyOptions(table) {
  return [h("p", { class: "label" }, t("host.deck")),
    h("div", { class: "button-row" },
      ["house", "physical"].map((deck) => h("button", {
        class: table.options.deck === deck ? "chosen" : "", disabled: ui.pending,
        onclick: () => send("set_option", { option: "deck", value: deck }) }, t(`host.deck_${deck}`)))),
    h("p", { class: "muted small-text" }, t(`host.deck_${table.options.deck}_help`))];
}

export default {
  id: "eketorp",
  bar: roundBar,
  screen,
  atHand,
  sheet,
  scoreRows,
  errorWords,
  logWords: (event) => logLine(event, seats()),
  /** Why the game ended (R6.4), under the final score. */
  endReason: (pub) => endReason(pub.result, seats()),
  lobbyOptions,
  /** A new state: a stone placed elsewhere (or by the host) is no longer picked. */
  onState() {
    if (local.selected && !carried().includes(local.selected)) local.selected = null;
  },
  /** A new screen (the phase changed): no move or loot half done from the last one. */
  newScreen() {
    local.move = null;
    local.loot = null;
  },
};
