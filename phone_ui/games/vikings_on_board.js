// Vikings on Board on the phone: the player's shield (their barrels with their values, the
// chests they won, their running score: theirs alone), and on their turn the free buildings with
// what each does, then each action's steps as taps on a drawing of the harbour. Loaded by the
// phone's shell only when the table plays Vikings on Board.

import { h, icon, styleSheet, t } from "/static/common.js";
import {
  GOODS, HULL_MAX, chestChip, chestWords, colourLabel, colourName, countWords, drakkarNo, endReason, errorWords, findPiece,
  logLine, pieceWords, sailingShown, whyNot, zoneColour,
} from "/static/games/vikings_on_board.js";
import {
  act, actionButton, finalScores, legalHas, me, msg, name, online, openSheet, present, render, seats, tableStep, ui, waiting,
} from "../page.js";

await styleSheet(new URL("./vikings_on_board.css", import.meta.url).href);

// what this game's screens remember between redraws
const local = {
  kind: null, // a warehouse: the drawn chest picked to place
};

const symbols = () => msg.table.colours;
const legal = () => (msg.game && msg.game.legal) || [];
const building = (b) => t(`vob.building.${b}`);

/** The legal action of ``type`` matching ``match``, or null. */
function legalOf(type, match) {
  return legal().find((a) => a.type === type && Object.entries(match).every(([k, v]) => a[k] === v)) || null;
}

/** A barrel of the player's own with its value: theirs alone to see (V2.6). */
function barrelChip(barrel, extra = "") {
  return h("span", { class: `vob-barrel-chip colour-${msg.game.private.colour} ${extra}`, "aria-label": t("vob.shield.barrel", { value: barrel.value }) },
    icon("barrel"), h("strong", {}, String(barrel.value)));
}

// -- the bar and the screens -------------------------------------------------------------------

function bar(pub) {
  const next = pub.active.length ? name(pub.active[0]) : "";
  return h("div", { class: "roundbar" },
    h("span", {}, t("vob.turn", { turn: pub.turn })),
    h("strong", {}, t(`vob.phase.${pub.phase}`)),
    h("span", {}, next));
}

function screen(g) {
  const pub = g.public;
  if (pub.phase === "over") {
    return [finalFrame(g)];
  }
  const mine = pub.active.includes(me());
  const parts = [mine ? yourMove(g) : theirMove(g)];
  const drawing = harbourDrawing(g);
  if (drawing) parts.push(drawing);
  parts.push(shieldPanel(g));
  return parts;
}

/** The shields are lifted: the shell's final-score frame over the now public scores. */
function finalFrame(g) {
  const pub = g.public;
  return finalScores({ scores: pub.scores, winners: pub.result.winners, seats: seats(), status: "finished" });
}

// -- whose move ----------------------------------------------------------------------------------

function theirMove(g) {
  const pub = g.public;
  if (pub.phase === "reckon" && pub.sailing) return reckonPanel(pub);
  const seat = pub.active[0];
  if (seat === undefined) return waiting(t("conn.connecting"));
  if (pub.phase === "turn") {
    return waiting(t("vob.you.wait_turn", { name: name(seat), building: building(pub.buildings[pub.next_building]) }));
  }
  if (pub.phase === "act" && pub.step) {
    return waiting(t("vob.table.doing", { name: name(seat), building: building(pub.step.building), effect: t(`vob.effect.${pub.step.building}`) }));
  }
  if (pub.phase === "bonus") return waiting(t("vob.table.bonus", { name: name(seat) }));
  if (pub.phase === "sail") return waiting(t("vob.table.sail", { name: name(seat) }));
  if (pub.phase === "share" && pub.sailing) {
    const key = pub.sailing.mode === "take" ? "vob.table.take" : "vob.table.discard";
    return waiting(t(key, { name: name(seat), colour: colourName(pub.sailing.due) }));
  }
  return waiting(t("vob.you.wait_choice", { name: name(seat) }));
}

