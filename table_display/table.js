// The table display: the public board on the TV by the table. It needs no keyboard, mouse or
// touch: everything is done from the phones and the buttons. Any other screen may open it as a
// spectator. It only ever receives the public view.

import {
  FIELDS, SIDES, SIDE_SITES, STATIONS, STONES, clear, connectTable, errorText, h, icon, languageSwitch,
  chosenHere, loadLanguage, logLine, pickLanguage, placeName, seatBadge, stoneChip, stoneCounts, t,
} from "/static/common.js";
import { canonical, verifyReveal } from "/static/sha256.js";

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

function checkFingerprints() {
  for (const [seat, fingerprint] of Object.entries(msg.table.fingerprints)) shown[seat] = fingerprint;
  for (const reveal of msg.table.reveals) {
    if (!(reveal.salt in checked)) checked[reveal.salt] = verifyReveal(reveal, shown[String(reveal.seat)]);
  }
}

/** The check mark for a revealed choice of ``seat`` equal to ``content``, if it was fingerprinted. */
function fingerprintMark(seat, content) {
  const text = canonical(content); // key order may differ between the view and the reveal
  const reveal = [...msg.table.reveals].reverse().find((r) => r.seat === seat && canonical(r.content) === text);
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
  if (msg) checkFingerprints();
  if (!msg) {
    app.append(h("p", { class: "center muted" }, t("conn.connecting")));
  } else if (msg.table.status === "playing" && msg.game) {
    app.append(...gameScreen());
  } else {
    app.append(...lobbyScreen());
  }
  if (msg && msg.table.hardware.status === "failed") {
    const code = msg.table.hardware.code || "hardware_failed";
    app.append(h("div", { class: "banner warn", role: "status" }, t(`hardware.${code}`)));
  }
  if (toast) app.append(h("div", { class: "toast toast-notice", role: "status" }, toast));
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

// -- the lobby -----------------------------------------------------------------------------------

function lobbyScreen() {
  const table = msg.table;
  const join = h("div", { class: "join" },
    h("img", { class: "qr big", src: "/qr/join.svg?for=" + encodeURIComponent(table.join_url), alt: t("lobby_table.qr_alt") }),
    h("div", {},
      h("h2", {}, t("lobby_table.scan")),
      h("p", { class: "url", id: "join-url" }, table.join_url),
      table.hotspot ? h("div", { class: "wifi" },
        h("img", { class: "qr", src: "/qr/wifi.svg", alt: t("lobby_table.wifi_alt") }),
        h("p", {}, t("lobby_table.wifi", { ssid: table.hotspot.ssid }))) : null));
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
  if (table.status === "over" && table.result) parts.push(finalScores(table.result));
  parts.push(h("div", { class: "lobby-grid" }, join,
    h("section", { class: "panel" },
      h("h2", {}, t("lobby.seats", { n, max: table.max_players })),
      n ? list : h("p", { class: "muted" }, t("lobby_table.empty")),
      h("p", { class: "muted" }, n >= table.min_players ? t("lobby_table.ready") : t("lobby_table.need", { min: table.min_players })))));
  return parts;
}

function finalScores(result) {
  if (!result.scores) return h("section", { class: "panel final" }, h("h2", {}, t("score.abandoned")));
  const cats = ["amulets", ...STONES, "complete"];
  const winners = new Set(result.winners);
  return h("section", { class: "panel final" },
    h("h2", {}, result.status === "abandoned" ? t("score.abandoned") : t("score.title")),
    result.winners.length ? h("p", { class: "winners" }, t("score.winners", { names: result.winners.map((w) => (result.seats[w] || {}).name).join(", ") })) : null,
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
      h("span", { class: "pill" }, t("game.start_player", { name: name(pub.start_player) })),
      msg.table.paused ? h("span", { class: "pill warn" }, t("game.paused")) : null,
      h("span", { class: "spacer" }),
      h("span", { class: "muted small-text" }, t("game.join_hint", { url: msg.table.join_url })),
      languageSwitch(render)),
    h("div", { class: "board" },
      h("div", { class: "left" }, fieldsPanel(pub), hospitalPanel(pub), cardsPanel(pub)),
      h("div", { class: `castles players-${pub.players}` }, pub.seats.map((s, i) => castlePanel(pub, s, i))),
      h("div", { class: "right" }, phasePanel(pub), logPanel(pub))),
  ];
}

