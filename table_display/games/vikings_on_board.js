// Vikings on Board on the table display: the village, the harbour with its quay, the market,
// whose turn it is and what they do, each sailing step by step, and after each action what to
// move on the physical board. Only the public view reaches this screen: a barrel on the quay
// shows whose it is, never its value. Loaded by the shell only when the table plays this game.

import { h, icon, seatBadge, styleSheet, t } from "/static/common.js";
import {
  GOODS, HULL_MAX, chestChip, colourLabel as labelOf, colourMark, colourName, countWords, drakkarNo, endReason, errorWords,
  findPiece, logLine, pieceWords, sailingShown,
} from "/static/games/vikings_on_board.js";
import { finalScores, msg, name, seats, token, url } from "../page.js";

await styleSheet(new URL("./vikings_on_board.css", import.meta.url).href);

const symbols = () => msg.table.colours;

/** A colour in words with its mark; a played colour also names its player. */
function colourLabel(pub, colour) {
  return pub.colours.includes(colour) ? labelOf(pub, colour, name) : `${symbols()[colour] || ""} ${colourName(colour)}`;
}

/** A player's name alone, beside a mark that already shows their colour's symbol. */
function bareName(seat) {
  const s = seats()[seat];
  return s ? s.name : "?";
}

// A move's log event names the drakkar its piece came from: the lines read the same after a
// reload of this page as before it.
function line(event, pub) {
  return logLine(event, pub, name);
}

// -- the screen ----------------------------------------------------------------------------------

function gameScreen(pub) {
  return [
    h("header", { class: "titlebar" },
      h("h1", {}, t(`games.${msg.table.game}`)),
      h("span", { class: "pill" }, t("vob.turn", { turn: pub.turn })),
      h("span", { class: "pill phase" }, t(`vob.phase.${pub.phase}`)),
      msg.table.paused ? h("span", { class: "pill warn" }, t("game.paused")) : null,
      h("span", { class: "spacer" }),
      h("span", { class: "join-hint muted" }, t("game.join_hint", { url: "" }), url(msg.table.join_url))),
    village(pub),
    // the market sits under the harbour, whose rows have height to spare, so the status beside it
    // keeps room for a whole 4-player sailing
    h("div", { class: "vob-board" },
      h("div", { class: "vob-main" }, harbour(pub), marketPanel(pub)),
      h("div", { class: "vob-side" }, statusPanel(pub), boardPanel(pub))),
  ];
}

/** After the game: the final scores beside the harbour as it ended, with the last sailing and
 * what is left to do on the physical board (its chests, the barrel won back), until the rematch. */
function finalScreen(pub, result) {
  return [
    h("header", { class: "titlebar" },
      h("h1", {}, t(`games.${msg.table.game}`)),
      h("span", { class: "pill phase" }, t("vob.phase.over")),
      h("span", { class: "spacer" })),
    h("div", { class: "vob-board vob-final" },
      h("div", { class: "vob-main" }, finalScores(result), harbour(pub)),
      h("div", { class: "vob-side" }, statusPanel(pub), boardPanel(pub))),
  ];
}

/** The 11 buildings in a row, each with its two spots: the vikings on them and the chief. */
function village(pub) {
  const next = pub.next_building;
  const away = 1 - pub.chief;
  const spot = (side, b) => {
    const owner = pub.spots[side][b];
    const isNext = side === away && b === next;
    return h("div", { class: `vob-spot side-${side} ${isNext ? "next" : ""}` },
      owner !== null ? token(owner) : null,
      side === pub.chief && owner === null ? h("span", { class: "vob-chief-side", "aria-hidden": "true" }, "·") : null,
      isNext ? icon("turn", t("vob.next_to_move")) : null);
  };
  const chiefRow = (side) => h("div", { class: `vob-chief-row side-${side}` },
    side === pub.chief ? [h("span", { class: "vob-chief", title: t("vob.chief") }, icon("viking")), " ", t("vob.chief")] : null);
  return h("section", { class: "panel vob-village", "aria-label": t("vob.village") },
    chiefRow(0),
    h("ol", { class: "vob-buildings" }, pub.buildings.map((b, i) =>
      h("li", { class: `vob-building ${pub.step && pub.step.building === b ? "acting" : ""}`, "data-building": b },
        spot(0, i),
        h("span", { class: "vob-bname" }, h("small", {}, `${i + 1}`), h("span", {}, t(`vob.building.${b}`))),
        spot(1, i)))),
    chiefRow(1));
}