/** A sailing's reckoning (V4.2, V4.3): what the table display shows, in short, and NEXT, which
 * hands out the chests. NEXT is the sailing player's (who put the stern on), so nobody moves the
 * table on before the others have read it; any phone's when no player holds that seat's phone. */
function reckonPanel(pub) {
  const s = pub.sailing;
  const shown = sailingShown(pub, { drakkar: s.drakkar, influence: s.influence });
  const lines = [];
  if (!shown.ranked) {
    for (const count of shown.counted) lines.push(countWords(pub, count, name));
  } else if (!shown.ranking.length) {
    lines.push(t("vob.table.nobody"));
  } else {
    lines.push(shown.ranking.map((r) => `${colourLabel(pub, r.colour, name)} ${r.shields}`).join(" · "));
  }
  if (shown.paid && shown.ranking.length) {
    const log = pub.log;
    let start = log.length - 1; // the last sailing's start (findLastIndex is newer than iOS 15)
    while (start >= 0 && log[start].e !== "sail") start--;
    const won = log.slice(start + 1).find((e) => e.e === "bet_won");
    lines.push(won
      ? t("vob.table.bet_won", { name: name(won.seat), colour: colourName(won.colour) })
      : t("vob.table.no_bet", { colour: colourName(shown.ranking[0].colour) }));
  }
  return h("section", { class: "panel vob-prompt vob-reckon", "data-shown": s.shown },
    h("h2", {}, t("vob.table.sailing", { drakkar: drakkarNo(s.drakkar) })),
    lines.length ? h("ul", {}, lines.map((text) => h("li", {}, text))) : null,
    nextMine(s) ? h("button", {
      class: "primary wide", id: "vob-next", "data-table": "next", disabled: ui.pending || !online,
      onclick: () => tableStep("next"),
    }, t(`vob.table.next.${shown.next}`)) : h("p", { class: "muted" }, t("vob.table.next_by", { name: name(s.by) })));
}

/** Whether this phone moves the sailing on: the sailing player's, or any when nobody plays that
 * seat from a phone now (a bot, a bot standing in, a phone away). */
function nextMine(s) {
  const by = s.by;
  return by === null || by === undefined || by === me() || !present(by) || !!seats()[by].bot;
}

function yourMove(g) {
  const pub = g.public;
  switch (pub.phase) {
    case "turn": return chooseBuilding(g);
    case "act": return actionSteps(g);
    case "bonus": return h("section", { class: "panel vob-prompt" }, h("h2", {}, t("vob.phase.bonus")), h("p", {}, t("vob.you.bonus")));
    case "sail": return h("section", { class: "panel vob-prompt" }, h("h2", {}, t("vob.phase.sail")), h("p", {}, t("vob.you.sail")));
    case "share": return shareChoice(g);
    default: return waiting(t(`vob.phase.${pub.phase}`));
  }
}

/** The free buildings, left to right: what each does in one line, and whether it is possible
 * now, with the reason when it is not (V2.2). */
function chooseBuilding(g) {
  const pub = g.public;
  const goes = legal().filter((a) => a.type === "go").map((a) => a.building);
  const idle = goes.every((b) => whyNot(pub, me(), g.private.barrels, b) !== null);
  const list = h("ol", { class: "vob-choices" }, pub.buildings.map((b, i) => {
    const taken = pub.spots[pub.chief][i] !== null;
    if (taken) return null;
    const reason = whyNot(pub, me(), g.private.barrels, b);
    const can = goes.includes(b);
    return h("li", { class: `vob-choice ${reason ? "impossible" : "possible"}`, "data-building": b },
      h("button", {
        class: reason ? "" : "option", disabled: ui.pending || !online || !can,
        "data-action": can ? JSON.stringify({ type: "go", building: b }) : null,
        onclick: () => act({ type: "go", building: b }),
      },
      h("strong", {}, `${i + 1}. `, building(b)),
      h("span", { class: "effect" }, t(`vob.effect.${b}`)),
      h("span", { class: `verdict ${reason ? "no" : "yes"}` }, reason ? t("vob.you.impossible", { reason }) : t("vob.you.possible"))));
  }));
  return h("section", { class: "panel vob-prompt" },
    h("h2", {}, t("vob.you.choose_building", { building: building(pub.buildings[pub.next_building]) })),
    idle ? h("p", { class: "note" }, t("vob.you.no_action")) : null,
    list);
}

