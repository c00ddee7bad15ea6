// What the phone's shell, its lobby and host's sheet (lobby.js, host.js) and its game modules
// share: the latest message, the connection, sending, the redraw, the phone's own identity, and the
// small pieces every game's screens use. It imports none of them, so there is no import cycle: the
// shell sets the redraw (setRenderer), the game modules are loaded by gameModule() when a table
// plays that game.

import { h, errorText, seatBadge, gameLoader, t } from "/static/common.js";

export const code = decodeURIComponent(location.pathname.split("/")[2] || "");
export const TOKEN_KEY = `longhall.token.${code}`;
// The seat token this phone had before the host took the seat away: shown when it joins again,
// so that a phone the host sent away stays out until the host lets it back in.
export const WAS_KEY = `longhall.was.${code}`;

/** How this phone connects when it holds no seat: the table's code, and the token it had. */
export function guestAuth() {
  const was = localStorage.getItem(WAS_KEY);
  return was ? { code, was } : { code };
}

export let conn = null;
export let msg = null; // the latest snapshot or update
export let online = false;
export let fatal = null; // {code, message} when this page cannot go on by itself

export function setConn(value) { conn = value; }
export function setMsg(value) { msg = value; }
export function setOnline(value) { online = value; }
export function setFatal(value) { fatal = value; }

export const ui = {
  pending: false,
  toast: null,
  toastTimer: null,
  sheet: null, // "help" | "host" | a game's own sheet | null
  handover: null, // {seat, url, qr}
  notice: null,
  name: localStorage.getItem("longhall.name") || "",
  colour: "",
  profileOpen: false, // the player opened the box to change their colour
  wakeHint: false,
  confirmEnd: false,
  confirmNight: false, // the host asked to end the night: the next tap confirms
  confirmLeave: false, // a player asked to leave the table: the next tap confirms
  leaving: false, // this player left: the seat's end is no surprise
  confirmMoveOn: false,
  confirmTakeBack: false,
  history: null, // the host's list of earlier games, once asked for
  historyOpen: false, // the host opened the box of earlier games
  hostNumber: "", // the number typed while the table chooses its host
  players: null, // the players the table remembers (the host's list), with the history
  recalled: undefined, // what the table remembers of this phone: asked once, then a player or null
};

// -- redrawing -----------------------------------------------------------------------------------

let renderer = () => {};

/** The shell's redraw, set once by the shell. */
export function setRenderer(draw) { renderer = draw; }

export function render() { renderer(); }

/** Open a sheet over the page (help, the host's, a game's own), or close it (null). */
export function openSheet(kind) {
  ui.sheet = ui.sheet === kind ? null : kind;
  render();
}

// -- the game modules ----------------------------------------------------------------------------
// One module per game (phone_ui/games/<id>.js), loaded the first time the table plays it. Its
// default export is the game's screens: {id, bar, screen, atHand, sheet, scoreRows, ...}; optional
// ``finalWords()`` adds panels below the final score (how a tie was settled, say), optional
// ``endReason(public view)`` says why the game ended, under the final score's title, optional
// ``screenKey(game view)`` names the screen the player is shown (by default the phase): a new
// one opens at its top, and the page keeps its place while it stays the same.

const loader = gameLoader(new URL("./games/", import.meta.url).href, () => render());

/** The page module of game ``id``, or null while it loads (the page redraws once it is here). */
export const gameModule = loader.gameModule;

/** The module of the game being played (or last played), once loaded. */
export function currentGame() {
  return loader.currentGame(msg);
}

// -- sending -------------------------------------------------------------------------------------

/** Send a command and wait for its answer (null while one is on its way, or offline); a
 * refusal is said in an error toast. An error answers the player's last try: a new try takes it
 * away, or a player who has put it right would read it for seconds more, over a try that went
 * through. ``keepError``: not a new try but a step the page takes by itself (a viking put back
 * after its move was refused, the history loaded): the error stays. */
export async function send(type, fields = {}, { keepError = false } = {}) {
  if (ui.pending || !online) return null;
  ui.pending = true;
  if (!keepError && ui.toast && ui.toast.kind === "error") { clearTimeout(ui.toastTimer); ui.toast = null; }
  render();
  const answer = await conn.send(type, fields);
  ui.pending = false;
  if (!answer.ok) showToast(errorText(answer.error), "error");
  render();
  return answer;
}

export const act = (action, options) => send("act", { action: strip(action) }, options);

// Two steps in a row (a move is "unplace" then "place"): the second must be made against the
// table as the first left it, so wait until its update is here (it normally comes before the
// answer; never wait long).
export const versionWaiters = new Set();
export function caughtUp(version) {
  if (msg && msg.version >= version) return Promise.resolve();
  return new Promise((resolve) => {
    const waiter = { version, done: () => { versionWaiters.delete(waiter); clearTimeout(timer); resolve(); } };
    const timer = setTimeout(waiter.done, 2000);
    versionWaiters.add(waiter);
  });
}
export const tableStep = (type) => send("table", { action: { type } });

