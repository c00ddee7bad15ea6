// Vikings Gone Wild on the table display: the score track with its favour spaces, the phase and
// whose turn it is, each player's village (town hall level, buildings with their construction and
// damage markers, Reserves), the attack in progress with its fingerprint and then its arithmetic,
// the log in words, and at the end the bonus cards, who met each, the split and the winner. Only
// the public view reaches this screen: never a held mission or an attack value before the
// defender answered. Loaded by the shell only when the table plays this game.

import { h, icon, seatBadge, styleSheet, t } from "/static/common.js";
import {
  ATTACK_POINTS, CARDS, attackWords, bonusName, breakdownSum, buildingName, endMark, endReason, errorWords, favourWhy,
  hallLabel, kindName, logLine, numbersWords, phaseName, productionWords, amountOf, tiebreakWords,
} from "/static/games/vikings_gone_wild.js";
import { fingerprintMark, msg, name, seats, token, url } from "../page.js";

await styleSheet(new URL("./vikings_gone_wild.css", import.meta.url).href);

const WHY = ["attacks", "rewards", "defence", "undead", "missions", "storage", "town_hall", "bonus", "correction"];

function gameScreen(pub) {
  return [
    h("header", { class: "titlebar" },
      h("h1", {}, t(`games.${msg.table.game}`)),
      h("span", { class: "pill" }, t("vgw.turn", { turn: pub.turn })),
      h("span", { class: "pill phase" }, phaseName(pub.phase)),
      h("span", { class: "pill", "data-end-mark": pub.end_mark }, t("vgw.end_mark", { mark: pub.end_mark })),
      pub.last_turn && pub.phase !== "over" ? h("span", { class: "pill warn" }, t("vgw.last_turn")) : null,
      msg.table.paused ? h("span", { class: "pill warn" }, t("game.paused")) : null,
      h("span", { class: "spacer" }),
      h("span", { class: "join-hint muted" }, t("game.join_hint", { url: "" }), url(msg.table.join_url))),
    track(pub),
    h("div", { class: "vgw-board" },
      h("div", { class: `vgw-villages n-${pub.players}` }, pub.seats.map((v) => village(pub, v))),
      h("div", { class: "vgw-side" }, statusPanel(pub), bonusPanel(pub), logPanel(pub))),
  ];
}

/** The score track: 0 to the end mark, the favour spaces at 5, 12 and 20, each player's marker. */
function track(pub) {
  const at = {};
  for (const v of pub.seats) {
    const space = Math.min(v.score, pub.end_mark);
    (at[space] = at[space] || []).push(v.seat);
  }
  const cells = [];
  for (let space = 0; space <= pub.end_mark; space++) {
    const favour = pub.favour_spaces.includes(space);
    const end = space === pub.end_mark;
    cells.push(h("li", { class: `vgw-space ${favour ? "favour" : ""} ${end ? "end" : ""}`, "data-space": space },
      h("span", { class: "n" }, favour ? [icon("star"), String(space)] : String(space)),
      h("span", { class: "markers" }, (at[space] || []).map((s) => token(s)))));
  }
  return h("section", { class: "panel vgw-track", "aria-label": t("vgw.track") },
    h("ol", { style: { gridTemplateColumns: `repeat(${pub.end_mark + 1}, minmax(0, 1fr))` } }, cells));
}

function marker(kind) {
  return h("span", { class: `vgw-tag ${kind}`, title: t(`vgw.marker.${kind}`) }, kind === "new" ? "⚒ " : "✖ ", t(`vgw.marker.${kind}`));
}