/** The steps of the building's action: what to tap next, and the way back while there is one. */
function actionSteps(g) {
  const pub = g.public;
  const step = pub.step;
  const b = step.building;
  const parts = [h("h2", {}, building(b)), h("p", { class: "muted small-text" }, t(`vob.effect.${b}`))];
  let prompt = null;
  if (b === "promotion") prompt = t("vob.you.promotion");
  else if (b === "change_drakkar" || b === "move") {
    prompt = step.piece === null ? t(b === "move" ? "vob.you.pick_any" : "vob.you.pick_own") : t("vob.you.to_drakkar");
  } else if (b === "exchange") {
    prompt = step.piece === null ? t("vob.you.exchange_first") : t("vob.you.exchange_second");
  } else if (b === "tavern_1" || b === "tavern_2") {
    const chosen = g.private.barrel;
    if (chosen === null) {
      prompt = t(b === "tavern_1" ? "vob.you.pick_barrel" : "vob.you.pick_barrel_2");
      // the barrels to choose from, right under the prompt: in hand, then on the quay (where)
      parts.push(h("div", { class: "vob-barrels pick" }, g.private.barrels.map((barrel) => {
        const action = legalOf("pick_barrel", { barrel: barrel.barrel });
        if (!action) return null;
        const where = typeof barrel.where === "object"
          ? h("small", {}, t("vob.shield.where", { drakkar: drakkarNo(barrel.where.drakkar), colour: colourName(barrel.where.colour) }))
          : null;
        return tappable(action, { class: "vob-barrel-slot", "data-barrel": barrel.barrel }, barrelChip(barrel), where);
      })));
    } else {
      prompt = t("vob.you.to_zone");
      const barrel = g.private.barrels[chosen];
      parts.push(h("p", { class: "chosen" }, t("vob.you.chosen_barrel", { value: barrel.value }), " ", barrelChip(barrel)));
    }
  } else if (b === "warehouse_1" || b === "warehouse_2") {
    parts.push(chestPicker(g));
    prompt = t("vob.you.chest_drakkar");
  } else if (b === "market") {
    prompt = t("vob.you.market");
    parts.push(h("div", { class: "options row" }, GOODS.map((goods) => {
      const action = legalOf("raise", { goods });
      return action
        ? actionButton(h("span", {}, chestChip(goods), " ", t(`vob.goods.${goods}`), ` ${pub.market[goods]} → ${pub.market[goods] + 1}`), action, { class: "option" })
        : h("button", { disabled: true }, chestChip(goods), " ", t(`vob.goods.${goods}`), ` ${pub.market[goods]}`);
    })));
  }
  if (step.piece !== null) {
    const chosen = findPiece(pub, step.piece);
    if (chosen) parts.push(h("p", { class: "chosen" }, t("vob.you.chosen_piece", { piece: pieceWords(chosen.piece), drakkar: drakkarNo(chosen.drakkar) })));
  }
  if (prompt) parts.splice(2, 0, h("p", { class: "prompt", role: "status" }, prompt));
  if (legalHas("back")) parts.push(actionButton(t("vob.you.back"), { type: "back" }, { class: "wide" }));
  return h("section", { class: "panel vob-prompt" }, parts);
}

/** A warehouse's chests: Warehouse 1's one face up; Warehouse 2's three, seen by this player only. */
function chestPicker(g) {
  const drawn = g.private.drawn || [];
  const kinds = [...new Set(drawn)];
  if (!kinds.includes(local.kind)) local.kind = kinds[0] || null;
  return h("div", {},
    g.public.step.building === "warehouse_2" ? h("p", { class: "small-text" }, t("vob.you.drawn_w2")) : null,
    h("p", { class: "label" }, t("vob.you.chest_kind")),
    h("div", { class: "options row" }, drawn.map((kind, i) => h("button", {
      class: `vob-kind ${kind === local.kind ? "chosen" : ""}`, "aria-pressed": kind === local.kind ? "true" : "false", "data-kind": kind,
      "data-index": i, disabled: ui.pending, onclick: () => { local.kind = kind; render(); },
    }, chestChip(kind), " ", t(`vob.goods.${kind}`)))));
}

