// The phone page's shell: joining, the lobby, the host's sheet, reconnecting, the wake lock, the
// offline banner and the final score's frame. Each game's screens live in their own module
// (phone_ui/games/<game>.js), loaded only when the table plays that game; this shell knows no
// game's words. It speaks only the documented protocol (docs/protocol.md) and draws everything
// from the latest snapshot or update, so a reconnect redraws it exactly.

import {
  LANGUAGES, LANGUAGE_NAMES, connectTable, errorText, gameFacts, h, has, languageSwitch, loadLanguage,
  pickLanguage, seatBadge, show, t, takenBack,
} from "/static/common.js";
import {
  TOKEN_KEY, WAS_KEY, code, conn, guestAuth, currentGame, fatal, gameModule, finalScores, me, msg, name, online, openSheet, render, seats, standingIn,
  send, setConn, setFatal, setMsg, setOnline, setRenderer, showToast, ui, versionWaiters,
} from "./page.js";
import { myNight, nightFacts, nightRule, nightWinners, recordLine, standingsTable } from "/static/night.js";

const app = document.getElementById("app");

// -- boot ----------------------------------------------------------------------------------------

// A seat handed over by the host (/join/<code>#claim=<token>): a phone without a seat takes it at
// once; a phone that holds a seat is asked first, and keeps its own token until the claim succeeds.
const claimed = { token: null, state: null, from: "" }; // state: "ask" | "trying" | null
const SEAT_GONE = ["bad_token", "revoked", "kicked"];

async function boot() {
  await loadLanguage(pickLanguage());
  const claim = new URLSearchParams(location.hash.slice(1)).get("claim");
  if (claim) history.replaceState(null, "", location.pathname); // out of the address bar
  const token = localStorage.getItem(TOKEN_KEY);
  if (claim && claim !== token) Object.assign(claimed, { token: claim, state: token ? "ask" : "trying" });
  const auth = claimed.state === "trying" ? { token: claim } : token ? { token } : guestAuth();
  setConn(connectTable(auth, {
    state(message) {
      setMsg(message);
      setFatal(null);
      if (claimed.state === "trying" && msg.you) { // the link's seat is this phone's now
        localStorage.setItem(TOKEN_KEY, claimed.token);
        localStorage.removeItem(WAS_KEY);
        Object.assign(claimed, { token: null, state: null });
      }
      const game = currentGame();
      if (game && game.onState) game.onState();
      drawSoon();
      keepAwake();
      for (const waiter of [...versionWaiters]) {
        if (msg.version >= waiter.version) waiter.done();
      }
    },
    notice(notice) {
      showToast(errorText(notice), "notice");
    },
    fatal(data) {
      if (ui.leaving && data.code === "revoked") {
        // this player left the table: the page starts again as a phone that may join
        localStorage.removeItem(TOKEN_KEY);
        location.reload();
        return;
      }
      if (claimed.state === "trying" && SEAT_GONE.includes(data.code)) {
        // the link's seat is not to be had: a phone that had a seat goes back to it
        const old = localStorage.getItem(TOKEN_KEY);
        Object.assign(claimed, { token: null, state: null });
        if (old) {
          conn.reconnect({ token: old });
          showToast(t("claim.failed", { name: claimed.from }), "error");
          return;
        }
        setFatal({ code: "claim_failed" });
        render();
        return;
      }
      if (SEAT_GONE.includes(data.code)) {
        // the token goes, but is shown as the one this phone had when it joins again: a phone
        // the host sent away stays out until the host lets it back in
        const old = localStorage.getItem(TOKEN_KEY);
        if (old) localStorage.setItem(WAS_KEY, old);
        localStorage.removeItem(TOKEN_KEY);
      }
      if (claimed.state === "ask" && SEAT_GONE.includes(data.code)) {
        claimed.state = "trying"; // this phone's own seat is gone: the link's is the one to take
        conn.reconnect({ token: claimed.token });
        return;
      }
      setFatal(data);
      render();
    },
    status(isOnline) {
      setOnline(isOnline);
      render();
    },
  }));
  render();
}

