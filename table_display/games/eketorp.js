// Eketorp on the table display: the fields, the hospital, the castles, the fights and the log,
// all public. Loaded by the table display's shell (table_display/table.js) only when the table
// plays Eketorp.

import { h, icon, seatBadge, styleSheet, t } from "/static/common.js";
import {
  FIELDS, SIDES, SIDE_SITES, STATIONS, STONES, endReason, errorWords, logLine, placeName, stoneChip,
} from "/static/games/eketorp.js";
import { fingerprintMark, msg, name, pieces, room, seats, token, url, vikingsOn } from "../page.js";

// Eketorp's own look on the table display (the shell's table.css holds what every game shares).
// The module is ready only once its style sheet is: a first screen drawn without it would put
// the castles of 3 players in the left column's place.
await styleSheet(new URL("./eketorp.css", import.meta.url).href);

function stonesOf(counts, most = 4) {
  return pieces(STONES.map((stone) => ({ n: counts[stone] || 0, make: () => stoneChip(stone) })), most);
}

function stonesIn(list, most = 3) {
  const counts = {};
  for (const stone of list) counts[stone] = (counts[stone] || 0) + 1;
  return stonesOf(counts, most);
}

/** The scores' table: per player each category's count and points, then the total. */
function scoreTable(result) {
  const cats = ["amulets", ...STONES, "complete"];
  const winners = new Set(result.winners);
  return h("table", { class: "scores" },
    h("thead", {}, h("tr", {}, h("th", {}, ""), cats.map((c) => h("th", {}, t(`score.${c}`))), h("th", {}, t("score.total")))),
    h("tbody", {}, result.scores.map((score, i) => h("tr", { class: winners.has(i) ? "winner" : "" },
      h("th", {}, seatBadge(result.seats[i])),
      cats.map((c) => h("td", {}, h("span", { class: "count" }, `${score.breakdown[c].count}×`), " ", score.breakdown[c].points)),
      h("td", { class: "total" }, score.total)))));
}

// -- the game ------------------------------------------------------------------------------------

function gameScreen(pub, result = null) {
  const three = pub.players === 3;
  return [
    h("header", { class: "titlebar" },
      h("h1", {}, t(`games.${msg.table.game}`)),
      h("span", { class: "pill" }, t("game.round", { round: pub.round, max: pub.max_rounds })),
      h("span", { class: "pill phase" }, t(`phase.${pub.phase}`)),
      msg.table.paused ? h("span", { class: "pill warn" }, t("game.paused")) : null,
      h("span", { class: "spacer" }),
      h("span", { class: "join-hint muted" }, t("game.join_hint", { url: "" }), url(msg.table.join_url))),
    h("div", { class: "board" },
      // with 3 players the castles leave a quarter of the middle free: the material fields and
      // the hospital go there as the board draws them, and the castles take the left column's
      // room
      three ? null : h("div", { class: "left" }, fieldsPanel(pub), hospitalPanel(pub), cardsPanel(pub)),
      h("div", { class: "castles" }, pub.seats.map((s, i) => castlePanel(pub, s, i)), three ? boardMap(pub) : null),
      h("div", { class: "right" }, result ? endPanel(pub, result) : phasePanel(pub), result ? null : legendPanel(),
        three ? cardsPanel(pub) : null, logPanel(pub))),
  ];
}

/** After the game: the final board stays, with why the game ended and the scores beside it,
 * until the host starts a rematch (the castles still mark the last build). */
function finalScreen(pub, result) {
  return gameScreen(pub, result);
}

function endPanel(pub, result) {
  const order = result.scores.map((_, i) => i).sort((a, b) => result.scores[b].total - result.scores[a].total);
  const winners = new Set(result.winners);
  return h("section", { class: "panel phase-panel final-panel" },
    h("h2", {}, t("score.title")),
    h("p", { class: "big-text end-reason" }, endReason(pub.result, seats())),
    // the winners first, with a star (equal totals share the win, D10)
    h("ol", { class: "scores ranking" }, order.map((i) => h("li", { class: winners.has(i) ? "winner" : "", "data-seat": i },
      winners.has(i) ? icon("star", t("score.winners", { names: (result.seats[i] || {}).name || "" })) : null,
      seatBadge(seats()[i] || result.seats[i]), h("span", { class: "spacer" }), h("strong", { class: "total" }, result.scores[i].total)))),
    h("p", { class: "muted" }, stoneChip("grass", "fresh"), " ", t("end.last_build")),
    h("p", { class: "muted" }, t("end.rematch")));
}