/** During a sailing: the chest the player takes, or the one an unplayed colour takes (V4.4, V4.5). */
function shareChoice(g) {
  const s = g.public.sailing;
  const take = s.mode === "take";
  return h("section", { class: "panel vob-prompt" },
    h("h2", {}, t("vob.table.sailing", { drakkar: drakkarNo(s.drakkar) })),
    h("p", { class: "prompt" }, take ? t("vob.you.take", { drakkar: drakkarNo(s.drakkar) }) : t("vob.you.discard", { colour: colourName(s.due) })),
    h("div", { class: "options row" }, legal().filter((a) => a.type === "take_chest" || a.type === "discard_chest").map((a) =>
      actionButton(h("span", {}, chestChip(a.kind), " ", chestWords(a.kind), ` (${g.public.market[a.kind]})`), a, { class: "option" }))));
}

// -- the harbour drawing -------------------------------------------------------------------------

/** What a tap on each part of the harbour does in this step (null: nothing). */
function tapTargets(g) {
  const pub = g.public;
  const mine = pub.active.includes(me());
  const none = { piece: () => null, drakkar: () => null, zone: () => null };
  if (!mine) return none;
  const out = { ...none };
  if (pub.phase === "act") {
    const b = pub.step.building;
    if (b === "promotion") out.piece = (p) => legalOf("promote", { piece: p });
    if (["change_drakkar", "move", "exchange"].includes(b)) {
      out.piece = (p) => legalOf("pick_piece", { piece: p }) || legalOf("swap_with", { piece: p });
      out.drakkar = (d) => legalOf("to_drakkar", { drakkar: d });
    }
    if (b === "tavern_1" || b === "tavern_2") out.zone = (d, colour) => legalOf("to_zone", { drakkar: d, colour });
    if (b === "warehouse_1" || b === "warehouse_2") out.drakkar = (d) => (local.kind ? legalOf("place_chest", { kind: local.kind, drakkar: d }) : null);
  } else if (pub.phase === "bonus") {
    out.piece = (p) => legalOf("bonus_viking", { piece: p });
  } else if (pub.phase === "sail") {
    out.drakkar = (d) => legalOf("sail", { drakkar: d });
  }
  return out;
}

/** A tappable thing: a button carrying its action when the step allows it, else plain. */
function tappable(action, attrs, ...children) {
  if (!action) return h("span", attrs, ...children);
  return h("button", { ...attrs, class: `${attrs.class || ""} tap`, disabled: ui.pending || !online, "data-action": JSON.stringify(action), onclick: () => act(action) }, ...children);
}

