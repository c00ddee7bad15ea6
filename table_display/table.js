// The table display: the public board on the TV by the table. It needs no keyboard, mouse or
// touch: everything is done from the phones and the buttons. Any other screen may open it as a
// spectator. It only ever receives the public view. This is its shell (the lobby, the final
// score's frame, the offline banner); each game's board is its own module
// (table_display/games/<game>.js), loaded only when the table plays that game.

import {
  chosenHere, connectTable, errorText, gameFacts, h, languageSwitch, loadLanguage, oncePerFrame, pickLanguage,
  seatBadge, show, t, takenBack,
} from "/static/common.js";
import {
  checkFingerprints, currentGame, finalScores, gameModule, msg, name, online, render, setMsg, setOnline, setRenderer,
  url, watchRooms,
} from "./page.js";
import {
  gamesList, nightFacts, nightRule, nightWinners, recordLine, standingsLine, standingsTable,
} from "/static/night.js";
import { standingNotices } from "/table/notices.js";
import { startKiosk } from "/table/kiosk.js";

const app = document.getElementById("app");
let toast = null;
let toastTimer = null;
let conn = null;
let kiosk = false; // this page is the Pi's own screen (?kiosk): it may choose the host again
let hostNumber = null; // the host's number and until when ({number, until}: the kiosk's only)
let confirmReset = false;

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
  kiosk = startKiosk();
  await loadLanguage(pickLanguage());
  conn = connectTable({}, {
    state(message) {
      setMsg(message);
      render();
      followHost();
    },
    notice(notice) {
      showNotice(notice);
    },
    status(isOnline) {
      setOnline(isOnline);
      render();
    },
    hostClaim(claim) {
      hostNumber = claim; // it may come just before the update that opens the claim
      render();
    },
    fatal() {},
  });
  render();
}

function draw() {
  Object.assign(document.body.dataset, {
    version: msg ? msg.version : "",
    status: msg ? msg.table.status : "",
    // the phase once its screen is drawn (its game's module may still be on its way)
    phase: msg && msg.game && currentGame() ? msg.game.public.phase : "",
    online: online ? "true" : "false",
  });
  const playing = msg && msg.table.status === "playing" && msg.game;
  // a finished game's board stays beside its scores until the rematch (while its seats stand)
  const result = msg && msg.table.status === "over" && msg.table.result;
  const game = currentGame();
  const final = result && result.status === "finished" && msg.game && msg.game.public.phase === "over"
    && game && game.finalScreen;
  // the class says which screen this is and, in a game, how many castles share the middle
  app.className = playing || final ? `game players-${msg.game.public.players} ${final ? "final" : ""}` : "lobby";
  const parts = [];
  if (!msg) {
    parts.push(h("p", { class: "center muted" }, t("conn.connecting")));
  } else if (playing) {
    parts.push(...gameScreen());
  } else if (final) {
    parts.push(...game.finalScreen(msg.game.public, result));
    // the night so far, in a line at the foot of the final board, until the next game
    const night = msg.table.night;
    if (night && !night.ended && night.games.length) {
      parts.push(h("div", { class: "banner night-banner", id: "night-line" }, standingsLine(night)));
    }
  } else if (msg.table.night && msg.table.night.ended) {
    app.className = "night-over";
    parts.push(...nightSummary(msg.table.night));
  } else {
    parts.push(...lobbyScreen());
  }
  if (msg && msg.table.hardware.status === "failed") {
    const code = msg.table.hardware.code || "hardware_failed";
    parts.push(h("div", { class: "banner warn", role: "status" }, t(`hardware.${code}`)));
  }
  if (msg && msg.table.host_claim) parts.push(hostClaim(msg.table.host_claim));
  if (kiosk && msg) parts.push(...resetControl());
  if (toast) parts.push(h("div", { class: "toast toast-notice", role: "status" }, toast));
  parts.push(...standingNotices(msg));
  if (!online && msg) parts.push(h("div", { class: "banner offline-banner", role: "alert" }, t("conn.lost_table")));
  show(app, parts); // only what changed
  watchRooms(app);
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
      // a game that draws its first player (as printed) is not asked who starts
      i === table.start_player && table.lobby_games[table.game].start_player !== false
        ? h("span", { class: "tag start" }, t("lobby.starts")) : null,
      s.kind === "human" && !s.connected ? h("span", { class: "tag away" }, t("lobby.away")) : null,
      s.record ? h("span", { class: "seat-record muted" }, " ", recordLine(s.record)) : null)));
  const n = table.seats.length;
  const parts = [
    h("header", { class: "titlebar" }, h("h1", {}, "Longhall · ", t(`games.${table.game}`)), h("span", { class: "spacer" }), languageSwitch(draw)),
  ];
  // right after a game, its score, with the night's standings in a line; once the host moves
  // on (another game, other seats), the night so far takes the score's place
  const night = msg.game ? null : nightPanel(table.night);
  if (night) parts.push(night);
  else if (over) parts.push(finalScores(table.result));
  const line = !night && table.night && !table.night.ended && table.night.games.length
    ? h("p", { class: "night-line-side", id: "night-line" }, standingsLine(table.night)) : null;
  parts.push(h("div", { class: `lobby-grid ${over ? "after-game" : ""}` }, join,
    h("div", { class: "lobby-side" },
      h("section", { class: "panel" },
        h("p", { class: "game-facts", "data-game": table.game }, h("strong", {}, t(`games.${table.game}`)), " · ",
          gameFacts(table.lobby_games[table.game], "lobby_table.game_facts")),
        lobbyFacts(table),
        line,
        h("h2", {}, t("lobby.seats", { n, max: table.max_players })),
        n ? list : h("p", { class: "muted" }, t("lobby_table.empty")),
        // the chosen game has no seat of the colour someone chose: they play another, and are told
        table.seats.filter((s) => s.colour_was).map((s) => h("p", { class: "recoloured", "data-seat": s.seat },
          t("lobby_table.recoloured", { game: t(`games.${table.game}`), was: t(`colour.${s.colour_was}`), name: `${s.symbol} ${s.name}`, colour: t(`colour.${s.colour}`) }))),
        table.locked ? h("p", { class: "locked", id: "lobby-locked" }, "🔒 ", t("lobby_table.locked")) : null,
        h("p", { class: "muted" }, n >= table.min_players ? t("lobby_table.ready") : t("lobby_table.need", { game: t(`games.${table.game}`), min: table.min_players }))),
      table.hotspot ? h("section", { class: "panel wifi" },
        h("img", { class: "qr", src: "/qr/wifi.svg", alt: t("lobby_table.wifi_alt") }),
        h("p", {}, t("lobby_table.wifi", { ssid: table.hotspot.ssid })),
        h("p", { class: "wifi-password" }, t("lobby_table.wifi_password", { password: table.hotspot.password })),
        h("p", { class: "muted", id: "wifi-no-internet" }, t("lobby_table.no_internet"))) : null)));
  return parts;
}