/** A hull piece: its colour, its symbol and its shields (and a bonus viking's extra shield). */
function pieceChip(piece, extra = "") {
  return h("span", {
    class: `vob-piece colour-${piece.colour} ${piece.viking ? "bonus" : ""} ${extra}`,
    title: pieceWords(piece), "data-piece": piece.piece,
  }, h("span", { class: "sym" }, symbols()[piece.colour] || ""), h("span", { class: "shields" }, String(piece.shields)),
  piece.viking ? h("span", { class: "plus" }, "+1") : null);
}

/** The 8 drakkars along the quay: the prow with its chests, the hull pieces in order from the
 * prow, the stern once it sails, and its 4 betting zones. */
function harbour(pub) {
  const sailingNow = pub.sailing ? pub.sailing.drakkar : null;
  return h("section", { class: "panel vob-harbour" },
    h("h2", {}, t("vob.harbour"), h("span", { class: "muted small" }, " · ", t("vob.table.secret_values"))),
    h("ol", { class: "vob-drakkars" }, pub.drakkars.map((d) => {
      const slots = [];
      for (let i = 0; i < HULL_MAX; i++) {
        slots.push(d.hull[i] ? pieceChip(d.hull[i]) : h("span", { class: "vob-piece empty" }));
      }
      return h("li", {
        class: `vob-drakkar ${d.in_port ? "" : "sailed"} ${d.drakkar === sailingNow ? "sailing" : ""}`, "data-drakkar": d.drakkar,
      },
      h("span", { class: "vob-dno" }, drakkarNo(d.drakkar)),
      h("span", { class: "vob-prow", title: t("vob.prow") }, icon("prow"), d.chests.map((kind) => chestChip(kind))),
      h("span", { class: "vob-hull" }, slots),
      h("span", { class: "vob-stern" }, d.stern ? [icon("prow", t("vob.stern")), h("small", {}, t("vob.sailed_away"))] : null),
      h("span", { class: "vob-quay", title: t("vob.quay") }, Object.entries(d.quay).map(([colour, owner]) =>
        h("span", { class: `vob-zone colour-${colour} ${owner !== null ? "held" : ""}`, "data-zone": `${d.drakkar}:${colour}`,
          title: owner !== null ? t("vob.zone_taken_by", { name: name(owner) }) : colourName(colour) },
        h("span", { class: "sym" }, symbols()[colour] || ""),
        owner !== null ? h("span", { class: "vob-barrel" }, token(owner)) : null))));
    })));
}

/** Whose turn it is and what they are doing, in words; a sailing step by step. */
function statusPanel(pub) {
  const body = [];
  const who = (seat) => (seat === null || seat === undefined ? "?" : name(seat));
  if (pub.phase === "turn" && pub.next_building !== null) {
    const seat = pub.active[0];
    body.push(h("p", { class: "big-text" }, t("vob.table.choosing", { name: who(seat), building: t(`vob.building.${pub.buildings[pub.next_building]}`) })));
  } else if (pub.phase === "act" && pub.step) {
    const b = pub.step.building;
    body.push(h("p", { class: "big-text" }, t("vob.table.doing", { name: who(pub.step.seat), building: t(`vob.building.${b}`), effect: t(`vob.effect.${b}`) })));
    if (pub.step.piece !== null) {
      const chosen = findPiece(pub, pub.step.piece);
      if (chosen) body.push(h("p", {}, t("vob.you.chosen_piece", { piece: pieceWords(chosen.piece), drakkar: drakkarNo(chosen.drakkar) })));
    }
    if (pub.step.drawn) body.push(h("p", {}, pub.step.drawn.map((kind) => chestChip(kind))));
  } else if (pub.phase === "bonus") {
    body.push(h("p", { class: "big-text" }, t("vob.table.bonus", { name: who(pub.active[0]) })));
  } else if (pub.phase === "sail") {
    body.push(h("p", { class: "big-text" }, t("vob.table.sail", { name: who(pub.stern_holder) })));
  } else if (pub.phase === "share" && pub.sailing) {
    const s = pub.sailing;
    const key = s.mode === "take" ? "vob.table.take" : "vob.table.discard";
    body.push(h("p", { class: "big-text" }, t(key, { name: who(s.chooser), colour: colourName(s.due) })));
  }
  const sailing = lastSailing(pub);
  if (sailing) body.push(sailingSteps(pub, sailing));
  return h("section", { class: "panel vob-status", role: "status" }, body);
}