function fieldsPanel(pub) {
  return h("section", { class: "panel fields-panel" },
    h("h2", {}, t("table.fields_heading")),
    h("div", { class: "field-list" }, FIELDS.map((field) => {
      const occ = pub.board[field] || [];
      // a row holds about 8 pieces: the vikings get what the stones leave
      const stones = STONES.reduce((sum, stone) => sum + (pub.fields[field][stone] || 0), 0);
      return h("div", { class: `field ${pub.sharing && pub.sharing.field === field ? "active" : ""}`, "data-field": field },
        h("strong", { class: "field-letter" }, field),
        h("span", { class: "field-stones" }, stonesOf(pub.fields[field], 4)),
        h("span", { class: "field-vikings" }, vikingsOn(occ, 8 - Math.min(stones, 4))));
    })));
}

/** The material fields as the board draws them (3 players, in the fourth quarter): seven spaces in
 * rows, each with its letter, the stones lying on it and the vikings standing on it; beside G the
 * field hospital, its stations along the arrow (R0.9). */
function boardMap(pub) {
  return h("section", { class: "panel board-map" },
    h("h2", {}, t("table.fields_heading")),
    h("div", { class: "field-squares" },
      FIELDS.map((field) => {
        const stones = STONES.reduce((sum, stone) => sum + (pub.fields[field][stone] || 0), 0);
        const sharing = pub.sharing && pub.sharing.field === field;
        return h("div", { class: `field field-square ${sharing ? "active" : ""} ${stones ? "" : "bare"}`, "data-field": field },
          // the stones lie by the letter, the vikings stand at the foot of the space
          h("div", { class: "field-top" },
            h("strong", { class: "field-letter" }, field),
            h("span", { class: "field-stones" }, stonesOf(pub.fields[field], 4))),
          h("div", { class: "field-vikings" }, vikingsOn(pub.board[field] || [], 5)));
      }),
      hospitalPanel(pub, "map-hospital", "→ ")));
}

function hospitalPanel(pub, extra = "panel", arrow = "↓ ") {
  // the stations in the direction of the arrow, top to bottom (or left to right in a line)
  return h("section", { class: `${extra} hospital` },
    h("h2", {}, icon("hospital"), " ", t("table.hospital")),
    h("ol", { class: "stations" }, [...STATIONS, "healthy"].map((station, index) =>
      h("li", { class: "station" },
        h("span", { class: "station-name" }, index ? arrow : "", t(`station.${station}`)),
        h("span", { class: "station-vikings" }, index < 3 ? vikingsOn(pub.seats.map((s) => s.hospital[index]), 6) : null)))));
}

function cardsPanel(pub) {
  return h("section", { class: "panel cards-panel" },
    h("p", {}, t("table.draw_pile", { n: pub.cards.draw })),
    h("p", {}, t("table.general_discard", { n: pub.cards.general })),
    pub.material.mode === "house" ? h("p", {}, t("table.deck_left", { n: pub.material.deck_left })) : h("p", {}, t("table.physical_deck")));
}

/** What the pictures under each castle count (above the log, which gives up lines for it). */
function legendPanel() {
  return h("section", { class: "panel legend-panel" },
    h("ul", { class: "icon-legend" }, [["amulet", "hand.amulets"], ["cards", "table.cards_in_hand"],
      ["viking", "table.vikings_home"], ["shield", "table.defenders"]].map(([name, key]) =>
      h("li", { "data-icon": name }, icon(name), " ", t(key)))));
}

