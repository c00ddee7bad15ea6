// The phone page: each player's private board (it replaces the cardboard screen) and hand.
// It speaks only the documented protocol (docs/protocol.md) and draws everything from the
// latest snapshot or update, so a reconnect redraws it exactly.

import {
  FIELDS, LANGUAGES, LANGUAGE_NAMES, SIDES, SIDE_SITES, STONES, STONE_VALUE, clear, connectTable,
  errorText, h, icon, languageSwitch, loadLanguage, logLine, pickLanguage, placeName, seatBadge, stoneChip,
  stoneCounts, t,
} from "/static/common.js";

const code = decodeURIComponent(location.pathname.split("/")[2] || "");
const TOKEN_KEY = `longhall.token.${code}`;
const app = document.getElementById("app");

let conn = null;
let msg = null; // the latest snapshot or update
let online = false;
let fatal = null; // {code, message} when this page cannot go on by itself
const ui = {
  pending: false,
  toast: null,
  toastTimer: null,
  selected: null, // building: the carried stone picked to place
  move: null, // planning: a viking being moved, {from} (picked up) or {to} (which one goes there?)
  loot: null, // loot: {key, depth: {site: stones taken from its top}}
  sheet: null, // "help" | "host" | "castle" | null
  handover: null, // {seat, url, qr}
  notice: null,
  name: localStorage.getItem("longhall.name") || "",
  colour: "",
  wakeHint: false,
  confirmEnd: false,
  history: null, // the host's list of earlier games, once asked for
};

// -- boot ----------------------------------------------------------------------------------------

async function boot() {
  await loadLanguage(pickLanguage());
  const claim = new URLSearchParams(location.hash.slice(1)).get("claim");
  if (claim) {
    // a seat handed over by the host: keep the token, take it out of the address bar
    localStorage.setItem(TOKEN_KEY, claim);
    history.replaceState(null, "", location.pathname);
  }
  const token = localStorage.getItem(TOKEN_KEY);
  conn = connectTable(token ? { token } : { code }, {
    state(message) {
      msg = message;
      fatal = null;
      if (ui.selected && !carried().includes(ui.selected)) ui.selected = null;
      render();
      keepAwake();
      for (const waiter of [...versionWaiters]) {
        if (msg.version >= waiter.version) waiter.done();
      }
    },
    notice(notice) {
      showToast(errorText(notice), "notice");
    },
    fatal(data) {
      if (data.code === "bad_token" || data.code === "revoked") localStorage.removeItem(TOKEN_KEY);
      fatal = data;
      render();
    },
    status(isOnline) {
      online = isOnline;
      render();
    },
  });
  render();
}

// -- sending -------------------------------------------------------------------------------------

async function send(type, fields = {}) {
  if (ui.pending || !online) return null;
  ui.pending = true;
  render();
  const answer = await conn.send(type, fields);
  ui.pending = false;
  if (!answer.ok) showToast(errorText(answer.error), "error");
  render();
  return answer;
}

const act = (action) => send("act", { action: strip(action) });

// Two steps in a row (a move is "unplace" then "place"): the second must be made against the
// table as the first left it, so wait until its update is here (it normally comes before the
// answer; never wait long).
const versionWaiters = new Set();
function caughtUp(version) {
  if (msg && msg.version >= version) return Promise.resolve();
  return new Promise((resolve) => {
    const waiter = { version, done: () => { versionWaiters.delete(waiter); clearTimeout(timer); resolve(); } };
    const timer = setTimeout(waiter.done, 2000);
    versionWaiters.add(waiter);
  });
}
const tableStep = (type) => send("table", { action: { type } });

function strip(action) {
  const out = { ...action };
  delete out.undo;
  return out;
}

function showToast(text, kind) {
  ui.toast = { text, kind };
  clearTimeout(ui.toastTimer);
  ui.toastTimer = setTimeout(() => {
    ui.toast = null;
    render();
  }, kind === "error" ? 5000 : 7000);
  render();
}

