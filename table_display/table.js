// The table display: the public board on the TV by the table. It needs no keyboard, mouse or
// touch: everything is done from the phones and the buttons. Any other screen may open it as a
// spectator. It only ever receives the public view.

import {
  FIELDS, SIDES, SIDE_SITES, STATIONS, STONES, clear, connectTable, errorText, h, icon, languageSwitch,
  chosenHere, loadLanguage, logLine, pickLanguage, placeName, seatBadge, stoneChip, t,
} from "/static/common.js";
import { canonical, verifyReveal } from "/static/sha256.js";
import { standingNotices } from "/table/notices.js";
import { startKiosk } from "/table/kiosk.js";

const app = document.getElementById("app");
let msg = null;
let online = false;
let toast = null;
let toastTimer = null;
// Draw times of the last updates, read by the benchmark (bench/pages.py).
const drawTimes = [];
window.__longhallDrawTimes = drawTimes;
// Fingerprints this screen showed while choices were secret, and what checking each revealed
// choice against them gave (by salt): anyone watching can trust that nobody changed a plan.
const shown = {};
const checked = {};
// The latest reveal of each seat's choice, by game, seat and content: the table keeps only its
// last few reveals, and a round with many fights would push the plans out of the list while they
// are still shown in the castles.
const reveals = new Map();
const revealKey = (seat, content) => `${msg.table.game_id}:${seat}:${canonical(content)}`;

function checkFingerprints() {
  for (const [seat, fingerprint] of Object.entries(msg.table.fingerprints)) shown[seat] = fingerprint;
  for (const reveal of msg.table.reveals) {
    if (reveal.salt in checked) continue;
    checked[reveal.salt] = verifyReveal(reveal, shown[String(reveal.seat)]);
    reveals.set(revealKey(reveal.seat, reveal.content), reveal);
  }
}

/** The check mark for a revealed choice of ``seat`` equal to ``content``, if it was fingerprinted. */
function fingerprintMark(seat, content) {
  const reveal = reveals.get(revealKey(seat, content)); // canonical: key order may differ
  if (!reveal) return null;
  return checked[reveal.salt]
    ? h("span", { class: "check ok", title: t("table.fingerprint_ok") }, "✓ ", reveal.hash.slice(0, 8))
    : h("span", { class: "check bad" }, "✗ ", t("table.fingerprint_bad"));
}

/** The language the host chose for the table display, unless this screen chose its own. */
async function followHost() {
  if (!msg || chosenHere()) return;
  const wanted = msg.table.language || pickLanguage();
  if (wanted !== document.documentElement.lang) {
    await loadLanguage(wanted);
    render();
  }
}

async function boot() {
  startKiosk();
  await loadLanguage(pickLanguage());
  connectTable({}, {
    state(message) {
      msg = message;
      render();
      followHost();
    },
    notice(notice) {
      toast = errorText(notice);
      clearTimeout(toastTimer);
      toastTimer = setTimeout(() => { toast = null; render(); }, 8000);
      render();
    },
    status(isOnline) {
      online = isOnline;
      render();
    },
    fatal() {},
  });
  render();
}

function render() {
  const started = performance.now();
  Object.assign(document.body.dataset, {
    version: msg ? msg.version : "",
    status: msg ? msg.table.status : "",
    phase: msg && msg.game ? msg.game.public.phase : "",
    online: online ? "true" : "false",
  });
  clear(app);
  const playing = msg && msg.table.status === "playing" && msg.game;
  // the class says which screen this is and, in a game, how many castles share the middle
  app.className = playing ? `game players-${msg.game.public.players}` : "lobby";
  if (msg) checkFingerprints();
  if (!msg) {
    app.append(h("p", { class: "center muted" }, t("conn.connecting")));
  } else if (playing) {
    app.append(...gameScreen());
  } else {
    app.append(...lobbyScreen());
  }
  if (msg && msg.table.hardware.status === "failed") {
    const code = msg.table.hardware.code || "hardware_failed";
    app.append(h("div", { class: "banner warn", role: "status" }, t(`hardware.${code}`)));
  }
  if (toast) app.append(h("div", { class: "toast toast-notice", role: "status" }, toast));
  app.append(...standingNotices(msg));
  if (!online && msg) app.append(h("div", { class: "banner offline-banner", role: "alert" }, t("conn.lost_table")));
  drawTimes.push(performance.now() - started);
  if (drawTimes.length > 500) drawTimes.shift();
}