function fieldsPanel(pub) {
  return h("section", { class: "panel fields-panel" },
    h("h2", {}, t("table.fields")),
    h("div", { class: "field-list" }, FIELDS.map((field) => {
      const occ = pub.board[field] || [];
      return h("div", { class: `field ${pub.sharing && pub.sharing.field === field ? "active" : ""}` },
        h("strong", { class: "field-letter" }, field),
        h("span", { class: "chips" }, stoneCounts(pub.fields[field])),
        h("span", { class: "vikings-on" }, vikingsOn(occ)));
    })));
}

function vikingsOn(occ) {
  const out = [];
  occ.forEach((n, seat) => {
    for (let i = 0; i < n; i++) out.push(h("span", { class: `viking-token colour-${seats()[seat].colour}` }, seats()[seat].symbol));
  });
  return out;
}

function hospitalPanel(pub) {
  return h("section", { class: "panel" },
    h("h2", {}, t("table.hospital")),
    h("div", { class: "stations" }, [...STATIONS, "healthy"].map((station, index) =>
      h("div", { class: "station" },
        h("span", { class: "station-name" }, t(`station.${station}`)),
        h("span", {}, index < 3 ? pub.seats.flatMap((s, seat) =>
          Array.from({ length: s.hospital[index] }, () => h("span", { class: `viking-token colour-${seats()[seat].colour}` }, seats()[seat].symbol))) : [])))),
    h("p", { class: "muted small-text" }, t("table.hospital_help")));
}

function cardsPanel(pub) {
  return h("section", { class: "panel small-text" },
    h("p", {}, t("table.draw_pile", { n: pub.cards.draw })),
    h("p", {}, t("table.general_discard", { n: pub.cards.general })),
    pub.material.mode === "house" ? h("p", {}, t("table.deck_left", { n: pub.material.deck_left })) : h("p", {}, t("table.physical_deck")));
}

function castlePanel(pub, s, seat) {
  const info = seats()[seat];
  const defenders = (pub.board[`castle:${seat}`] || [])[seat] || 0;
  const fingerprint = msg.table.fingerprints[String(seat)];
  const acting = pub.active.includes(seat);
  // each siege field sits above the two building sites it attacks (D3)
  const sides = SIDES.map((side) => h("div", { class: "side" },
    h("div", { class: "siege-field" },
      h("span", { class: "side-name" }, t(`side.${side}`)),
      h("span", {}, vikingsOn(pub.board[`siege:${seat}:${side}`] || []))),
    h("div", { class: "sites" }, SIDE_SITES[side].map((site) => {
      const stack = s.castle[site - 1];
      return h("div", { class: "site" },
        h("div", { class: "stack" }, stack.map((stone, level) => stoneChip(stone, level >= stack.length - s.fresh[site - 1] ? "fresh" : ""))),
        h("span", { class: "site-no" }, site));
    }))));
  return h("section", { class: `panel castle colour-edge-${info.colour} ${acting ? "acting" : ""}` },
    h("header", {}, seatBadge(info), seat === pub.start_player ? h("span", { class: "tag start" }, t("lobby.starts")) : null,
      h("span", { class: "spacer" }), h("span", { class: "score" }, icon("star", t("hand.score")), " ", s.score.total)),
    h("div", { class: "castle-body" }, sides),
    h("div", { class: "keep" },
      defenders ? h("span", { title: t("table.defenders") }, icon("shield", t("table.defenders")), " ", vikingsOn(pub.board[`castle:${seat}`] || [])) : null,
      s.beside.length ? h("span", { class: "small-text" }, t("table.beside"), " ", s.beside.map((x) => stoneChip(x))) : null),
    h("footer", { class: "stats" },
      h("span", { title: t("hand.amulets") }, icon("amulet", t("hand.amulets")), " ", s.amulets),
      h("span", { title: t("table.cards_in_hand") }, icon("cards", t("table.cards_in_hand")), " ", s.hand),
      h("span", { title: t("table.vikings_home") }, icon("viking", t("table.vikings_home")), " ", s.home),
      s.carry.length ? h("span", { title: t("table.carrying") }, s.carry.map((x) => stoneChip(x, "tiny"))) : null,
      pub.phase === "planning" || pub.phase === "reveal"
        ? h("span", { class: `commit ${s.committed ? "yes" : "no"}` }, s.committed ? t("table.committed") : t("table.planning"),
          fingerprint ? h("code", { class: "fingerprint", title: t("table.fingerprint_help") }, fingerprint) : null)
        : null,
      pub.phase === "building" ? h("span", { class: `commit ${s.built ? "yes" : "no"}` }, s.built ? t("table.built") : t("table.building")) : null,
      s.discard.length ? h("span", { class: "small-text muted" }, t("table.discard", { cards: s.discard.join(" ") })) : null));
}