// -- keeping the screen on -----------------------------------------------------------------------
// The Wake Lock API needs a secure context, and phones reach the Pi over plain http. Where it is
// missing, a tiny silent video (3 s, a few KB, loaded only then) plays in a loop behind the page,
// as NoSleep.js does: browsers keep the screen on while a video plays. Chromium counts a muted
// video only when it covers a fifth of the viewport, Firefox and Safari only when it has a sound
// track: so it fills the screen, invisible (opacity 0) and untouchable, with a silent sound track.
// A video may only start from a tap, so the first tap of a game starts it. Only where neither
// works does the page ask the player to lengthen the screen timeout.

let wakeLock = null;
let wakeVideo = null;

function inGame() {
  return Boolean(msg && msg.you && msg.table.status === "playing");
}

async function keepAwake() {
  if (!inGame()) {
    sleepAllowed();
    return;
  }
  if (wakeLock) return;
  if ("wakeLock" in navigator && window.isSecureContext) {
    try {
      wakeLock = await navigator.wakeLock.request("screen");
      wakeLock.addEventListener("release", () => {
        wakeLock = null;
      });
      return;
    } catch {
      // refused (battery saver): the video below, on the next tap
    }
  }
  if (wakeVideo && wakeVideo.paused && document.visibilityState === "visible") {
    wakeVideo.play().catch(() => {}); // back from the background; else the next tap restarts it
  }
}

function startWakeVideo() {
  if (!inGame() || wakeLock || (wakeVideo && !wakeVideo.paused)) return;
  if (!wakeVideo) {
    const last = h("source", { src: "/phone/wake.webm", type: "video/webm" });
    wakeVideo = h("video", { class: "keep-awake", muted: true, loop: true, playsinline: true, "aria-hidden": "true", tabindex: "-1" },
      h("source", { src: "/phone/wake.mp4", type: "video/mp4" }), last);
    wakeVideo.muted = true; // the attribute alone is not enough for every browser
    last.addEventListener("error", wakeFailed); // no source could be played
    document.body.append(wakeVideo);
  }
  wakeVideo.play().then(() => {
    if (ui.wakeHint) {
      ui.wakeHint = false;
      render();
    }
  }, wakeFailed);
}

let wakeVideoFailed = false;

function wakeFailed() {
  if (!inGame() || !wakeVideo) return;
  wakeVideo.remove();
  wakeVideo = null;
  wakeVideoFailed = true;
  if (!ui.wakeHint && !localStorage.getItem("longhall.wakehint")) {
    ui.wakeHint = true;
    render();
  }
}

function sleepAllowed() {
  if (wakeLock) wakeLock.release().catch(() => {});
  wakeLock = null;
  if (wakeVideo) {
    wakeVideo.pause();
    wakeVideo.remove();
    wakeVideo = null;
  }
  ui.wakeHint = false;
}

document.addEventListener("click", () => {
  if (!wakeVideoFailed) startWakeVideo();
}, true);
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") keepAwake();
});

// -- small pieces --------------------------------------------------------------------------------

function seats() {
  return msg ? msg.table.seats : [];
}

function me() {
  return msg && msg.you ? msg.you.seat : null;
}

function carried() {
  const g = msg && msg.game;
  if (!g || me() === null || !g.public.seats[me()]) return [];
  return g.public.seats[me()].carry;
}

function actionButton(label, action, attrs = {}) {
  return h(
    "button",
    {
      class: attrs.class || "",
      disabled: ui.pending || !online || attrs.disabled,
      "data-action": JSON.stringify(strip(action)),
      onclick: () => act(action),
    },
    label,
  );
}

function legalHas(type, match = {}) {
  const legal = (msg.game && msg.game.legal) || [];
  return legal.find((a) => a.type === type && Object.entries(match).every(([k, v]) => a[k] === v));
}

function name(seat) {
  const s = seats()[seat];
  return s ? `${s.symbol} ${s.name}` : "?";
}

function cardFace(value, attrs = {}) {
  return h("span", { class: `card card-${value} ${attrs.class || ""}` }, String(value));
}

// -- rendering -----------------------------------------------------------------------------------

// The page redraws from every update. An update that lands while a finger is on the glass would
// replace the button under it and the tap would be lost: hold redraws until the finger lifts.
let pressing = false;
let redrawHeld = false;
let shownScreen = null; // the table status and game phase last drawn
document.addEventListener("pointerdown", () => { pressing = true; }, true);
for (const event of ["pointerup", "pointercancel"]) {
  document.addEventListener(event, () => {
    setTimeout(() => { // after the click that follows pointerup
      pressing = false;
      if (redrawHeld) {
        redrawHeld = false;
        render();
      }
    }, 60);
  }, true);
}