function seats() {
  return msg.table.seats;
}

function name(seat) {
  const s = seats()[seat];
  return s ? `${s.symbol} ${s.name}` : "?";
}

// -- pieces on the board -------------------------------------------------------------------------

/**
 * Pieces in groups ({make, n}): one by one while there are at most ``most`` in all, else one of
 * each group with its count ("×3"), so a crowded place still fits on one or two lines.
 */
function pieces(groups, most) {
  const total = groups.reduce((sum, group) => sum + group.n, 0);
  const out = [];
  for (const group of groups) {
    if (!group.n) continue;
    if (total <= most) {
      for (let i = 0; i < group.n; i++) out.push(group.make());
    } else {
      out.push(h("span", { class: "group" }, group.make(), group.n > 1 ? h("span", { class: "times" }, `×${group.n}`) : null));
    }
  }
  return out;
}

function token(seat) {
  const info = seats()[seat];
  return h("span", { class: `viking-token colour-${info.colour}`, title: info.name }, info.symbol);
}

/** The vikings of each seat on a place (a list of counts by seat). */
function vikingsOn(occ, most = 4) {
  return pieces(occ.map((n, seat) => ({ n, make: () => token(seat) })), most);
}

function stonesOf(counts, most = 4) {
  return pieces(STONES.map((stone) => ({ n: counts[stone] || 0, make: () => stoneChip(stone) })), most);
}

function stonesIn(list, most = 3) {
  const counts = {};
  for (const stone of list) counts[stone] = (counts[stone] || 0) + 1;
  return stonesOf(counts, most);
}