/** A player's village: score, favours, missions held (how many, never which), town hall, buildings. */
function village(pub, v) {
  const hall = v.town_hall;
  const turn = pub.current === v.seat || (pub.active.includes(v.seat) && pub.phase !== "players");
  const fig = productionWords(v.figures);
  return h("section", { class: `panel vgw-village ${turn ? "turn" : ""} ${pub.attack && pub.attack.target === v.seat ? "defending" : ""}`, "data-seat": v.seat },
    h("div", { class: "vgw-vhead" }, seatBadge(seats()[v.seat]), turn ? icon("turn", t("vgw.their_turn")) : null,
      pub.first === v.seat ? h("span", { class: "vgw-first", "data-first": v.seat }, "①\u00a0", t("vgw.first_token")) : null,
      h("span", { class: "spacer" }), h("strong", { class: "vgw-score" }, icon("star"), " ", String(v.score))),
    h("p", { class: "vgw-facts" }, t("vgw.table.facts", { favours: v.favours, missions: v.missions_held, done: v.missions_done.length })),
    ["production", "draw"].includes(pub.phase) ? h("p", { class: "vgw-production" }, fig.line) : null,
    h("p", { class: `vgw-hall ${hall.damaged ? "damaged" : ""}` }, icon("hall"), " ", hallLabel(hall.level),
      hall.new ? marker("new") : null, hall.damaged ? marker("damaged") : null),
    h("ul", { class: "vgw-blist" }, v.buildings.map((b) => h("li", { class: `vgw-b ${b.new ? "new" : ""} ${b.damaged ? "damaged" : ""}`, "data-kind": b.kind },
      h("span", { class: "bname" }, kindName(b.kind)),
      b.stock !== null ? h("span", { class: "stock" }, amountOf(b.stock, b.resource)) : null,
      b.new ? marker("new") : null, b.damaged ? marker("damaged") : null))),
    h("p", { class: "vgw-limit muted" }, v.limit === null
      ? t("vgw.build.no_limit", { n: v.buildings.length })
      : t("vgw.build.limit", { n: v.buildings.length, max: v.limit, level: hall.active_level })));
}

/** Whose turn it is, the attack in progress with its fingerprint, the last attack's arithmetic. */
function statusPanel(pub) {
  const body = [];
  if (pub.phase === "players" && pub.current !== null) {
    body.push(h("p", { class: "big-text" }, t("vgw.table.turn_of", { name: name(pub.current) })));
    if (pub.target !== null) {
      body.push(h("p", {}, t("vgw.table.target", { name: name(pub.target), n: pub.successes, points: ATTACK_POINTS(pub.successes) })));
    }
  } else if (pub.phase === "defend" && pub.attack) {
    const a = pub.attack;
    const known = pub.numbers[a.card];
    body.push(h("p", { class: "big-text" }, t("vgw.table.attack", {
      name: name(a.attacker), owner: name(a.target), building: buildingName(pub, a.target, a.building), cards: a.cards,
    })));
    body.push(h("p", {}, t("vgw.table.defence_known", { numbers: numbersWords(known) })));
    const fp = msg.table.fingerprints[a.attacker];
    body.push(h("p", { class: "vgw-fingerprint" }, t("vgw.table.fingerprint"), " ", h("code", {}, (fp || "").slice(0, 8))));
    body.push(h("p", { class: "muted" }, t("vgw.table.wait_defence", { name: name(a.target) })));
  } else if (pub.active.length) {
    body.push(h("p", { class: "big-text" }, t("vgw.table.waiting", { names: pub.active.map(name).join(", ") })));
  } else if (pub.phase !== "over") {
    body.push(h("p", { class: "big-text" }, t("vgw.table.press_next", { phase: phaseName(pub.phase) })));
  }
  // a divine favour earned: its player takes the card from the table (W8.1-W8.3)
  for (const f of pub.favours_now) {
    body.push(h("p", { class: "vgw-favour-prompt", "data-favour-seat": f.seat }, icon("star"), " ",
      t("vgw.table.take_favour", { name: name(f.seat), why: favourWhy(f.why) })));
  }
  if (pub.last_attack && ["players", "defend"].includes(pub.phase)) {
    const a = pub.last_attack;
    const words = attackWords(pub, a, name);
    const check = fingerprintMark(a.attacker, { target: a.target, building: a.building, attack: a.attack, cards: a.attack_cards });
    body.push(h("div", { class: `vgw-result ${a.success ? "success" : "repelled"}` },
      h("p", {}, words.sum), h("p", { class: "vgw-compare" }, words.compare, " ", check), h("p", {}, words.verdict)));
  }
  if (pub.phase === "over" && pub.result) {
    body.push(h("p", { class: "big-text" }, icon("star"), " ", t("vgw.table.winners", { names: pub.result.winners.map(name).join(", ") })));
  }
  return h("section", { class: "panel vgw-status", role: "status" }, body);
}