function render() {
  if (pressing) {
    redrawHeld = true;
    return;
  }
  // what the page shows, for people's tools and the tests: never anything secret
  Object.assign(document.body.dataset, {
    version: msg ? msg.version : "",
    status: msg ? msg.table.status : "",
    phase: msg && msg.game ? msg.game.public.phase : "",
    pending: ui.pending ? "true" : "false",
    online: online ? "true" : "false",
  });
  // someone typing their name keeps the keyboard, the text and the cursor across a redraw
  const typing = document.activeElement && document.activeElement.tagName === "INPUT"
    ? { id: document.activeElement.id, from: document.activeElement.selectionStart, to: document.activeElement.selectionEnd }
    : null;
  // a new screen (the game starts, the phase changes) opens at its top; ordinary updates keep
  // the place the player scrolled to
  const screen = !msg ? "" : `${msg.you ? "seated" : "guest"}|${msg.table.status}|${msg.game && msg.table.status === "playing" ? msg.game.public.phase : ""}`;
  const newScreen = screen !== shownScreen;
  if (newScreen) {
    shownScreen = screen;
    ui.move = null;
    ui.loot = null;
  }
  const scroll = newScreen ? 0 : window.scrollY;
  clear(app);
  app.append(header());
  const main = h("main", { class: "screen" });
  if (fatal) main.append(fatalScreen());
  else if (!msg) main.append(h("p", { class: "muted center" }, t("conn.connecting")));
  else if (!msg.you) main.append(joinScreen());
  else if (msg.table.status === "playing" && msg.game) main.append(...gameScreen());
  else main.append(...lobbyScreen());
  app.append(main);
  if (msg && msg.you && msg.table.status === "playing" && msg.game) app.append(atHand());
  if (ui.sheet) app.append(sheet());
  if (ui.toast) app.append(h("div", { class: `toast toast-${ui.toast.kind}`, role: "status" }, ui.toast.text));
  if (!online && !fatal && msg) {
    app.append(
      h("div", { class: "offline", role: "alert" },
        h("div", { class: "offline-box" }, h("strong", {}, t("conn.lost")), h("p", {}, t("conn.retrying")))),
    );
  }
  window.scrollTo(0, scroll);
  if (typing && typing.id) {
    const field = document.getElementById(typing.id);
    if (field) {
      field.focus();
      field.setSelectionRange(typing.from, typing.to);
    }
  }
}

function header() {
  const you = msg && msg.you ? seats()[msg.you.seat] : null;
  return h(
    "header",
    { class: "topbar" },
    h("span", { class: `dot ${online ? "on" : "off"}`, title: online ? t("conn.online") : t("conn.lost") }),
    h("span", { class: "brand" }, "Longhall"),
    you ? seatBadge(you, "me") : null,
    h("span", { class: "spacer" }),
    msg && msg.you && msg.game ? h("button", { class: "icon", onclick: () => openSheet("help"), "aria-label": t("help.title") }, "?") : null,
    msg && msg.you && msg.you.host && msg.table.status === "playing"
      ? h("button", { class: "icon", onclick: () => openSheet("host"), "aria-label": t("host.title") }, "⚙")
      : null,
    languageSwitch(render),
  );
}

function openSheet(kind) {
  ui.sheet = ui.sheet === kind ? null : kind;
  render();
}

function fatalScreen() {
  const box = h("section", { class: "panel center" }, h("h1", {}, t(`fatal.${fatal.code}.title`)), h("p", {}, t(`fatal.${fatal.code}.text`)));
  if (fatal.code === "replaced") {
    box.append(h("button", { class: "primary", onclick: () => {
      fatal = null;
      conn.reconnect({ token: localStorage.getItem(TOKEN_KEY) });
    } }, t("fatal.replaced.take_back")));
  } else if (fatal.code !== "bad_code") {
    box.append(h("button", { class: "primary", onclick: () => {
      fatal = null;
      conn.reconnect({ code });
    } }, t("fatal.join_again")));
  }
  return box;
}