/** An address split only at its slashes, so the join code is never cut in two. */
function url(address) {
  const parts = address.match(/[^/]*\/*/g).filter(Boolean);
  const out = [];
  parts.forEach((part, i) => {
    if (i) out.push(h("wbr"));
    out.push(h("span", { class: "nobreak" }, part));
  });
  return out;
}

// -- the lobby -----------------------------------------------------------------------------------

function lobbyScreen() {
  const table = msg.table;
  const over = table.status === "over" && table.result;
  const qr = h("img", { class: "qr big", src: "/qr/join.svg?for=" + encodeURIComponent(table.join_url), alt: t("lobby_table.qr_alt") });
  const heading = h("h2", {}, t("lobby_table.scan"));
  const address = h("p", { class: "url", id: "join-url" }, url(table.join_url));
  // before a game the QR code is as big as the screen allows; after one, the scores come first
  const join = over
    ? h("section", { class: "panel join" }, qr, h("div", { class: "join-text" }, heading, address))
    : h("section", { class: "panel join" }, h("div", { class: "join-text" }, heading), qr, h("div", { class: "join-text" }, address));
  const list = h("ol", { class: "seats big" }, table.seats.map((s, i) =>
    h("li", {}, seatBadge(s),
      s.host ? h("span", { class: "tag" }, t("lobby.host")) : null,
      s.kind === "bot" ? h("span", { class: "tag" }, t(`lobby.bot_${s.bot}`)) : null,
      i === table.start_player ? h("span", { class: "tag start" }, t("lobby.starts")) : null,
      s.kind === "human" && !s.connected ? h("span", { class: "tag away" }, t("lobby.away")) : null)));
  const n = table.seats.length;
  const parts = [
    h("header", { class: "titlebar" }, h("h1", {}, "Longhall · ", t(`games.${table.game}`)), h("span", { class: "spacer" }), languageSwitch(render)),
  ];
  if (over) parts.push(finalScores(table.result));
  parts.push(h("div", { class: `lobby-grid ${over ? "after-game" : ""}` }, join,
    h("div", { class: "lobby-side" },
      h("section", { class: "panel" },
        h("h2", {}, t("lobby.seats", { n, max: table.max_players })),
        n ? list : h("p", { class: "muted" }, t("lobby_table.empty")),
        h("p", { class: "muted" }, n >= table.min_players ? t("lobby_table.ready") : t("lobby_table.need", { min: table.min_players }))),
      table.hotspot ? h("section", { class: "panel wifi" },
        h("img", { class: "qr", src: "/qr/wifi.svg", alt: t("lobby_table.wifi_alt") }),
        h("p", {}, t("lobby_table.wifi", { ssid: table.hotspot.ssid }))) : null)));
  return parts;
}

function finalScores(result) {
  if (!result.scores) return h("section", { class: "panel final" }, h("h2", {}, t("score.abandoned")));
  const cats = ["amulets", ...STONES, "complete"];
  const winners = new Set(result.winners);
  return h("section", { class: "panel final" },
    h("div", { class: "final-head" },
      h("h2", {}, result.status === "abandoned" ? t("score.abandoned") : t("score.title")),
      result.winners.length ? h("p", { class: "winners" }, icon("star"), " ", t("score.winners", { names: result.winners.map((w) => (result.seats[w] || {}).name).join(", ") })) : null),
    h("table", { class: "scores" },
      h("thead", {}, h("tr", {}, h("th", {}, ""), cats.map((c) => h("th", {}, t(`score.${c}`))), h("th", {}, t("score.total")))),
      h("tbody", {}, result.scores.map((score, i) => h("tr", { class: winners.has(i) ? "winner" : "" },
        h("th", {}, seatBadge(result.seats[i])),
        cats.map((c) => h("td", {}, h("span", { class: "count" }, `${score.breakdown[c].count}×`), " ", score.breakdown[c].points)),
        h("td", { class: "total" }, score.total))))));
}

// -- the game ------------------------------------------------------------------------------------

function gameScreen() {
  const pub = msg.game.public;
  return [
    h("header", { class: "titlebar" },
      h("h1", {}, t(`games.${msg.table.game}`)),
      h("span", { class: "pill" }, t("game.round", { round: pub.round, max: pub.max_rounds })),
      h("span", { class: "pill phase" }, t(`phase.${pub.phase}`)),
      msg.table.paused ? h("span", { class: "pill warn" }, t("game.paused")) : null,
      h("span", { class: "spacer" }),
      h("span", { class: "join-hint muted" }, t("game.join_hint", { url: "" }), url(msg.table.join_url))),
    h("div", { class: "board" },
      h("div", { class: "left" }, fieldsPanel(pub), hospitalPanel(pub), cardsPanel(pub)),
      h("div", { class: "castles" }, pub.seats.map((s, i) => castlePanel(pub, s, i))),
      h("div", { class: "right" }, phasePanel(pub), logPanel(pub))),
  ];
}

function fieldsPanel(pub) {
  return h("section", { class: "panel fields-panel" },
    h("h2", {}, t("table.fields_heading")),
    h("div", { class: "field-list" }, FIELDS.map((field) => {
      const occ = pub.board[field] || [];
      // a row holds about 8 pieces: the vikings get what the stones leave
      const stones = STONES.reduce((sum, stone) => sum + (pub.fields[field][stone] || 0), 0);
      return h("div", { class: `field ${pub.sharing && pub.sharing.field === field ? "active" : ""}` },
        h("strong", { class: "field-letter" }, field),
        h("span", { class: "field-stones" }, stonesOf(pub.fields[field], 4)),
        h("span", { class: "field-vikings" }, vikingsOn(occ, 8 - Math.min(stones, 4))));
    })));
}

function hospitalPanel(pub) {
  // the stations in the direction of the arrow, top to bottom
  return h("section", { class: "panel hospital" },
    h("h2", {}, icon("hospital"), " ", t("table.hospital")),
    h("ol", { class: "stations" }, [...STATIONS, "healthy"].map((station, index) =>
      h("li", { class: "station" },
        h("span", { class: "station-name" }, index ? "↓ " : "", t(`station.${station}`)),
        h("span", { class: "station-vikings" }, index < 3 ? vikingsOn(pub.seats.map((s) => s.hospital[index]), 6) : null)))));
}

function cardsPanel(pub) {
  return h("section", { class: "panel cards-panel" },
    h("p", {}, t("table.draw_pile", { n: pub.cards.draw })),
    h("p", {}, t("table.general_discard", { n: pub.cards.general })),
    pub.material.mode === "house" ? h("p", {}, t("table.deck_left", { n: pub.material.deck_left })) : h("p", {}, t("table.physical_deck")));
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
    h("div", { class: "sites" }, SIDE_SITES[side].map((site) => {
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
      h("span", { title: t("table.vikings_home") }, icon("viking", t("table.vikings_home")), " ", s.home),
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

boot();