/** A phone that holds a seat opened a seat's claim link: it asks before giving its seat up. */
function claimPrompt() {
  const mine = seats()[me()];
  claimed.from = mine ? mine.name : "";
  return h("section", { class: "panel claim-prompt", id: "claim-prompt", role: "dialog" },
    h("h2", {}, t("claim.title")),
    h("p", {}, t("claim.text", { name: claimed.from })),
    h("div", { class: "button-row" },
      h("button", { class: "primary", id: "claim-take", onclick: () => {
        claimed.state = "trying";
        conn.reconnect({ token: claimed.token });
        render();
      } }, t("claim.take")),
      h("button", { id: "claim-keep", onclick: () => {
        Object.assign(claimed, { token: null, state: null });
        render();
      } }, t("claim.keep", { name: claimed.from }))));
}

/** While the table chooses its host (HOST held with NEXT, or the Pi's own screen): the number the
 * table display shows makes this phone the host. */
function hostClaimPanel() {
  return h("section", { class: "panel host-claim", id: "host-claim", role: "status" },
    h("h2", {}, t("host_claim.phone_title")),
    h("p", {}, t("host_claim.phone_text")),
    h("div", { class: "button-row" },
      h("input", {
        id: "host-number", type: "text", inputmode: "numeric", maxlength: "7", autocomplete: "off",
        "aria-label": t("host_claim.number"), value: ui.hostNumber,
        oninput: (e) => { ui.hostNumber = e.target.value; },
      }),
      h("button", { class: "primary", id: "claim-host", disabled: ui.pending || !online, onclick: async () => {
        const answer = await send("claim_host", { number: ui.hostNumber.replace(/\s/g, "") });
        if (answer && answer.ok) ui.hostNumber = "";
      } }, t("host_claim.become"))));
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

// Updates often come several to a frame (a player's move, the bot's answer, the next phase): the
// screen is drawn once per frame, with the latest; a tap's own redraw is drawn at once.
let drawAsked = false;
function drawSoon() {
  if (drawAsked) return;
  drawAsked = true;
  requestAnimationFrame(() => {
    drawAsked = false;
    draw();
  });
}

function draw() {
  if (pressing) {
    redrawHeld = true;
    return;
  }
  // what the page shows, for people's tools and the tests: never anything secret
  Object.assign(document.body.dataset, {
    version: msg ? msg.version : "",
    status: msg ? msg.table.status : "",
    // the phase once its screen is drawn (its game's module may still be on its way)
    phase: msg && msg.game && currentGame() ? msg.game.public.phase : "",
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
    const game = currentGame();
    if (game && game.newScreen) game.newScreen();
  }
  const parts = [header(), ...standingNotices()];
  let screenParts; // a screen's parts may hold nulls: what it does not show now
  if (fatal) screenParts = fatalScreen();
  else if (!msg) screenParts = h("p", { class: "muted center" }, t("conn.connecting"));
  else if (!msg.you) screenParts = joinScreen();
  else if (msg.table.status === "playing" && msg.game) screenParts = gameScreen();
  else screenParts = lobbyScreen();
  // a claim link's question, and while the table chooses its host the box for the number, first
  const seated = !fatal && msg && msg.you;
  const ask = seated && claimed.state === "ask" ? claimPrompt() : null;
  const hostBox = seated && msg.table.host_claim ? hostClaimPanel() : null;
  parts.push(h("main", { class: "screen" }, ask, hostBox, screenParts));
  const game = msg && msg.you && msg.table.status === "playing" && msg.game ? currentGame() : null;
  if (game && game.atHand) parts.push(game.atHand(msg.game));
  if (ui.sheet) parts.push(sheet());
  if (ui.toast) parts.push(h("div", { class: `toast toast-${ui.toast.kind}`, role: "status" }, ui.toast.text));
  if (!online && !fatal && msg) {
    parts.push(
      h("div", { class: "offline", role: "alert" },
        h("div", { class: "offline-box" }, h("strong", {}, t("conn.lost")), h("p", {}, t("conn.retrying")))),
    );
  }
  show(app, parts); // only what changed: the scroll and the field being typed in stay
  if (newScreen) window.scrollTo(0, 0);
  if (typing && typing.id && document.activeElement !== document.getElementById(typing.id)) {
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

/** The table's standing notices (a game store that cannot be written, the end of the night...),
 * on every phone as on the table display, until the server takes them away. */
function standingNotices() {
  const notices = (msg && msg.table.notices) || [];
  return notices.map((notice) => h("div", { class: "standing-notice", role: "alert", "data-code": notice.code },
    has(`notices.${notice.code}`) ? t(`notices.${notice.code}`, notice.params || {}) : notice.message));
}

function fatalScreen() {
  const box = h("section", { class: "panel center" }, h("h1", {}, t(`fatal.${fatal.code}.title`)), h("p", {}, t(`fatal.${fatal.code}.text`)));
  if (fatal.code === "replaced") {
    box.append(h("button", { class: "primary", onclick: () => {
      setFatal(null);
      conn.reconnect({ token: localStorage.getItem(TOKEN_KEY) });
      render(); // "connecting" until the table answers: the tap shows at once
    } }, t("fatal.replaced.take_back")));
  } else if (fatal.code !== "bad_code") {
    box.append(h("button", { class: "primary", onclick: () => {
      setFatal(null);
      conn.reconnect(guestAuth());
      render(); // "connecting" until the table answers: the tap shows at once
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
  const back = welcomeBack(free, full);
  return h(
    "section", { class: "panel" },
    back,
    h("h1", {}, t("join.title")),
    h("p", { class: "muted" }, t("join.intro")),
    h("label", { for: "name" }, t("join.name")), input,
    h("p", { class: "label" }, t("join.colour")), colours,
    h("button", {
      class: "primary wide", id: "join", disabled: full || table.locked || ui.pending || !online,
      onclick: () => {
        const chosen = ui.name.trim();
        if (!chosen) { showToast(t("errors.bad_name", { max: 24 }), "error"); return; }
        joinAs(chosen, ui.colour);
      },
    }, full ? t("join.full") : t("join.button")),
    table.locked ? h("p", { class: "muted", id: "join-locked" }, t("join.locked")) : null,
    // the table's own Wi-Fi reaches no internet: the phone is without it while it stays joined
    table.hotspot ? h("p", { class: "muted", id: "join-no-internet" }, t("join.no_internet")) : null,
    seatList(false),
  );
}

/** Sit down with this name and colour; once seated, ask the table to remember this phone. */
async function joinAs(name, colour) {
  localStorage.setItem("longhall.name", name);
  const answer = await send("join", { name, colour });
  if (answer && answer.ok) {
    localStorage.setItem(TOKEN_KEY, answer.token);
    localStorage.removeItem(WAS_KEY);
    conn.socket.auth = { token: answer.token };
    await send("remember", { phone: phoneIdentity(true) });
  }
}

// -- the table remembers its players ----------------------------------------------------------------
// The phone keeps an identity of its own (random, never a password) so that the table can offer it
// its name and colour again at the next night; the table keeps only its hash.

const PHONE_KEY = "longhall.phone";

function phoneIdentity(create) {
  let id = localStorage.getItem(PHONE_KEY);
  if (!id && create) {
    const bytes = crypto.getRandomValues(new Uint8Array(24));
    id = btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_");
    localStorage.setItem(PHONE_KEY, id);
  }
  return id;
}

/** A phone the table remembers: its name and colour offered again, in one tap. */
function welcomeBack(free, full) {
  const phone = phoneIdentity(false);
  if (!phone || !online) return null;
  if (ui.recalled === undefined) {
    ui.recalled = null;
    send("recall", { phone }).then((answer) => { ui.recalled = answer && answer.ok ? answer.player : null; render(); });
  }
  const known = ui.recalled;
  if (!known) return null;
  return h("div", { class: "welcome-back", id: "welcome-back" },
    h("h2", {}, t("players.welcome", { name: known.name })),
    h("p", { class: "muted" }, recordLine(known)),
    h("button", { class: "primary wide", id: "join-again", disabled: full || msg.table.locked || ui.pending,
      onclick: () => joinAs(known.name, free.includes(known.colour) ? known.colour : "") },
    seatBadge({ name: known.name, colour: known.colour, symbol: msg.table.colours[known.colour] || "" }), " ", t("players.join_again")),
    h("button", { class: "small", id: "not-me", disabled: ui.pending, onclick: forgetPhone }, t("players.not_me")));
}

/** This phone asks the table to forget it, and forgets its identity. */
async function forgetPhone() {
  const phone = phoneIdentity(false);
  if (!phone) return;
  const answer = await send("forget_me", { phone });
  if (answer && (answer.ok || answer.error.code === "no_such_player")) {
    localStorage.removeItem(PHONE_KEY);
    ui.recalled = null;
    showToast(t("players.forgotten"), "notice");
  }
}

// -- the lobby and the host's controls -------------------------------------------------------------

function seatList(hostControls) {
  const table = msg.table;
  const asks = startAsked(table);
  const list = h("ol", { class: "seats" });
  table.seats.forEach((s, i) => {
    const row = h("li", { class: "seat-row" }, seatBadge(s),
      s.host ? h("span", { class: "tag" }, t("lobby.host")) : null,
      s.kind === "bot" ? h("span", { class: "tag" }, t(`lobby.bot_${s.bot}`)) : null,
      asks && i === table.start_player ? h("span", { class: "tag start" }, t("lobby.starts")) : null,
      s.kind === "human" && !s.connected ? h("span", { class: "tag away" }, t("lobby.away")) : null,
      s.record ? h("small", { class: "muted seat-record" }, recordLine(s.record)) : null);
    if (hostControls) {
      const tools = h("span", { class: "row-tools" });
      if (i > 0) tools.append(h("button", { class: "small", "aria-label": t("lobby.move_up"), disabled: ui.pending, onclick: () => send("move_seat", { seat: i, to: i - 1 }) }, "↑"));
      if (asks && i !== table.start_player) tools.append(h("button", { class: "small", disabled: ui.pending, onclick: () => send("set_start_player", { seat: i }) }, t("lobby.make_start")));
      if (!s.host) tools.append(h("button", { class: "small danger", disabled: ui.pending, onclick: () => send(s.kind === "bot" ? "remove_seat" : "kick", { seat: i }) }, s.kind === "bot" ? t("lobby.remove_bot") : t("lobby.kick")));
      row.append(tools);
    }
    list.append(row);
  });
  return h("div", {}, h("h2", {}, t("lobby.seats", { n: table.seats.length, max: table.max_players })), list);
}

/** Whether the chosen game takes its start player from the lobby (some draw it, as printed). */
function startAsked(table) {
  return table.lobby_games[table.game].start_player !== false;
}

function lobbyScreen() {
  const table = msg.table;
  const isHost = msg.you.host;
  const parts = [];
  if (table.status === "over" && table.result && !(table.night && table.night.ended)) {
    const game = currentGame();
    parts.push(finalScores(table.result), ...(game && game.finalWords ? game.finalWords() : []));
  }
  const night = nightPanel(table.night);
  if (night) parts.push(night);
  parts.push(h("section", { class: "panel" },
    h("h1", {}, table.status === "over" ? t("lobby.after_game") : t("lobby.title")),
    h("p", { class: "muted" }, !isHost ? t("lobby.wait_host")
      : startAsked(table) ? t("lobby.host_intro", { min: table.min_players })
        : t("lobby.host_intro_drawn", { min: table.min_players, game: t(`games.${table.game}`) })),
    seatList(isHost),
    recoloured(),
    profileEditor(),
    ...leaveTable()));
  if (isHost) {
    const n = table.seats.length;
    const ready = n >= table.min_players && n <= table.max_players;
    const chosen = table.lobby_games[table.game];
    parts.push(h("section", { class: "panel" },
      h("h2", {}, t("host.title")),
      table.games.length > 1 ? gameChoice(table) : null,
      h("div", { class: "button-row" },
        chosen.bots.map((bot) => h("button", { "data-bot": bot, disabled: ui.pending || n >= table.max_players, onclick: () => send("add_bot", { bot }) }, t(`host.add_${bot}`)))),
      gameOptions(table, chosen),
      ...tableLanguage(),
      ...doorControls(),
      h("button", { class: "primary wide", id: "start", disabled: !ready || ui.pending, onclick: () => send("start") },
        startLabel(table)),
      ready ? null : h("p", { class: "muted" }, t("host.need_players", { game: t(`games.${table.game}`), min: table.min_players, max: table.max_players })),
      ...endNight()));
    parts.push(historyPanel());
  }
  return parts;
}

/** What the start button does: after a game, a rematch of it, or the other game chosen since,
 * with the same seats. */
function startLabel(table) {
  if (table.status !== "over") return t("host.start");
  const last = table.result && table.result.game;
  return !last || last === table.game ? t("host.rematch") : t("host.start_other", { game: t(`games.${table.game}`) });
}

/** This phone's own night: its place in each game and the points it earned, the standings; once
 * the night is over, its winner, its facts and the link to the night's page to keep. */
function nightPanel(night) {
  if (!night || !night.games.length) return null;
  const ended = Boolean(night.ended);
  const mine = ended ? null : me();
  return h("section", { class: "panel night", id: ended ? "night-over" : "my-night" },
    h("h2", {}, ended ? t("night.over") : t("night.yours")),
    ended ? nightWinners(night) : myNight(night, mine),
    standingsTable(night, mine),
    nightRule(),
    ended ? nightFacts(night) : null,
    h("p", {}, h("a", { href: `/night/${night.id}`, id: "night-page", target: "_blank" }, t("night.page_link"))));
}

/** A player (not the host) leaves the table between games, after a confirmation. */
function leaveTable() {
  if (msg.you.host) return [];
  return [ui.confirmLeave
    ? h("button", { class: "danger wide", id: "leave-confirm", disabled: ui.pending, onclick: () => { ui.confirmLeave = false; ui.leaving = true; send("leave"); } }, t("night.leave_confirm"))
    : h("button", { class: "small", id: "leave", onclick: () => { ui.confirmLeave = true; render(); } }, t("night.leave"))];
}

/** The host ends the night (the Pi stays on), after a confirmation; the next game begins another. */
function endNight() {
  const night = msg.table.night;
  if (!night || night.ended) return [];
  return [ui.confirmNight
    ? h("button", { class: "danger wide", id: "end-night-confirm", disabled: ui.pending, onclick: () => { ui.confirmNight = false; ui.sheet = null; send("end_night"); } }, t("night.end_confirm"))
    : h("button", { class: "wide", id: "end-night", onclick: () => { ui.confirmNight = true; render(); } }, t("night.end"))];
}

/** The chosen game's own lobby options, drawn by its module (loaded for them, redrawn once here). */
function gameOptions(table, chosen) {
  const game = chosen.options.length ? gameModule(table.game) : null;
  return game && game.lobbyOptions ? game.lobbyOptions(table) : null;
}

/** The host chooses the game; one the seats do not fit is shown, and says why it cannot be
 * chosen. The seats stay, so a rematch may switch game. */
function gameChoice(table) {
  const n = table.seats.length;
  return [h("p", { class: "label" }, t("host.game")),
    h("div", { class: "game-choice" }, table.games.map((game) => {
      const facts = table.lobby_games[game];
      const fits = n <= facts.max_players;
      return h("div", { class: "game-option" },
        h("button", {
          class: table.game === game ? "chosen" : "", disabled: ui.pending || !fits, "data-game": game,
          "aria-pressed": table.game === game ? "true" : "false",
          onclick: () => send("set_game", { game }) },
        h("strong", {}, t(`games.${game}`)), h("small", {}, gameFacts(facts, "host.game_facts"))),
        fits ? null : h("p", { class: "muted small-text why" },
          t("host.game_too_many", { game: t(`games.${game}`), max: facts.max_players, seated: n })));
    }))];
}

async function loadHistory() {
  const answer = await send("history");
  ui.history = answer && answer.ok ? answer.games : [];
  ui.players = answer && answer.ok ? answer.players : [];
  render();
}

/** The players the table remembers, for the host, each with a button to forget them. */
function rememberedPlayers() {
  const seated = new Set(msg.table.seats.map((s) => s.name));
  const away = (ui.players || []).filter((p) => !seated.has(p.name));
  if (!away.length) return null;
  return [h("h3", {}, t("players.remembered")),
    h("ul", { class: "remembered" }, away.map((p) => h("li", { class: "seat-row", "data-player": p.player },
      seatBadge({ name: p.name, colour: p.colour, symbol: msg.table.colours[p.colour] || "" }), " ",
      h("small", { class: "muted" }, recordLine(p)),
      h("button", { class: "small danger", disabled: ui.pending, onclick: async () => {
        const answer = await send("forget_player", { player: p.player });
        if (answer && answer.ok) await loadHistory();
      } }, t("players.forget")))))];
}

function historyPanel() {
  const box = h("details", { class: "panel history", ontoggle: async (event) => {
    if (event.target.open && ui.history === null) {
      await loadHistory();
    }
  }, open: ui.history !== null }, h("summary", {}, t("host.history")));
  if (ui.history === null) return box;
  if (!ui.history.length) box.append(h("p", { class: "muted" }, t("host.history_none")));
  const remembered = rememberedPlayers();
  if (remembered) box.append(...remembered);
  const when = new Intl.DateTimeFormat(document.documentElement.lang, { dateStyle: "medium", timeStyle: "short" });
  box.append(h("ol", { class: "history-list" }, ui.history.map((game) => {
    const named = (s) => s.name ?? t("night.former"); // a player the table forgot
    const names = game.seats.map(named).join(", ");
    const result = game.status === "abandoned" || !game.result
      ? t("host.history_abandoned")
      : t("host.history_winner", { names: game.result.winners.map((w) => named(game.seats[w])).join(", ") });
    return h("li", {}, t("host.history_line", { when: when.format(new Date(game.started * 1000)), names, result }));
  })));
  return box;
}

/** The chosen game has no seat of the colour this player chose: say which they play instead. */
function recoloured() {
  const mine = seats()[me()];
  if (!mine.colour_was) return null;
  return h("p", { class: "note recoloured", role: "status" }, t("lobby.recoloured", {
    game: t(`games.${msg.table.game}`), was: t(`colour.${mine.colour_was}`), colour: t(`colour.${mine.colour}`),
  }));
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
  const forget = mine.record && phoneIdentity(false)
    ? h("button", { class: "small", id: "forget-phone", disabled: ui.pending, onclick: forgetPhone }, t("players.forget_phone"))
    : null;
  return h("details", { class: "profile" }, h("summary", {}, t("lobby.change_colour")), row, forget);
}

// -- the game ------------------------------------------------------------------------------------

function gameScreen() {
  const g = msg.game;
  const game = currentGame();
  if (!game) return [h("p", { class: "muted center" }, t("conn.connecting"))]; // its module is on its way
  const parts = [game.bar(g.public)];
  if (msg.table.paused) parts.push(h("section", { class: "panel paused" }, h("h2", {}, t("game.paused"))));
  const taken = takenBack(msg.table, game.logWords, name);
  if (taken) parts.push(taken);
  if (ui.wakeHint) parts.push(wakeHint());
  if (standingIn()) {
    // a bot plays this seat for now: the phone watches, as if it were somebody else's turn
    parts.push(standIn());
    parts.push(...game.screen({ ...g, legal: [], public: { ...g.public, active: g.public.active.filter((s) => s !== me()) } }));
    return parts;
  }
  parts.push(...game.screen(g));
  return parts;
}

/** A bot plays for this player: say so, and let them take their seat back. */
function standIn() {
  return h("section", { class: "panel standin", role: "status" },
    h("h2", {}, t("standin.title")),
    h("p", {}, t("standin.text")),
    h("button", { class: "primary wide", id: "take-seat-back", disabled: ui.pending,
      onclick: () => send("botify", { seat: me(), bot: "" }) }, t("standin.take_back")));
}

function wakeHint() {
  return h("section", { class: "panel hint" },
    h("p", {}, t("wake.hint")),
    h("button", { class: "small", onclick: () => { ui.wakeHint = false; localStorage.setItem("longhall.wakehint", "1"); render(); } }, t("wake.ok")));
}

// -- the sheets: the game's own (help, hand) and the host's ----------------------------------------

function sheet() {
  const close = h("button", { class: "icon close", onclick: () => openSheet(null), "aria-label": t("sheet.close") }, "✕");
  const game = currentGame();
  const body = ui.sheet === "host" ? hostSheet() : (game && msg.game && game.sheet(ui.sheet)) || [];
  return h("div", { class: "sheet-backdrop", onclick: (e) => { if (e.target === e.currentTarget) openSheet(null); } },
    h("div", { class: "sheet", role: "dialog" }, close, body));
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

/** The host closes the table to new players, and lets a phone sent away back in. */
function doorControls() {
  const table = msg.table;
  const parts = [h("div", { class: "button-row" },
    h("button", { id: "lock", class: table.locked ? "chosen" : "", disabled: ui.pending,
      onclick: () => send("lock_lobby", { locked: !table.locked }) }, table.locked ? t("host.unlock") : t("host.lock")))];
  if (table.locked) parts.push(h("p", { class: "muted small-text" }, t("host.locked")));
  if (table.barred.length) {
    parts.push(h("p", { class: "label" }, t("host.barred")));
    const list = h("ul", { class: "barred-list", id: "barred" });
    for (const phone of table.barred) {
      list.append(h("li", { class: "barred-row" }, h("span", {}, phone.name),
        h("span", { class: "row-tools" }, h("button", { class: "small", disabled: ui.pending,
          onclick: () => send("allow_back", { phone: phone.id }) }, t("host.allow_back")))));
    }
    parts.push(list);
  }
  return parts;
}

/** NEXT waits for every player still deciding; the host may move on anyway, after a second tap
 * that says what those players had left comes to nothing. */
function moveOn() {
  const g = msg.game;
  if (!g || !g.table_steps.length || !g.public.active.length || msg.table.paused) {
    ui.confirmMoveOn = false;
    return [];
  }
  const names = g.public.active.map((s) => name(s)).join(", ");
  return [h("p", { class: "small-text" }, t("next.waits", { names })),
    ui.confirmMoveOn
      ? h("button", { class: "danger", id: "move-on-confirm", disabled: ui.pending, onclick: () => { ui.confirmMoveOn = false; send("move_on"); } }, t("host.move_on_confirm", { names }))
      : h("button", { id: "move-on", onclick: () => { ui.confirmMoveOn = true; render(); } }, t("host.move_on"))];
}

/** Take back the game's last move, one at a time: a second tap takes it back. */
function takeBack() {
  if (!msg.game || !msg.steps) {
    ui.confirmTakeBack = false;
    return [];
  }
  return [ui.confirmTakeBack
    ? h("button", { class: "danger", id: "take-back-confirm", disabled: ui.pending, onclick: () => { ui.confirmTakeBack = false; send("take_back"); } }, t("host.take_back_confirm"))
    : h("button", { id: "take-back", onclick: () => { ui.confirmTakeBack = true; render(); } }, t("host.take_back"))];
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
    ...moveOn(),
    ...takeBack(),
    ...endNight(),
    ...tableLanguage()];
  const game = currentGame();
  if (game && game.hostSheet) parts.push(...game.hostSheet(table));
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
  parts.push(h("h3", {}, t("host.seats")), rows, ...doorControls());
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

setRenderer(draw);
boot();