// -- joining -------------------------------------------------------------------------------------

function joinScreen() {
  const table = msg.table;
  const taken = new Set(table.seats.map((s) => s.colour));
  const free = Object.keys(table.colours).filter((c) => !taken.has(c));
  if (!free.includes(ui.colour)) ui.colour = free[0] || "";
  const full = table.seats.length >= table.max_players;
  if (table.status === "playing") {
    return h("section", { class: "panel center" }, h("h1", {}, t("join.in_game_title")), h("p", {}, t("join.in_game_text")));
  }
  const input = h("input", {
    id: "name", type: "text", maxlength: "24", autocomplete: "nickname", value: ui.name,
    placeholder: t("join.name_placeholder"),
    oninput: (e) => { ui.name = e.target.value; },
  });
  const colours = h("div", { class: "colours", role: "radiogroup", "aria-label": t("join.colour") });
  for (const colour of Object.keys(table.colours)) {
    colours.append(
      h("button", {
        class: `swatch colour-${colour} ${colour === ui.colour ? "chosen" : ""}`,
        disabled: !free.includes(colour),
        role: "radio",
        "aria-checked": colour === ui.colour ? "true" : "false",
        "aria-label": t(`colour.${colour}`),
        onclick: () => { ui.colour = colour; render(); },
      }, table.colours[colour]),
    );
  }
  return h(
    "section", { class: "panel" },
    h("h1", {}, t("join.title")),
    h("p", { class: "muted" }, t("join.intro")),
    h("label", { for: "name" }, t("join.name")), input,
    h("p", { class: "label" }, t("join.colour")), colours,
    h("button", {
      class: "primary wide", id: "join", disabled: full || ui.pending || !online,
      onclick: async () => {
        const chosen = ui.name.trim();
        if (!chosen) { showToast(t("errors.bad_name", { max: 24 }), "error"); return; }
        localStorage.setItem("longhall.name", chosen);
        const answer = await send("join", { name: chosen, colour: ui.colour });
        if (answer && answer.ok) {
          localStorage.setItem(TOKEN_KEY, answer.token);
          conn.socket.auth = { token: answer.token };
        }
      },
    }, full ? t("join.full") : t("join.button")),
    seatList(false),
  );
}

// -- the lobby and the host's controls -------------------------------------------------------------

function seatList(hostControls) {
  const table = msg.table;
  const list = h("ol", { class: "seats" });
  table.seats.forEach((s, i) => {
    const row = h("li", { class: "seat-row" }, seatBadge(s),
      s.host ? h("span", { class: "tag" }, t("lobby.host")) : null,
      s.kind === "bot" ? h("span", { class: "tag" }, t(`lobby.bot_${s.bot}`)) : null,
      i === table.start_player ? h("span", { class: "tag start" }, t("lobby.starts")) : null,
      s.kind === "human" && !s.connected ? h("span", { class: "tag away" }, t("lobby.away")) : null);
    if (hostControls) {
      const tools = h("span", { class: "row-tools" });
      if (i > 0) tools.append(h("button", { class: "small", "aria-label": t("lobby.move_up"), disabled: ui.pending, onclick: () => send("move_seat", { seat: i, to: i - 1 }) }, "↑"));
      if (i !== table.start_player) tools.append(h("button", { class: "small", disabled: ui.pending, onclick: () => send("set_start_player", { seat: i }) }, t("lobby.make_start")));
      if (!s.host) tools.append(h("button", { class: "small danger", disabled: ui.pending, onclick: () => send(s.kind === "bot" ? "remove_seat" : "kick", { seat: i }) }, s.kind === "bot" ? t("lobby.remove_bot") : t("lobby.kick")));
      row.append(tools);
    }
    list.append(row);
  });
  return h("div", {}, h("h2", {}, t("lobby.seats", { n: table.seats.length, max: table.max_players })), list);
}