/** The latest sailing of this turn or the last one: its events, from the "sail" on. */
function lastSailing(pub) {
  const log = pub.log;
  let start = -1;
  for (let i = log.length - 1; i >= 0; i--) {
    if (log[i].e === "sail") { start = i; break; }
  }
  if (start < 0 || log[start].turn < pub.turn - 1) return null;
  // a sailing is shown until the next turn's first viking has acted
  const after = log.slice(start + 1);
  const sailedAt = after.findIndex((e) => e.e === "sailed");
  if (sailedAt >= 0 && after.slice(sailedAt + 1).some((e) => e.e === "go")) return null;
  return { sail: log[start], events: sailedAt >= 0 ? after.slice(0, sailedAt + 1) : after };
}

/** A sailing, as far as the table has shown it (V4.2-V4.4): each colour's shields counted from
 * the prow, the ranking and its tie-break, the bet on the leader, then the chests in order; the
 * step just shown is marked, and what the next NEXT shows is said. */
function sailingSteps(pub, { sail, events }) {
  const shown = sailingShown(pub, sail);
  const { ranking, counted } = shown;
  const steps = [];
  let newest = null; // the step the last NEXT showed
  const step = (node) => { steps.push(node); newest = node; return node; };
  steps.push(h("h3", {}, t("vob.table.sailing", { drakkar: drakkarNo(shown.drakkar) })));
  if (counted.length) steps.push(h("p", { class: "muted" }, t("vob.table.influence")));
  if (counted.length && !shown.ranked) { // once ranked, the ranking carries each colour's total
    const items = counted.map((c) => h("li", {}, colourMark(c.colour, symbols()), " ", countWords(pub, c, bareName)));
    steps.push(h("ul", { class: "vob-counts" }, items));
    newest = items[items.length - 1];
  }
  if (shown.ranked && !ranking.length) step(h("p", {}, t("vob.table.nobody")));
  if (shown.ranked && ranking.length) {
    const ranked = [h("ol", { class: "vob-influence" }, ranking.map((r, i) => h("li", { class: i === 0 ? "leader" : "" },
      colourMark(r.colour, symbols()), " ", labelOf(pub, r.colour, bareName), " ", h("strong", {}, `${r.shields}`), " ", icon("shield"))))];
    for (let i = 1; i < ranking.length; i++) {
      if (ranking[i].shields === ranking[i - 1].shields) {
        ranked.push(h("p", { class: "small" }, t("vob.table.tie", { a: colourName(ranking[i - 1].colour), b: colourName(ranking[i].colour), n: ranking[i].shields })));
      }
    }
    step(h("div", {}, ranked));
  }
  if (shown.paid && ranking.length) {
    const won = events.find((e) => e.e === "bet_won");
    step(h("p", {}, won
      ? t("vob.table.bet_won", { name: name(won.seat), colour: colourName(won.colour) })
      : t("vob.table.no_bet", { colour: colourName(ranking[0].colour) })));
  }
  const chests = events.filter((e) => ["take_chest", "take_chests", "discard_chest", "chests_lost"].includes(e.e));
  if (chests.length) {
    steps.push(h("p", { class: "muted" }, t("vob.table.chests_in_order")));
    step(h("ul", { class: "vob-takes" }, chests.map((e) => h("li", {}, line(e, pub)))));
  }
  if (newest && shown.shown !== null) newest.classList.add("vob-newest");
  if (shown.next) {
    // the phone that moves on is the sailing player's, when a player holds it (else any phone)
    const by = pub.sailing && pub.sailing.by;
    const who = by !== null && by !== undefined && present(by) ? [" ", t("vob.table.next_phone", { name: name(by) })] : null;
    steps.push(h("p", { class: "vob-next-hint" }, icon("turn"), " ", t(`vob.table.next.${shown.next}`), who));
  }
  return h("div", { class: "vob-sailing", "data-drakkar": shown.drakkar, "data-shown": shown.shown ?? "all" }, steps);
}

