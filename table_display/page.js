// What the table display's shell and its game modules share: the latest message, the redraw,
// the fingerprint checks, and the pieces every game draws (players' tokens, an address). It
// imports neither the shell nor a game module, so there is no import cycle: the shell sets the
// redraw (setRenderer), the game modules are loaded by gameModule() when a table plays that game.

import { h, icon, gameLoader, t } from "/static/common.js";
import { canonical, verifyReveal } from "/static/sha256.js";

export let msg = null;
export let online = false;

export function setMsg(value) { msg = value; }
export function setOnline(value) { online = value; }

let renderer = () => {};

/** The shell's redraw, set once by the shell. */
export function setRenderer(draw) { renderer = draw; }

export function render() { renderer(); }

// -- the game modules ----------------------------------------------------------------------------
// One module per game (table_display/games/<id>.js), loaded the first time the table plays it.
// Its default export is the game's screens: {id, screen, scoreTable, ...}.

const loader = gameLoader(new URL("./games/", import.meta.url).href, () => render());

/** The page module of game ``id``, or null while it loads (the page redraws once it is here). */
export const gameModule = loader.gameModule;

/** The module of the game being played (or last played), once loaded. */
export function currentGame() {
  return loader.currentGame(msg);
}

// -- fingerprints ----------------------------------------------------------------------------------
// Fingerprints this screen showed while choices were secret, and what checking each revealed
// choice against them gave (by salt): anyone watching can trust that nobody changed a plan.
const shown = {};
const checked = {};
// The latest reveal of each seat's choice, by game, seat and content: the table keeps only its
// last few reveals, and a round with many fights would push the plans out of the list while they
// are still shown in the castles.
const reveals = new Map();
const revealKey = (seat, content) => `${msg.table.game_id}:${seat}:${canonical(content)}`;

export function checkFingerprints() {
  for (const [seat, fingerprint] of Object.entries(msg.table.fingerprints)) shown[seat] = fingerprint;
  for (const reveal of msg.table.reveals) {
    if (reveal.salt in checked) continue;
    checked[reveal.salt] = verifyReveal(reveal, shown[String(reveal.seat)]);
    reveals.set(revealKey(reveal.seat, reveal.content), reveal);
  }
}

/** The check mark for a revealed choice of ``seat`` equal to ``content``, if it was fingerprinted. */
export function fingerprintMark(seat, content) {
  const reveal = reveals.get(revealKey(seat, content)); // canonical: key order may differ
  if (!reveal) return null;
  return checked[reveal.salt]
    ? h("span", { class: "check ok", title: t("table.fingerprint_ok") }, "✓ ", reveal.hash.slice(0, 8))
    : h("span", { class: "check bad" }, "✗ ", t("table.fingerprint_bad"));
}


export function seats() {
  return msg.table.seats;
}

export function name(seat) {
  const s = seats()[seat];
  return s ? `${s.symbol} ${s.name}` : "?";
}

// -- pieces on the board -------------------------------------------------------------------------

/**
 * Pieces in groups ({make, n}): one by one while there are at most ``most`` in all, else one of
 * each group with its count ("×3"), so a crowded place still fits on one or two lines.
 */
export function pieces(groups, most) {
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

export function token(seat) {
  const info = seats()[seat];
  return h("span", { class: `viking-token colour-${info.colour}`, title: info.name }, info.symbol);
}

/** The vikings of each seat on a place (a list of counts by seat). */
export function vikingsOn(occ, most = 4) {
  return pieces(occ.map((n, seat) => ({ n, make: () => token(seat) })), most);
}

// -- pieces that grow with their box --------------------------------------------------------------
// Some pieces grow with the box they stand in, such as the stones on a castle's building site.
// Container query units did that in the style sheets, but a piece sized by them has its style
// worked out again whenever its box is laid out: on the kiosk, throttled as a Pi 4 runs it, that
// was a quarter of each Eketorp update (docs/performance-history.md). So a ResizeObserver measures the
// boxes, and only when one changes size does its room reach the style: as --room-w and --room-h
// (its content box, as 100cqw and 100cqh were) in the box's style. A box is drawn with the room
// measured last for its key, so a redraw leaves its style as it is. The observer reports
// after the layout and before the paint: no frame shows a piece at another size.
const rooms = new Map(); // a box's key -> its style
const roomObserver = new ResizeObserver((entries) => {
  for (const { target, contentRect } of entries) {
    if (!target.isConnected || !target.dataset.room) { // a box a draw removed or made another
      roomObserver.unobserve(target); // thing: its size is not its key's room
      watched.delete(target);
      continue;
    }
    const style = { "--room-w": `${contentRect.width}px`, "--room-h": `${contentRect.height}px` };
    rooms.set(target.dataset.room, style);
    for (const [name, value] of Object.entries(style)) {
      if (target.style.getPropertyValue(name) !== value) target.style.setProperty(name, value);
    }
  }
});
const watched = new WeakSet();

/** The attributes of a box whose pieces grow with it (their size from --room-w and --room-h):
 * ``key`` names the box from one draw to the next, such as a castle's side. */
export function room(key) {
  return { "data-room": key, style: rooms.get(key) };
}

/** After each draw: measure the boxes the draw added. */
export function watchRooms(root) {
  for (const el of root.querySelectorAll("[data-room]")) {
    if (watched.has(el)) continue;
    watched.add(el);
    roomObserver.observe(el); // it reports each new box once, after the next layout
  }
}

/** An address split only at its slashes, so the join code is never cut in two. */
export function url(address) {
  const parts = address.match(/[^/]*\/*/g).filter(Boolean);
  const out = [];
  parts.forEach((part, i) => {
    if (i) out.push(h("wbr"));
    out.push(h("span", { class: "nobreak" }, part));
  });
  return out;
}

/** The final score's frame: the title and the winners over the game's own table of scores. */
export function finalScores(result) {
  if (!result.scores) return h("section", { class: "panel final" }, h("h2", {}, t("score.abandoned")));
  const game = currentGame();
  const over = result.status === "finished" && msg.game && msg.game.public.phase === "over" ? msg.game.public : null;
  const why = over && game && game.endReason ? game.endReason(over) : null;
  return h("section", { class: "panel final" },
    h("div", { class: "final-head" },
      h("h2", {}, result.status === "abandoned" ? t("score.abandoned") : t("score.title")),
      why ? h("p", { class: "end-reason" }, why) : null,
      result.winners.length ? h("p", { class: "winners" }, icon("star"), " ", t("score.winners", { names: result.winners.map((w) => (result.seats[w] || {}).name).join(", ") })) : null),
    game ? game.scoreTable(result) : null);
}