function lobbyScreen() {
  const table = msg.table;
  const isHost = msg.you.host;
  const parts = [];
  if (table.status === "over" && table.result) parts.push(finalScores(table.result));
  parts.push(h("section", { class: "panel" },
    h("h1", {}, table.status === "over" ? t("lobby.after_game") : t("lobby.title")),
    h("p", { class: "muted" }, isHost ? t("lobby.host_intro") : t("lobby.wait_host")),
    seatList(isHost),
    profileEditor()));
  if (isHost) {
    const n = table.seats.length;
    const ready = n >= table.min_players && n <= table.max_players;
    parts.push(h("section", { class: "panel" },
      h("h2", {}, t("host.title")),
      h("div", { class: "button-row" },
        h("button", { "data-bot": "greedy", disabled: ui.pending || n >= table.max_players, onclick: () => send("add_bot", { bot: "greedy" }) }, t("host.add_greedy")),
        h("button", { "data-bot": "random", disabled: ui.pending || n >= table.max_players, onclick: () => send("add_bot", { bot: "random" }) }, t("host.add_random"))),
      table.games.length > 1 ? [h("p", { class: "label" }, t("host.game")),
        h("div", { class: "button-row" }, table.games.map((game) => h("button", {
          class: table.game === game ? "chosen" : "", disabled: ui.pending,
          onclick: () => send("set_game", { game }) }, t(`games.${game}`))))] : null,
      h("p", { class: "label" }, t("host.deck")),
      h("div", { class: "button-row" },
        ["house", "physical"].map((deck) => h("button", {
          class: table.options.deck === deck ? "chosen" : "", disabled: ui.pending,
          onclick: () => send("set_options", { deck }) }, t(`host.deck_${deck}`)))),
      h("p", { class: "muted small-text" }, t(`host.deck_${table.options.deck}_help`)),
      ...tableLanguage(),
      h("button", { class: "primary wide", id: "start", disabled: !ready || ui.pending, onclick: () => send("start") },
        table.status === "over" ? t("host.rematch") : t("host.start")),
      ready ? null : h("p", { class: "muted" }, t("host.need_players", { min: table.min_players, max: table.max_players }))));
    parts.push(historyPanel());
  }
  return parts;
}

function historyPanel() {
  const box = h("details", { class: "panel history", ontoggle: async (event) => {
    if (event.target.open && ui.history === null) {
      const answer = await send("history");
      ui.history = answer && answer.ok ? answer.games : [];
      render();
    }
  }, open: ui.history !== null }, h("summary", {}, t("host.history")));
  if (ui.history === null) return box;
  if (!ui.history.length) box.append(h("p", { class: "muted" }, t("host.history_none")));
  const when = new Intl.DateTimeFormat(document.documentElement.lang, { dateStyle: "medium", timeStyle: "short" });
  box.append(h("ol", { class: "history-list" }, ui.history.map((game) => {
    const names = game.seats.map((s) => s.name).join(", ");
    const result = game.status === "abandoned" || !game.result
      ? t("host.history_abandoned")
      : t("host.history_winner", { names: game.result.winners.map((w) => game.seats[w].name).join(", ") });
    return h("li", {}, t("host.history_line", { when: when.format(new Date(game.started * 1000)), names, result }));
  })));
  return box;
}

function profileEditor() {
  const mine = seats()[me()];
  const taken = new Set(seats().filter((s, i) => i !== me()).map((s) => s.colour));
  const row = h("div", { class: "colours small" });
  for (const colour of Object.keys(msg.table.colours)) {
    row.append(h("button", {
      class: `swatch colour-${colour} ${colour === mine.colour ? "chosen" : ""}`,
      disabled: taken.has(colour) || ui.pending,
      "aria-label": t(`colour.${colour}`),
      onclick: () => send("profile", { name: mine.name, colour }),
    }, msg.table.colours[colour]));
  }
  return h("details", { class: "profile" }, h("summary", {}, t("lobby.change_colour")), row);
}

/** The final score: one card per player, best first, the total at the top, then every category
 * with its count and points (as in the rulebook's example). Readable on a 360 px phone. */