function harbourDrawing(g) {
  const pub = g.public;
  const targets = tapTargets(g);
  const myBarrels = g.private.barrels;
  const mineAt = (d, colour) => myBarrels.find((b) => b.where && b.where.drakkar === d && b.where.colour === colour);
  return h("section", { class: "panel vob-harbour" },
    h("h2", {}, t("vob.harbour")),
    h("ol", { class: "vob-drakkars" }, pub.drakkars.map((d) => {
      if (!d.in_port) {
        return h("li", { class: "vob-drakkar sailed", "data-drakkar": d.drakkar }, h("span", { class: "vob-dno" }, drakkarNo(d.drakkar)), h("span", { class: "muted" }, t("vob.sailed_away")));
      }
      const slots = [];
      for (let i = 0; i < HULL_MAX; i++) {
        const p = d.hull[i];
        if (!p) { slots.push(h("span", { class: "vob-piece empty" })); continue; }
        const mine = p.colour === g.private.colour;
        slots.push(tappable(targets.piece(p.piece), {
          class: `vob-piece colour-${p.colour} ${mine ? "mine" : ""} ${p.viking ? "bonus" : ""} ${pub.step && pub.step.piece === p.piece ? "picked" : ""}`,
          "data-piece": p.piece, "aria-label": pieceWords(p),
        }, h("span", { class: "sym" }, symbols()[p.colour] || ""), h("span", { class: "shields" }, String(p.shields)), p.viking ? h("span", { class: "plus" }, "+1") : null));
      }
      const zones = Object.entries(d.quay).map(([colour, owner]) => {
        const own = owner === me() ? mineAt(d.drakkar, colour) : null;
        return tappable(targets.zone(d.drakkar, colour), {
          class: `vob-zone colour-${colour} ${owner !== null ? "held" : ""}`, "data-zone": `${d.drakkar}:${colour}`,
          "aria-label": t("vob.zone", { colour: zoneColour(colour), drakkar: drakkarNo(d.drakkar) }),
        }, h("span", { class: "sym" }, symbols()[colour] || ""),
        own ? h("strong", { class: "own-value" }, String(own.value)) : owner !== null ? h("span", { class: `vob-owner colour-${seats()[owner].colour}` }, icon("barrel")) : null);
      });
      return h("li", { class: "vob-drakkar", "data-drakkar": d.drakkar },
        tappable(targets.drakkar(d.drakkar), { class: "vob-dno", "aria-label": t("vob.drakkar", { n: drakkarNo(d.drakkar) }) }, String(drakkarNo(d.drakkar))),
        h("span", { class: "vob-prow" }, d.chests.map((kind) => chestChip(kind))),
        h("span", { class: "vob-hull" }, slots),
        h("span", { class: "vob-quay" }, zones));
    })));
}

// -- the shield ----------------------------------------------------------------------------------

/** Behind the shield: the barrels with their values, where each is, the chests won, the running
 * score and the vikings. Only this phone ever receives these values (V2.6). */
function shieldPanel(g) {
  const pub = g.public;
  const priv = g.private;
  const barrelButton = (b) => barrelChip(b);
  const hand = priv.barrels.filter((b) => b.where === "hand");
  const quay = priv.barrels.filter((b) => b.where && typeof b.where === "object");
  const won = priv.barrels.filter((b) => b.where === "won");
  const mySeat = me();
  const vikings = [];
  pub.spots.forEach((side) => side.forEach((owner, i) => { if (owner === mySeat) vikings.push(building(pub.buildings[i])); }));
  const nextMine = pub.next_building !== null && pub.spots[1 - pub.chief][pub.next_building] === mySeat;
  return h("section", { class: "panel vob-shield", "data-secret": "shield" },
    h("h2", {}, icon("shield"), " ", t("vob.shield.title")),
    h("p", { class: "muted small-text" }, t("vob.shield.secret")),
    h("h3", {}, t("vob.shield.hand")),
    h("div", { class: "vob-barrels" }, hand.length ? hand.map(barrelButton) : h("span", { class: "muted" }, t("vob.shield.none"))),
    h("h3", {}, t("vob.shield.quay")),
    quay.length ? h("ul", { class: "vob-quay-list" }, quay.map((b) => h("li", {}, barrelButton(b), " ",
      t("vob.shield.where", { drakkar: drakkarNo(b.where.drakkar), colour: colourName(b.where.colour) })))) : h("p", { class: "muted" }, t("vob.shield.none")),
    h("h3", {}, t("vob.shield.won")),
    h("div", { class: "vob-barrels" }, won.length ? won.map((b) => barrelChip(b)) : h("span", { class: "muted" }, t("vob.shield.none"))),
    h("h3", {}, t("vob.shield.chests")),
    h("div", { class: "vob-my-chests" }, GOODS.map((g2) => h("span", { class: "vob-count", "data-goods": g2 }, chestChip(g2), ` ${priv.chests[g2]} × ${pub.market[g2]}`))),
    h("p", { class: "vob-score" }, icon("star"), " ", t("vob.shield.score", { total: priv.score.total })),
    h("p", { class: "muted small-text" }, t("vob.shield.score_note")),
    h("p", { class: "small-text" }, t("vob.shield.vikings", { buildings: vikings.join(", ") || "—" })),
    nextMine ? h("p", { class: "small-text" }, t("vob.shield.next", { building: building(pub.buildings[pub.next_building]) })) : null);
}