// -- the night -------------------------------------------------------------------------------------

/** Between games: the night so far, each game with its winner and time, and the standings. */
function nightPanel(night) {
  if (!night || night.ended || !night.games.length) return null;
  return h("section", { class: "panel night", id: "night-so-far" },
    h("div", { class: "night-cols" },
      h("div", {}, h("h2", {}, t("night.title")), gamesList(night, 4)),
      h("div", {}, standingsTable(night), nightRule())));
}

/** The end of the night: the chart of the standings after each game, the night's winner, a few
 * facts, the standings, and a QR code to the night's page for the phones to keep. */
function nightSummary(night) {
  const page = new URL(`/night/${night.id}`, msg.table.join_url).href;
  return [
    h("header", { class: "titlebar" }, h("h1", {}, "Longhall · ", t("night.over")), h("span", { class: "spacer" }), languageSwitch(draw)),
    h("div", { class: "night-grid", id: "night-summary" },
      h("section", { class: "panel night-main" },
        nightWinners(night),
        night.games.length
          ? h("img", { class: "night-chart", alt: t("night.chart"), src: `/night/${night.id}/chart.svg?games=${night.games.length}&lang=${document.documentElement.lang}` })
          : null,
        nightFacts(night)),
      h("section", { class: "panel night-side" },
        standingsTable(night), nightRule(),
        h("div", { class: "night-keep" },
          h("img", { class: "qr", src: `/night/${night.id}/qr.svg`, alt: t("night.page_link") }),
          h("p", {}, t("night.scan")), h("p", { class: "url" }, url(page))),
        h("p", { class: "muted small" }, t("night.join_next", { url: msg.table.join_url })))),
  ];
}

/** What the chosen game's lobby options are set to, in its module's words: loaded for them only
 * when the game's module shows them (``table_facts``). */
function lobbyFacts(table) {
  const game = table.lobby_games[table.game].table_facts ? gameModule(table.game) : null;
  return game && game.lobbyFacts ? game.lobbyFacts(table) : null;
}

function gameScreen() {
  const game = currentGame();
  if (!game) return [h("p", { class: "center muted" }, t("conn.connecting"))]; // its module is on its way
  const away = awayNotice();
  const parts = [...game.screen(msg.game.public)];
  const taken = takenBack(msg.table, game.logWords, name);
  if (taken) parts.push(h("div", { class: "banner taken-back-banner" }, taken));
  if (away) parts.push(away);
  return parts;
}