function finalScores(result) {
  if (!result.scores) return h("section", { class: "panel" }, h("h1", {}, t("score.abandoned")));
  const winners = new Set(result.winners);
  const order = result.scores.map((_, i) => i).sort((a, b) => result.scores[b].total - result.scores[a].total);
  return h("section", { class: "panel final" },
    h("h1", {}, result.status === "abandoned" ? t("score.abandoned") : t("score.title")),
    result.winners.length ? h("p", { class: "winners" }, t("score.winners", { names: result.winners.map((w) => (result.seats[w] || {}).name).join(", ") })) : null,
    h("ol", { class: "score-cards" }, order.map((i) => {
      const score = result.scores[i];
      const rank = 1 + result.scores.filter((other) => other.total > score.total).length;
      return h("li", { class: `score-card ${winners.has(i) ? "winner" : ""}`, "data-seat": i },
        h("div", { class: "score-head" },
          h("span", { class: "rank" }, `${rank}.`),
          seatBadge(result.seats[i] || seats()[i]),
          h("span", { class: "total", "aria-label": `${t("score.total")}: ${score.total}` }, h("small", {}, t("score.total")), " ", String(score.total))),
        scoreRows(score, false)); // the total is at the top
    })));
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

function gameScreen() {
  const g = msg.game;
  const pub = g.public;
  const parts = [roundBar(pub)];
  if (msg.table.paused) parts.push(h("section", { class: "panel paused" }, h("h2", {}, t("game.paused"))));
  if (ui.wakeHint) parts.push(wakeHint());
  const view = PHASES[pub.phase];
  parts.push(view ? view(g) : h("p", {}, t(`phase.${pub.phase}`)));
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

function wakeHint() {
  return h("section", { class: "panel hint" },
    h("p", {}, t("wake.hint")),
    h("button", { class: "small", onclick: () => { ui.wakeHint = false; localStorage.setItem("longhall.wakehint", "1"); render(); } }, t("wake.ok")));
}

function waiting(text) {
  return h("section", { class: "panel waiting" }, h("p", {}, text));
}

function waitingFor(pub, key) {
  const names = pub.active.filter((s) => s !== me()).map(name).join(", ");
  return waiting(t(key, { names }));
}

// materials (physical deck): the start player enters the printed card
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
  const move = ui.move;
  if (move && move.from && !plan[move.from]) ui.move = null;
  let status;
  if (ui.move) {
    const text = ui.move.from
      ? t("planning.moving", { place: placeName(ui.move.from, seats()) })
      : t("planning.moving_to", { place: placeName(ui.move.to, seats()) });
    status = h("p", { class: "plan-status moving", role: "status" }, h("span", {}, text),
      h("button", { class: "small", id: "cancel-move", onclick: () => { ui.move = null; render(); } }, t("planning.cancel")));
  } else {
    status = h("p", { class: "plan-status", role: "status" },
      free > 0 ? t("planning.left", { free, total: mine.home }) : t("planning.move_help"));
  }
  // only this stays on screen while scrolling: the vikings, the commit button, one line
  const head = h("section", { class: "panel sticky plan-head" },
    h("div", { class: "plan-head-row" },
      h("div", { class: "vikings", "aria-label": t("planning.left", { free, total: mine.home }) },
        Array.from({ length: mine.home }, (_, i) => h("span", { class: `viking ${i < free ? "free" : "placed"}` }, icon("viking"))),
        Array.from({ length: hospital }, () => h("span", { class: "viking hurt", title: t("planning.in_hospital_one") }, icon("viking")))),
      h("button", { class: "primary", id: "commit", disabled: ui.pending || free > 0, "data-action": free === 0 ? JSON.stringify({ type: "commit" }) : null, onclick: () => act({ type: "commit" }) },
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
  const move = ui.move;
  const canPlace = !move && legalHas("place", { to: dest });
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
        class: `dest-count ${move && move.from === dest ? "chosen" : ""}`, disabled: ui.pending,
        "aria-pressed": move && move.from === dest ? "true" : "false", "aria-label": t("planning.move_from_here"),
        onclick: () => { ui.move = move && move.from === dest ? null : { from: dest }; render(); },
      }, icon("viking"), `×${count}`),
      h("button", { class: "small take-back", disabled: ui.pending, "aria-label": t("planning.take_back"), onclick: () => act({ type: "unplace", from: dest }) }, "−"))
      : null);
}