function phasePanel(pub) {
  const body = [];
  switch (pub.phase) {
    case "materials":
      body.push(h("p", {}, t("table.materials_wait", { name: name(pub.start_player) })));
      break;
    case "planning":
      body.push(h("p", { class: "big-text" }, t("table.planning_text")));
      body.push(h("p", {}, t("table.waiting_for", { names: pub.active.map(name).join(", ") })));
      body.push(h("p", { class: "muted small-text" }, t("table.fingerprint_help")));
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
  if (pub.fight) body.push(fightPanel(pub));
  else if (pub.phase === "pick") body.push(h("p", { class: "big-text" }, t("fight.wait_pick", { name: name(pub.turn) })));
  if (pub.last_fight && !pub.fight) body.push(lastFightPanel(pub.last_fight));
  if (pub.revealed && ["pick", "swap", "choose", "loot", "sharing"].includes(pub.phase)) body.push(revealPanel(pub));
  return h("section", { class: "panel phase-panel" }, h("h2", {}, t(`phase.${pub.phase}`)), body);
}

function fightPanel(pub) {
  const f = pub.fight;
  const title = f.kind === "siege"
    ? t(f.defended ? "fight.siege_title" : "fight.siege_undefended_title", { a: name(f.a), b: name(f.b), side: t(`side.${f.field.split(":")[2]}`) })
    : t("fight.fight_title", { a: name(f.a), b: name(f.b), place: placeName(f.field, seats()) });
  let status;
  if (pub.phase === "swap") status = t("fight.wait_swap", { name: name(f.swapper) });
  else if (pub.phase === "choose") status = t("fight.they_choose", { a: name(f.a), b: name(f.b) });
  else if (pub.phase === "loot") status = t("loot.wait", { name: name(f.a) });
  return h("div", { class: "fight" },
    h("p", { class: "big-text" }, title),
    h("div", { class: "duel" },
      seatBadge(seats()[f.a]), cardBack(f.a, f.chosen[0]),
      h("span", {}, ":"),
      cardBack(f.b, f.chosen[1]), seatBadge(seats()[f.b])),
    status ? h("p", {}, status) : null,
    f.swaps[0] || f.swaps[1] ? h("p", { class: "small-text" }, t("table.swaps", { a: f.swaps[0], b: f.swaps[1] })) : null,
    pub.phase === "loot" && pub.last_fight ? lastFightPanel(pub.last_fight) : null);
}

function cardBack(seat, chosen) {
  const fingerprint = msg.table.fingerprints[String(seat)];
  return h("span", { class: "card-slot" },
    h("span", { class: `card back ${chosen ? "chosen" : ""}` }, chosen ? "✓" : "?"),
    chosen && fingerprint ? h("code", { class: "fingerprint", title: t("table.fingerprint_help") }, fingerprint) : null);
}

function lastFightPanel(last) {
  return h("div", { class: "last-fight" },
    h("h3", {}, t("fight.last")),
    h("div", { class: "duel reveal-cards" },
      seatBadge(seats()[last.a]), h("span", { class: `card card-${last.values[0]}` }, last.values[0]),
      h("span", {}, ":"),
      h("span", { class: `card card-${last.values[1]}` }, last.values[1]), seatBadge(seats()[last.b])),
    h("p", {}, logLine({ e: "result", ...last }, seats())),
    h("p", { class: "small-text" }, [last.a, last.b].map((seat, i) => fingerprintMark(seat, { card: last.cards[i] }))),
    last.loot && last.loot.kept ? h("p", {}, t("loot.taken_by", { name: name(last.a), stone: t(`stone.${last.loot.kept}`), removed: last.loot.removed.map((x) => t(`stone.${x}`)).join(", ") })) : null);
}

function revealPanel(pub) {
  // always open: the table display has no mouse to open anything with
  return h("section", { class: "revealed" },
    h("h3", {}, t("table.move_vikings")),
    h("ul", {}, Object.entries(pub.revealed).map(([seat, plan]) =>
      h("li", {}, h("strong", {}, name(Number(seat))), ": ",
        Object.entries(plan).map(([dest, n]) => `${placeName(dest === "castle" ? `castle:${seat}` : dest, seats())} ×${n}`).join(", ") || t("table.nothing_planned"),
        " ", fingerprintMark(Number(seat), plan)))));
}

function logPanel(pub) {
  const lines = pub.log.map((e) => logLine(e, seats())).filter(Boolean).slice(-9).reverse();
  return h("section", { class: "panel log" }, h("h2", {}, t("table.log")), h("ol", {}, lines.map((line) => h("li", {}, line))));
}

boot();