/** The 4 bonus cards in play from the start; once everyone answered, who met each and the split
 * (W9.4), and the tie-break's cards (W9.6). */
function bonusPanel(pub) {
  const claims = pub.claims;
  const rows = pub.bonus.map((id, k) => {
    const met = claims ? claims.map((c, s) => (c && c[k] ? s : null)).filter((s) => s !== null) : null;
    const share = met && met.length ? ({ 1: 6, 2: 3, 3: 2, 4: 1 })[met.length] : 0;
    return h("li", { "data-bonus": id }, h("strong", {}, bonusName(id, pub)),
      met === null ? null : [": ", met.length ? [met.map((s) => token(s)), " ", t("vgw.table.split", { points: share, n: met.length })] : t("vgw.nobody")]);
  });
  const tb = pub.tiebreak;
  return h("section", { class: "panel vgw-bonus" },
    h("h2", {}, t("vgw.bonus_title")),
    h("ul", {}, rows),
    pub.phase === "bonus" ? h("p", { class: "muted" }, t("vgw.table.answered", { n: pub.seats.filter((s) => s.answered).length, of: pub.players })) : null,
    tb && tb.drawn.length ? h("p", {}, t("vgw.table.tiebreak", { cards: tb.drawn.map((id) => bonusName(id, pub)).join(", "), names: tb.tied.map(name).join(", ") })) : null);
}

function logPanel(pub) {
  const lines = pub.log.map((e) => logLine(e, pub, name)).filter(Boolean).slice(-12).reverse();
  return h("section", { class: "panel vgw-log log" }, h("h2", {}, t("vgw.table.log")),
    h("ol", { "data-whole-lines": true }, lines.map((text, i) => h("li", { class: i === 0 ? "newest" : "" }, text))));
}

/** The final score: each player's points by where they came from, the bonus split, the total. */
function scoreTable(result) {
  const winners = new Set(result.winners);
  const used = WHY.filter((why) => result.scores.some((s) => s.breakdown[why]));
  const pub = msg.game && msg.game.game === "vikings_gone_wild" && msg.game.public.phase === "over" ? msg.game.public : null;
  return h("div", {},
    h("table", { class: "scores" },
      h("thead", {}, h("tr", {}, h("th", {}, ""), used.map((why) => h("th", {}, t(`vgw.why.${why}`))), h("th", {}, t("score.total")))),
      h("tbody", {}, result.scores.map((score, i) => h("tr", { class: winners.has(i) ? "winner" : "" },
        h("th", {}, seatBadge(result.seats[i])),
        used.map((why) => h("td", {}, String(score.breakdown[why] || 0))),
        h("td", { class: "total", title: breakdownSum(score.breakdown, score.total) }, String(score.total)))))),
    pub ? tiebreakWords(pub, (s) => (result.seats[s] || {}).name).map((line) => h("p", { class: "vgw-tiebreak-line" }, line)) : null,
    pub ? h("ul", { class: "vgw-final-bonus" }, pub.bonus.map((id, k) => {
      const met = (pub.claims || []).map((c, s) => (c && c[k] ? s : null)).filter((s) => s !== null);
      const share = ({ 1: 6, 2: 3, 3: 2, 4: 1 })[met.length] || 0;
      return h("li", {}, h("strong", {}, bonusName(id, pub)), ": ", met.length
        ? [met.map((s) => (result.seats[s] || {}).name).join(", "), " ", t("vgw.table.split", { points: share, n: met.length })]
        : t("vgw.nobody"));
    })) : null);
}

/** The lobby: the end mark the next game plays to (W9.1, W9.2) and how many cards' numbers the
 * table keeps from earlier games (D1). */
function lobbyFacts(table) {
  const mark = endMark(table.seats.length, table.options.end_mark || 0);
  const kept = table.options.numbers || {};
  return h("p", { class: "vgw-lobby-facts", "data-end-mark": mark },
    t(table.options.end_mark ? "vgw.lobby.end_mark_variant" : "vgw.lobby.end_mark", { mark }), " · ",
    t("vgw.lobby.kept", { n: CARDS.filter((c) => kept[c]).length }));
}

export default {
  id: "vikings_gone_wild", screen: gameScreen, scoreTable, errorWords, lobbyFacts, endReason,
  logWords: (event) => logLine(event, msg.game.public, name),
};