function castlePanel(pub, s, seat) {
  const info = seats()[seat];
  const defenders = pub.board[`castle:${seat}`] || [];
  const acting = pub.active.includes(seat);
  // each siege field sits above the two building sites it attacks (D3)
  const sides = SIDES.map((side) => h("div", { class: "side" },
    h("div", { class: "siege-field", title: t(`side.${side}`) },
      h("span", { class: "side-name" }, icon(side, t(`side.${side}`)), h("span", { class: "side-word" }, t(`side.${side}`))),
      h("span", { class: "siegers" }, vikingsOn(pub.board[`siege:${seat}:${side}`] || [], 6))),
    h("div", { class: "sites", ...room(`${seat}:${side}`) }, SIDE_SITES[side].map((site) => {
      const stack = s.castle[site - 1];
      return h("div", { class: "site" },
        h("div", { class: "stack" }, stack.map((stone, level) => stoneChip(stone, level >= stack.length - s.fresh[site - 1] ? "fresh" : ""))),
        h("span", { class: "site-no" }, site));
    }))));
  return h("section", { class: `panel castle colour-edge-${info.colour} ${acting ? "acting" : ""}`, dataset: { seat } },
    h("header", {},
      seatBadge(info),
      acting ? icon("turn", t("table.to_act")) : null,
      seat === pub.start_player ? h("span", { class: "tag start" }, t("lobby.starts")) : null,
      h("span", { class: "spacer" }),
      h("span", { class: "score" }, icon("star", t("hand.score")), " ", s.score.total)),
    h("div", { class: "castle-body" }, sides),
    h("footer", { class: "stats" },
      h("span", { title: t("hand.amulets") }, icon("amulet", t("hand.amulets")), " ", s.amulets),
      h("span", { title: t("table.cards_in_hand") }, icon("cards", t("table.cards_in_hand")), " ", s.hand),
      // at home: in the castle, as on the board; its defenders stand there too once revealed (R3.1)
      h("span", { title: t("table.vikings_home") }, icon("viking", t("table.vikings_home")), " ", s.home + (defenders[seat] || 0)),
      s.carry.length ? h("span", { class: "carry", title: t("table.carrying") }, stonesIn(s.carry)) : null,
      defenders.some(Boolean) ? h("span", { class: "defenders", title: t("table.defenders") }, icon("shield", t("table.defenders")), vikingsOn(defenders, 3)) : null,
      s.beside.length ? h("span", { class: "beside" }, t("table.beside"), " ", stonesIn(s.beside)) : null,
      s.discard.length ? h("span", { class: "muted discard" }, t("table.discard", { cards: s.discard.join(" ") })) : null),
    castleStatus(pub, s, seat));
}

/** Below each castle: its plan (committed, then revealed), or its building. */
function castleStatus(pub, s, seat) {
  const fingerprint = msg.table.fingerprints[String(seat)];
  const plan = pub.revealed && ["pick", "swap", "choose", "loot", "sharing"].includes(pub.phase) ? pub.revealed[String(seat)] : null;
  // an empty plan: every viking of this seat is in the hospital, and there was nothing to commit
  return h("div", { class: "castle-status" },
    pub.phase === "planning" || pub.phase === "reveal"
      ? h("p", { class: `commit ${s.committed ? "yes" : "no"}` }, s.committed ? t("table.committed") : t("table.planning"),
        fingerprint ? h("code", { class: "fingerprint", title: t("table.fingerprint_help") }, fingerprint) : null)
      : null,
    plan && Object.keys(plan).length ? planLine(pub, seat, plan) : null,
    pub.phase === "building" ? h("p", { class: `commit ${s.built ? "yes" : "no"}` }, s.built ? t("table.built") : t("table.building")) : null);
}

/** A revealed plan in a few marks: A ×2, ⚓ ◆ (the boat of ◆), 🛡 ×1 (its own castle). */
function planLine(pub, seat, plan) {
  const marks = Object.entries(plan).map(([dest, n]) => {
    const place = placeName(dest === "castle" ? `castle:${seat}` : dest, seats());
    let what;
    if (dest === "castle") {
      what = icon("shield");
    } else if (FIELDS.includes(dest)) {
      what = h("strong", { class: "field-mark" }, dest);
    } else {
      const [, owner, side] = dest.split(":");
      what = [icon(side), token(Number(owner))];
    }
    return h("span", { class: "plan-mark", title: place }, what, n > 1 ? `×${n}` : null);
  });
  return h("p", { class: "plan" },
    icon("viking", t("table.move_vikings")), " ",
    marks, " ",
    fingerprintMark(seat, plan));
}

