// The phone page's shell: joining, reconnecting, the wake lock, the offline banner, the game's
// frame and the sheets. The lobby is in phone_ui/lobby.js, the host's sheet in phone_ui/host.js;
// each game's screens live in their own module (phone_ui/games/<game>.js), loaded only when the
// table plays that game; this shell knows no game's words. It speaks only the documented protocol
// (docs/protocol.md) and draws everything from the latest snapshot or update, so a reconnect
// redraws it exactly.

import {
  connectTable, errorText, h, has, languageSwitch, loadLanguage, oncePerFrame, pickLanguage, seatBadge, show, t,
  takenBack,
} from "/static/common.js";
import {
  TOKEN_KEY, WAS_KEY, conn, guestAuth, currentGame, fatal, forgetPhone, me, msg, name, online, openSheet, phoneIdentity,
  render, seats, standingIn, send, setConn, setFatal, setMsg, setOnline, setRenderer, showToast, ui, versionWaiters,
} from "./page.js";
import { hostSheet } from "./host.js";
import { lobbyScreen, seatList } from "./lobby.js";
import { recordLine } from "/static/night.js";

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
// replace the button under it and the tap would be lost: hold redraws until the finger lifts and
// its click has been handled, but no longer than a tap lasts. A press longer than that is no tap
// (the browser makes it a long press, with no click), and a thumb left resting on the glass must
// not freeze the screen.
const HOLD_MS = 1000;
const NO_CLICK_MS = 60; // after a lift with no click (a scroll), or one a handler kept to itself
let pressing = false;
let redrawHeld = false;
let holdTimer = 0;
let shownScreen = null; // the table status and game phase last drawn
let touched = null; // what the last press began on
let touchedAt = 0; // and when
const TOUCH_HELD_MS = 3000; // a tap's own redraw and the table's answer to it

/** Which of its game's screens the page shows: the phase, or what the game's module says (where
 * a player watching the others sees one screen through all of their phases). */
function screenOf(g) {
  const game = currentGame();
  return game && game.screenKey ? game.screenKey(g) : g.public.phase;
}

// What the player touched stays under the finger. A tap's answer may add lines above it (the
// step's prompt grows, "Chosen: ..." comes), which would move the harbour or the hand down just as
// the finger goes for its next tap there. So a redraw of the same screen soon after a press finds
// where the touched element (or, if the redraw replaced it, its nearest ancestor still there) was
// and is in the screen, and scrolls the page by as much as it moved, as far as the page can
// scroll. Only soon after, and only a move within the screen: a notice or a panel that comes at
// the top later (the game paused, a bot playing for the player) must be seen, not scrolled away.
// The browser's own scroll anchoring holds what is at the top of the view, and nothing while the
// page is at its top: it keeps the finger's place only when the lines came above the view (and
// then this measures no move, its layout done before).
function whereTouched() {
  const main = app.querySelector("main.screen");
  if (!touched || !main || !main.contains(touched) || performance.now() - touchedAt > TOUCH_HELD_MS) return null;
  const marks = [];
  for (let el = touched; el !== main; el = el.parentElement) marks.push([el, el.getBoundingClientRect().top]);
  const [first] = touched.getClientRects();
  // only while it is in view: else the page would move what the player is looking at instead
  const inView = first && first.bottom > 0 && first.top < window.innerHeight;
  return inView ? { marks, main: main.getBoundingClientRect().top, scrolled: window.scrollY } : null;
}

function keepTouched(was) {
  const main = app.querySelector("main.screen");
  const kept = main && was.marks.find(([el]) => main.contains(el));
  if (!kept) return;
  // what came or went above the screen itself (a notice) is left to be seen
  const above = main.getBoundingClientRect().top - was.main + window.scrollY - was.scrolled;
  const moved = kept[0].getBoundingClientRect().top - kept[1] - above;
  if (Math.abs(moved) >= 1) window.scrollBy(0, moved);
}

function letGo() {
  pressing = false;
  if (redrawHeld) {
    redrawHeld = false;
    render();
  }
}

document.addEventListener("pointerdown", (event) => {
  pressing = true;
  touched = event.target;
  touchedAt = performance.now();
  clearTimeout(holdTimer); // the last press's release, if still to come, must not end this one
  holdTimer = setTimeout(letGo, HOLD_MS);
}, true);
for (const event of ["pointerup", "pointercancel"]) {
  document.addEventListener(event, () => {
    clearTimeout(holdTimer);
    holdTimer = setTimeout(letGo, NO_CLICK_MS);
  }, true);
}
// The click has found its button: once it is handled, and what it does by default done (a box
// opened, a field given the click of its label), the tap's own redraw and an update that waited
// meanwhile are drawn in the next task, not 60 ms later.
window.addEventListener("click", () => {
  clearTimeout(holdTimer);
  holdTimer = setTimeout(letGo, 0);
});

// An update is drawn once a frame, with the latest (a player's move, the bot's answer, the next
// phase may come in one); a tap's own redraw is drawn at once, or in the task after its click
// while its finger holds redraws.
const drawSoon = oncePerFrame(draw);

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
  const screen = !msg ? "" : `${msg.you ? "seated" : "guest"}|${msg.table.status}|${msg.game && msg.table.status === "playing" ? screenOf(msg.game) : ""}`;
  const newScreen = screen !== shownScreen;
  const touchedWas = newScreen ? null : whereTouched();
  if (newScreen) {
    shownScreen = screen;
    touched = null;
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
  else if (touchedWas) keepTouched(touchedWas);
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
    msg && msg.you && msg.game && currentGame() ? h("button", { class: "icon", onclick: () => openSheet("help"), "aria-label": t("help.title") }, "?") : null,
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

/** A phone the table remembers: its name and colour offered again, in one tap. */
function welcomeBack(free, full) {
  const phone = phoneIdentity(false);
  if (!phone || !online) return null;
  if (ui.recalled === undefined) {
    ui.recalled = null;
    send("recall", { phone }, { keepError: true }).then((answer) => { ui.recalled = answer && answer.ok ? answer.player : null; render(); });
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

setRenderer(draw);
boot();