/** A seat a player plays from their phone now (not a bot, not standing in, phone not away). */
function present(seat) {
  const s = seats()[seat];
  return !!s && s.kind === "human" && !s.bot && s.connected && !s.vacant;
}

/** What happened, newest first, in words that say what to move on the physical board. */
function boardPanel(pub) {
  const lines = pub.log.map((e) => line(e, pub)).filter(Boolean).slice(-9).reverse();
  return h("section", { class: "panel vob-todo log" }, h("h2", {}, t("vob.table.to_do")),
    h("ol", { "data-whole-lines": true }, lines.map((text, i) => h("li", { class: i === 0 ? "newest" : "" }, text))));
}

/** The market's three values, the warehouses' piles, the sterns left, the drakkars sailed. */
function marketPanel(pub) {
  return h("section", { class: "panel vob-market" },
    h("div", { class: "vob-goods" }, GOODS.map((g) => h("div", { class: "vob-good", "data-goods": g },
      chestChip(g), " ", h("span", {}, t(`vob.goods.${g}`)),
      h("span", { class: "vob-scale" }, [1, 2, 3, 4].map((v) => h("span", { class: `step ${v === pub.market[g] ? "on" : ""}` }, String(v))))))),
    h("p", {}, t("vob.pile", { n: 1, count: pub.piles[0] }), " · ", t("vob.pile", { n: 2, count: pub.piles[1] })),
    h("p", {}, t("vob.sterns_left", { n: pub.sterns }), " · ", t("vob.sailed", { n: pub.sailed.length }),
      pub.players === 2 ? [" · ", t("vob.bonus_left", { n: pub.bonus_vikings })] : null),
    pub.stern_holder !== null ? h("p", {}, t("vob.stern_holder", { name: name(pub.stern_holder) })) : null);
}

/** The final score, best first: per player each chest kind's count times its value, the barrels
 * won back, the total, and the chests that break a tie (V5.2, V5.3). */
function scoreTable(result) {
  const winners = new Set(result.winners);
  const market = (msg.game && msg.game.public.market) || {};
  const chests = (score) => GOODS.reduce((n, g) => n + score.breakdown[g].count, 0);
  const better = (a, b) => b.total - a.total || chests(b) - chests(a); // V5.3: then more chests
  const order = result.scores.map((_, i) => i).sort((a, b) => better(result.scores[a], result.scores[b]) || a - b);
  // each chest kind: how many, times its market value, then the points (V5.2)
  const cell = (part, g) => h("td", {}, t("vob.score.goods_cell", {
    count: part.count, value: market[g] ?? (part.count ? part.points / part.count : 0), points: part.points,
  }));
  return h("div", {},
    h("table", { class: "scores" },
      h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, ""), GOODS.map((g) => h("th", {}, chestChip(g), " ", t(`vob.score.${g}`))),
        h("th", {}, t("vob.score.barrels")), h("th", {}, t("score.total")), h("th", {}, t("vob.score.chests")))),
      h("tbody", {}, order.map((i) => {
        const score = result.scores[i];
        const b = score.breakdown;
        const rank = 1 + result.scores.filter((other) => better(other, score) < 0).length;
        return h("tr", { class: winners.has(i) ? "winner" : "", "data-seat": i },
          h("td", { class: "rank" }, `${rank}.`),
          h("th", {}, seatBadge(result.seats[i])),
          GOODS.map((g) => cell(b[g], g)),
          h("td", {}, t("vob.score.barrels_cell", { count: b.barrels.count, points: b.barrels.points })),
          h("td", { class: "total" }, score.total),
          h("td", {}, chests(score)));
      }))),
    h("p", { class: "muted" }, t("vob.score.tie_break")));
}

export default {
  id: "vikings_on_board", screen: gameScreen, finalScreen, scoreTable, errorWords, logWords: (event) => line(event, msg.game.public),
  endReason: (pub) => endReason(pub.result),
};