// -- choosing the host at the table ------------------------------------------------------------------

/** While the host is being chosen: how, and on the Pi's own screen the number to enter. */
function hostClaim(claim) {
  const mine = hostNumber && hostNumber.until === claim.until ? hostNumber.number : null;
  const number = mine && `${mine.slice(0, 3)} ${mine.slice(3)}`;
  return h("div", { class: "host-claim", id: "host-claim", role: "alert" },
    h("h2", {}, t("host_claim.title")),
    h("p", {}, number ? t("host_claim.enter") : t("host_claim.enter_elsewhere")),
    number ? h("p", { class: "host-number", id: "host-number" }, number) : null);
}

/** The Pi's own screen (a touch screen, or a mouse plugged in) chooses the host again, as HOST
 * held with NEXT does: after a question, since it opens the lobby and the host's seat. */
function resetControl() {
  if (!confirmReset) {
    return [h("button", { class: "reset-host", id: "reset-host", onclick: () => { confirmReset = true; render(); } },
      t("host_reset.button"))];
  }
  return [h("div", { class: "reset-confirm", id: "reset-confirm", role: "dialog" },
    h("p", {}, t("host_reset.confirm")),
    h("div", { class: "button-row" },
      h("button", { class: "primary", id: "reset-host-yes", onclick: async () => {
        confirmReset = false;
        render();
        const answer = await conn.send("reset_host");
        if (!answer.ok) showNotice(answer.error);
      } }, t("host_reset.yes")),
      h("button", { onclick: () => { confirmReset = false; render(); } }, t("host_reset.cancel"))))];
}

function showNotice(notice) {
  toast = errorText(notice);
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { toast = null; render(); }, 8000);
  render();
}

// -- a phone that has gone -------------------------------------------------------------------------

// The server's wall clock minus this screen's, from the last message: how long a phone has been
// away is counted on the server's clock, whatever this screen's clock says.
let clockOffset = 0;

// A phone that locks its screen or changes Wi-Fi is usually back within a few seconds: until then
// the table says only that it is gone (everyone sees why the table waits), and counts the time
// from here on, when it starts to mean that somebody should act ("gone for 0 seconds" said
// nothing).
const COUNT_FROM = 10; // seconds
const AWAY_NOW = { "away.gone": "away.gone_now", "away.vacant": "away.vacant_now" };

/** The words for a seat away since ``since`` (seconds on the server's clock): ``key`` alone at
 * first, then with how long. */
function awayWords(key, since) {
  const seconds = Math.max(0, Math.floor(Date.now() / 1000 + clockOffset - since));
  if (seconds < COUNT_FROM) return t(AWAY_NOW[key]);
  const time = seconds < 60 ? t("away.seconds", { n: seconds }) : t("away.minutes", { n: Math.floor(seconds / 60) });
  return t(key, { time });
}

/** Everyone at the table sees whose phone is gone, for how long, and the host's two ways out; and
 * for whom a bot plays for now (the host's sheet says so too). */
function awayNotice() {
  clockOffset = msg.table.now - Date.now() / 1000;
  const humans = msg.table.seats.filter((s) => s.kind === "human");
  const gone = humans.filter((s) => !s.connected && !s.bot);
  const standing = humans.filter((s) => s.bot);
  const standIns = standing.length
    ? h("p", { class: "standin-seats" }, standing.map((s) => h("span", { class: "standin-seat", "data-seat": s.seat },
      seatBadge(s), t("away.standin"))))
    : null;
  if (!gone.length) return standIns && h("div", { class: "banner standin-banner", role: "status" }, standIns);
  return h("div", { class: "banner away-banner", role: "status" },
    h("p", {}, gone.map((s) => h("span", { class: "away-seat", "data-seat": s.seat },
      seatBadge(s),
      h("span", { class: "away-for", "data-since": s.away_since, "data-key": s.vacant ? "away.vacant" : "away.gone" },
        awayWords(s.vacant ? "away.vacant" : "away.gone", s.away_since))))),
    standIns,
    h("p", { class: "away-ways" }, t("away.ways_out", { host: (msg.table.seats[msg.table.host] || {}).name || "" })));
}

// the time away goes on between messages: count it on, without redrawing the board
setInterval(() => {
  for (const el of document.querySelectorAll(".away-for")) {
    el.textContent = awayWords(el.dataset.key, Number(el.dataset.since));
  }
}, 1000);

// The screen is drawn once a frame, with the latest message, not once per message. The
// fingerprints are read from every message: a reveal is checked against the one shown before it,
// which the next message may already have replaced.
const drawSoon = oncePerFrame(draw);
setRenderer(() => {
  if (msg) checkFingerprints();
  drawSoon();
});
boot();