function phasePanel(pub) {
  const body = [];
  switch (pub.phase) {
    case "materials":
      body.push(h("p", { class: "big-text" }, t("table.materials_wait", { name: name(pub.start_player) })));
      break;
    case "planning":
      body.push(h("p", { class: "big-text" }, t("table.planning_text")));
      body.push(h("p", {}, t("table.waiting_for", { names: pub.active.map(name).join(", ") })));
      body.push(h("p", { class: "muted" }, t("table.fingerprint_help")));
      break;
    case "reveal":
      body.push(h("p", { class: "big-text" }, t("table.all_committed")));
      break;
    case "round_end":
      body.push(h("p", { class: "big-text" }, t("round_end.title", { round: pub.round })));
      body.push(h("ul", {}, h("li", {}, t("round_end.hospital_table")), h("li", {}, t("round_end.stones")), h("li", {}, t("round_end.deck", { name: name(pub.start_player) }))));
      body.push(h("p", { class: "muted" }, t("table.next_hint")));
      break;
    case "building":
      body.push(h("p", { class: "big-text" }, t("table.building_text")));
      body.push(h("p", {}, t("table.waiting_for", { names: pub.active.map(name).join(", ") })));
      break;
    case "sharing":
      body.push(h("p", { class: "big-text" }, t("share.wait", { name: name(pub.sharing.turn), field: pub.sharing.field })));
      break;
    default:
      break;
  }
  if (pub.fight) {
    body.push(fightPanel(pub));
  } else if (pub.phase === "pick") {
    body.push(h("p", { class: "big-text" }, t("fight.wait_pick", { name: name(pub.turn) })));
    // right after the reveal: the plans are in the castles, the players move their vikings
    if (!pub.last_fight) body.push(h("p", {}, t("table.move_vikings_castles")));
  }
  if (pub.last_fight && !pub.fight && pub.phase !== "round_end") body.push(lastFightPanel(pub.last_fight));
  return h("section", { class: "panel phase-panel" }, body);
}

function fightPanel(pub) {
  const f = pub.fight;
  const title = f.kind === "siege"
    ? t(f.defended ? "fight.siege_title" : "fight.siege_undefended_title", { a: name(f.a), b: name(f.b), side: t(`side.${f.field.split(":")[2]}`) })
    : t("fight.fight_title", { a: name(f.a), b: name(f.b), place: placeName(f.field, seats()) });
  const revealed = pub.phase === "loot" && pub.last_fight;
  let status;
  if (pub.phase === "swap") status = t("fight.wait_swap", { name: name(f.swapper) });
  else if (pub.phase === "choose") status = t("fight.they_choose", { a: name(f.a), b: name(f.b) });
  else if (pub.phase === "loot") status = t("loot.wait", { name: name(f.a) });
  return h("div", { class: "fight" },
    h("p", { class: "fight-title" }, title),
    revealed ? duel(pub.last_fight, true) : duel(f, false),
    revealed ? fightResult(pub.last_fight) : null,
    status ? h("p", { class: "big-text" }, status) : null,
    f.swaps[0] || f.swaps[1] ? h("p", {}, t("table.swaps", { a: f.swaps[0], b: f.swaps[1] })) : null);
}

/** The two fighters side by side, each above their card: face down until both are revealed. */
function duel(fight, revealed) {
  const card = (i) => {
    if (revealed) return h("span", { class: `card card-${fight.values[i]}` }, fight.values[i]);
    const seat = i ? fight.b : fight.a;
    const chosen = fight.chosen[i];
    const fingerprint = msg.table.fingerprints[String(seat)];
    return h("span", { class: "card-slot" },
      h("span", { class: `card back ${chosen ? "chosen" : ""}` }, chosen ? "✓" : "?"),
      chosen && fingerprint ? h("code", { class: "fingerprint", title: t("table.fingerprint_help") }, fingerprint) : null);
  };
  return h("div", { class: `duel ${revealed ? "reveal-cards" : ""}` },
    seatBadge(seats()[fight.a], "fighter"), h("span", { class: "versus" }), seatBadge(seats()[fight.b], "fighter"),
    card(0), h("span", { class: "versus" }, ":"), card(1));
}

function fightResult(last) {
  return [
    h("p", {}, logLine({ e: "result", ...last }, seats())),
    h("p", { class: "checks" }, [last.a, last.b].map((seat, i) => fingerprintMark(seat, { card: last.cards[i] }))),
  ];
}

function lastFightPanel(last) {
  return h("div", { class: "last-fight" },
    h("h3", {}, t("fight.last")),
    duel(last, true),
    fightResult(last),
    last.loot && last.loot.kept ? h("p", {}, t("loot.taken_by", { name: name(last.a), stone: t(`stone.${last.loot.kept}`), removed: last.loot.removed.map((x) => t(`stone.${x}`)).join(", ") })) : null);
}

function logPanel(pub) {
  const lines = pub.log.map((e) => logLine(e, seats())).filter(Boolean).slice(-12).reverse();
  // the newest first; the oldest lines that do not fit are left out whole (data-whole-lines)
  return h("section", { class: "panel log" }, h("h2", {}, t("table.log")),
    h("ol", { "data-whole-lines": true }, lines.map((line) => h("li", {}, line))));
}

export default { id: "eketorp", screen: gameScreen, finalScreen, scoreTable, errorWords, logWords: (event) => logLine(event, seats()) };