/** Always at hand: the barrels in hand with their values, the chests, the running score. */
function atHand(g) {
  const priv = g.private;
  const chests = GOODS.reduce((n, kind) => n + priv.chests[kind], 0);
  return h("footer", { class: "athand" },
    h("button", { class: "athand-hand", onclick: () => openSheet("shield") },
      h("span", { class: "label" }, t("vob.shield.title")),
      h("span", { class: "mini-hand" }, priv.barrels.filter((b) => b.where === "hand").map((b) => barrelChip(b, "mini")))),
    h("span", { class: "stat", title: t("vob.shield.chests") }, icon("chest", t("vob.shield.chests")), " ", chests),
    h("span", { class: "stat", title: t("vob.shield.score", { total: priv.score.total }) }, icon("star", t("hand.score")), " ", priv.score.total));
}

function sheet(kind) {
  const g = msg.game;
  if (kind === "help") {
    const phase = g.public.phase;
    return [h("h2", {}, t("help.title")), h("h3", {}, t(`vob.phase.${phase}`)), h("p", {}, t(`vob.help.${phase}`)),
      h("h3", {}, t("help.goal_title")), h("p", { class: "goal" }, t("vob.help.goal")),
      h("p", { class: "muted small-text" }, t("help.more"))];
  }
  if (kind === "shield" && g.private) return [shieldPanel(g)];
  return null;
}

/** One row per category of the final score: each goods' chests times its value, the barrels. */
function scoreRows(score, withTotal = true) {
  const b = score.breakdown;
  return h("table", { class: "score-rows" }, h("tbody", {},
    GOODS.map((kind) => {
      const { count, points } = b[kind];
      // each kind's count times its value, the same way for none (V5.2)
      const market = msg.game && msg.game.public.market;
      const value = market ? market[kind] : count ? points / count : 0;
      return h("tr", { "data-category": kind }, h("th", {}, chestChip(kind), " ", t(`vob.score.${kind}`)),
        h("td", { class: "count" }, t("vob.score.times", { count, value })), h("td", { class: "points" }, String(points)));
    }),
    h("tr", { "data-category": "barrels" }, h("th", {}, icon("barrel"), " ", t("vob.score.barrels")),
      h("td", { class: "count" }, String(b.barrels.count)), h("td", { class: "points" }, String(b.barrels.points))),
    h("tr", { "data-category": "chests" }, h("th", {}, t("vob.score.chests")), h("td", { class: "count" }, String(GOODS.reduce((n, k) => n + b[k].count, 0))), h("td", {})),
    withTotal ? h("tr", { class: "sum" }, h("th", {}, t("score.total")), h("td", {}), h("td", { class: "points" }, String(score.total))) : null));
}

export default {
  id: "vikings_on_board",
  bar,
  screen,
  atHand,
  sheet,
  logWords: (event) => logLine(event, msg.game.public, name),
  scoreRows,
  errorWords,
  /** Why the game ended (V5.1), under the final score. */
  endReason: (pub) => endReason(pub.result),
  /** Each phase of the player's own move is a screen of its own; while the others move, one
   * screen (what they do, the harbour, the shield) whatever step they are at, so that a player
   * reading their shield is not sent back to the top at each of the others' moves. A sailing's
   * reckoning is everyone's (any phone may move it on, V4.2): a screen of its own. */
  screenKey: (g) => (g.public.active.includes(me()) || ["reckon", "over"].includes(g.public.phase) ? g.public.phase : "watching"),
  /** A new screen: no chest picked from an earlier draw. */
  newScreen() {
    local.kind = null;
  },
};