/** A tap on a place of the planning board: place a viking, or move one there. */
function tapDestination(dest) {
  const g = msg.game;
  const plan = g.private.plan;
  const move = ui.move;
  if (move && move.from) {
    if (move.from === dest) ui.move = null;
    else moveViking(move.from, dest);
  } else if (move && move.to) {
    if (plan[dest] && dest !== move.to) moveViking(dest, move.to);
    else ui.move = dest === move.to ? null : { to: dest };
  } else if (g.private.unplanned > 0) {
    act({ type: "place", to: dest });
    return;
  } else if (plan[dest]) {
    ui.move = { from: dest }; // every viking is placed: this one is picked up
  } else {
    const sources = Object.keys(plan);
    if (sources.length === 1) moveViking(sources[0], dest); // only one place to take it from
    else ui.move = { to: dest }; // ask which one
  }
  render();
}

/** Move one viking: take it back from one place and put it on another (two steps of the plan). */
async function moveViking(from, to) {
  ui.move = null;
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
    await act({ type: "place", to: from });
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

function handView(hand, playable, extra = "") {
  return h("div", { class: `hand ${extra}` }, hand.map((value) => {
    const action = { type: "play", card: value };
    return playable
      ? h("button", { class: "card-button", disabled: ui.pending || !online, "data-action": JSON.stringify(action), onclick: () => act(action) }, cardFace(value))
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
  const amulets = pub.seats[me()].amulets;
  const note = swappedNote(g);
  return h("section", { class: "panel" },
    fightHeader(pub),
    note || h("p", {}, t("fight.swap_intro")),
    handView(hand, false, note ? "new" : ""),
    h("p", { class: "cost" }, t("fight.swap_cost", { n: hand.length, amulets })),
    h("div", { class: "button-row" },
      actionButton(t("fight.swap", { n: hand.length }), { type: "swap" }, { class: "option" }),
      actionButton(t("fight.keep"), { type: "keep" }, { class: "primary" })),
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
    return h("section", { class: "panel" }, fightHeader(pub),
      h("p", {}, t("fight.you_played", { name: name(other) })), cardFace(played, { class: "big" }));
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
  if (!ui.loot || ui.loot.key !== key) ui.loot = { key, depth: Object.fromEntries(sites.map((site) => [site, 0])) };
  const depth = ui.loot.depth;
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
    if (next[site] === 0 && Object.values(next).every((n) => n === 0)) ui.loot.depth = next;
    else if (allowed(next)) ui.loot.depth = next;
    else {
      showToast(t("loot.too_much", { damage: last.damage }), "error");
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
    h("button", { class: `stone-button ${ui.selected === stone ? "chosen" : ""}`, "aria-pressed": ui.selected === stone ? "true" : "false",
      onclick: () => { ui.selected = ui.selected === stone ? null : stone; render(); }, "data-index": i }, stoneChip(stone))));
  const sites = h("div", { class: "castle-build" }, mine.castle.map((stack, i) => {
    const site = i + 1;
    const proposed = proposal.filter(([, s]) => s === site).map(([stone]) => stone);
    const canBuild = ui.selected && legalHas("build", { stone: ui.selected, site });
    return h("div", { class: `site big ${canBuild ? "target" : ""}` },
      h("button", {
        class: "site-button", disabled: ui.pending || !ui.selected,
        "aria-label": t("build.site", { site }),
        "data-action": canBuild ? JSON.stringify({ type: "build", stone: ui.selected, site }) : null,
        onclick: () => act({ type: "build", stone: ui.selected, site }),
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

/** A seat someone plays from a phone now (not a bot, not empty, not away). */
function present(seat) {
  const s = seats()[seat];
  return s.kind === "human" && s.connected && !s.vacant;
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

// -- always at hand: hand, amulets, castle, score; the help and host sheets ------------------------

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

function sheet() {
  const close = h("button", { class: "icon close", onclick: () => openSheet(null), "aria-label": t("sheet.close") }, "✕");
  let body;
  if (ui.sheet === "help") {
    const phase = msg.game ? msg.game.public.phase : "lobby";
    body = [h("h2", {}, t("help.title")), h("h3", {}, t(`phase.${phase}`)), h("p", {}, t(`help.${phase}`)),
      h("h3", {}, t("help.goal_title")), h("p", { class: "goal" }, t("help.goal")), stoneLegend(),
      h("p", { class: "muted small-text" }, t("help.more"))];
  } else if (ui.sheet === "castle") {
    const mine = msg.game.public.seats[me()];
    body = [h("h2", {}, t("hand.title")),
      h("p", {}, t("hand.cards_text"), " "), handView(msg.game.private.hand, false),
      h("p", { class: "muted small-text" }, t("hand.discard", { cards: mine.discard.join(" ") || "—" })),
      h("p", {}, t("hand.amulets_text", { n: mine.amulets })),
      h("h3", {}, t("hand.castle")), castleMini(mine.castle, me()),
      mine.beside.length ? h("p", {}, t("hand.beside"), stoneCounts(countOf(mine.beside))) : null,
      h("h3", {}, t("hand.score")), scoreRows(mine.score)];
  } else {
    body = hostSheet();
  }
  return h("div", { class: "sheet-backdrop", onclick: (e) => { if (e.target === e.currentTarget) openSheet(null); } },
    h("div", { class: "sheet", role: "dialog" }, close, body));
}

function countOf(list) {
  const out = {};
  for (const s of list) out[s] = (out[s] || 0) + 1;
  return out;
}

/** The host picks the table display's language (it has no keyboard or mouse of its own). */
function tableLanguage() {
  const current = msg.table.language || "";
  const choice = (lang, label) => h("button", {
    class: current === lang ? "chosen" : "", disabled: ui.pending, "data-table-lang": lang || "auto",
    onclick: () => send("set_language", { lang }) }, label);
  return [h("p", { class: "label" }, t("host.table_language")),
    h("div", { class: "button-row" }, choice("", t("host.table_language_auto")),
      LANGUAGES.map((lang) => choice(lang, LANGUAGE_NAMES[lang])))];
}

function hostSheet() {
  const table = msg.table;
  const parts = [h("h2", {}, t("host.title")),
    h("div", { class: "button-row" },
      table.paused
        ? h("button", { class: "primary", disabled: ui.pending, onclick: () => send("resume") }, t("host.resume"))
        : h("button", { disabled: ui.pending, onclick: () => send("pause") }, t("host.pause")),
      ui.confirmEnd
        ? h("button", { class: "danger", disabled: ui.pending, onclick: () => { ui.confirmEnd = false; ui.sheet = null; send("end_game"); } }, t("host.end_confirm"))
        : h("button", { class: "danger", onclick: () => { ui.confirmEnd = true; render(); } }, t("host.end"))),
    ...tableLanguage()];
  const rows = h("ul", { class: "seats" });
  table.seats.forEach((s, i) => {
    if (i === me()) return;
    const tools = h("span", { class: "row-tools" });
    tools.append(h("button", { class: "small", disabled: ui.pending, onclick: async () => {
      const answer = await send("handover", { seat: i });
      if (answer && answer.ok) { ui.handover = { seat: i, url: answer.claim_url, qr: answer.claim_qr }; render(); }
    } }, t("host.handover")));
    if (s.kind === "human") {
      tools.append(h("button", { class: "small", disabled: ui.pending, onclick: () => send("botify", { seat: i, bot: s.bot ? "" : "greedy" }) },
        s.bot ? t("host.stop_standin") : t("host.standin")));
      tools.append(h("button", { class: "small danger", disabled: ui.pending, onclick: () => send("kick", { seat: i }) }, t("lobby.kick")));
    }
    rows.append(h("li", { class: "seat-row" }, seatBadge(s), s.vacant ? h("span", { class: "tag away" }, t("lobby.vacant")) : null,
      s.kind === "human" && !s.connected && !s.vacant ? h("span", { class: "tag away" }, t("lobby.away")) : null,
      s.bot && s.kind === "human" ? h("span", { class: "tag" }, t("lobby.standin")) : null, tools));
  });
  parts.push(h("h3", {}, t("host.seats")), rows);
  if (ui.handover) {
    const svg = new DOMParser().parseFromString(ui.handover.qr, "image/svg+xml").documentElement;
    parts.push(h("div", { class: "handover" },
      h("p", {}, t("host.handover_scan", { name: name(ui.handover.seat) })),
      h("div", { class: "qr" }, document.importNode(svg, true)),
      h("p", { class: "small-text url" }, ui.handover.url),
      h("button", { class: "small", onclick: () => { ui.handover = null; render(); } }, t("sheet.close"))));
  }
  return parts;
}

boot();