export function strip(action) {
  const out = { ...action };
  delete out.undo;
  return out;
}

export function showToast(text, kind) {
  ui.toast = { text, kind };
  clearTimeout(ui.toastTimer);
  ui.toastTimer = setTimeout(() => {
    ui.toast = null;
    render();
  }, kind === "error" ? 5000 : 7000);
  render();
}

// -- small pieces --------------------------------------------------------------------------------

export function seats() {
  return msg ? msg.table.seats : [];
}

export function me() {
  return msg && msg.you ? msg.you.seat : null;
}

export function actionButton(label, action, attrs = {}) {
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

/** Whether a bot plays this phone's seat for now (the phone then only watches). */
export function standingIn() {
  const mine = seats()[me()];
  return Boolean(mine && mine.kind === "human" && mine.bot);
}

export function legalHas(type, match = {}) {
  const legal = (msg.game && !standingIn() && msg.game.legal) || [];
  return legal.find((a) => a.type === type && Object.entries(match).every(([k, v]) => a[k] === v));
}

export function name(seat) {
  const s = seats()[seat];
  return s ? `${s.symbol} ${s.name}` : "?";
}

/** A seat someone plays from a phone now (not a bot, not empty, not away). */
export function present(seat) {
  const s = seats()[seat];
  return s.kind === "human" && s.connected && !s.vacant;
}

export function waiting(text) {
  return h("section", { class: "panel waiting" }, h("p", {}, text));
}

export function waitingFor(pub, key) {
  const names = pub.active.filter((s) => s !== me()).map(name).join(", ");
  return waiting(t(key, { names }));
}

/** Why the finished game ended, in its module's words (the last game's board is still here). */
function endReason(result, game) {
  const g = msg && msg.game;
  if (result.status !== "finished" || !game || !game.endReason || !g || g.public.phase !== "over") return null;
  const why = game.endReason(g.public);
  return why ? h("p", { class: "end-reason" }, why) : null;
}

/** The final score: why the game ended, then one card per player, best first, the total at the
 * top, then every category with its count and points, as the game's module lists them. Readable
 * on a 360 px phone. */
export function finalScores(result) {
  if (!result.scores) return h("section", { class: "panel" }, h("h1", {}, t("score.abandoned")));
  const game = currentGame();
  const winners = new Set(result.winners);
  // a winner comes first even on equal points (a tie settled by a tie-break): a tie settled is
  // never shown as two players "1."
  const ahead = (a, b) => (winners.has(a) !== winners.has(b) ? winners.has(a) : result.scores[a].total > result.scores[b].total);
  const order = result.scores.map((_, i) => i).sort((a, b) => (ahead(a, b) ? -1 : ahead(b, a) ? 1 : 0));
  return h("section", { class: "panel final" },
    h("h1", {}, result.status === "abandoned" ? t("score.abandoned") : t("score.title")),
    endReason(result, game),
    result.winners.length ? h("p", { class: "winners" }, t("score.winners", { names: result.winners.map((w) => (result.seats[w] || {}).name).join(", ") })) : null,
    h("ol", { class: "score-cards" }, order.map((i) => {
      const score = result.scores[i];
      const rank = 1 + order.filter((j) => ahead(j, i)).length;
      return h("li", { class: `score-card ${winners.has(i) ? "winner" : ""}`, "data-seat": i },
        h("div", { class: "score-head" },
          h("span", { class: "rank" }, `${rank}.`),
          seatBadge(result.seats[i] || seats()[i]),
          h("span", { class: "total", "aria-label": `${t("score.total")}: ${score.total}` }, h("small", {}, t("score.total")), " ", String(score.total))),
        game ? game.scoreRows(score, false) : null); // the total is at the top
    })));
}

// -- the table remembers its players ----------------------------------------------------------------
// The phone keeps an identity of its own (random, never a password) so that the table can offer it
// its name and colour again at the next night; the table keeps only its hash.

const PHONE_KEY = "longhall.phone";

export function phoneIdentity(create) {
  let id = localStorage.getItem(PHONE_KEY);
  if (!id && create) {
    const bytes = crypto.getRandomValues(new Uint8Array(24));
    id = btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_");
    localStorage.setItem(PHONE_KEY, id);
  }
  return id;
}

/** This phone asks the table to forget it, and forgets its identity. */
export async function forgetPhone() {
  const phone = phoneIdentity(false);
  if (!phone) return;
  const answer = await send("forget_me", { phone });
  if (answer && (answer.ok || answer.error.code === "no_such_player")) {
    localStorage.removeItem(PHONE_KEY);
    ui.recalled = null;
    showToast(t("players.forgotten"), "notice");
  }
}
