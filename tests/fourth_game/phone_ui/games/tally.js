// Tally on the phone (a game of the tests only): the tally, the goal, and the player's own
// stones, each a button while it is their turn.

import { h, t } from "/static/common.js";
import { actionButton, legalHas, me, send, ui, waitingFor } from "../page.js";

function bar(pub) {
  return h("section", { class: "panel", id: "tally-bar" }, t("tally.bar", { tally: pub.tally, goal: pub.goal }));
}

function screen(g) {
  const pub = g.public;
  const hand = (g.private && g.private.hand) || [];
  return [
    h("section", { class: "panel", id: "tally-hand" }, h("h2", {}, t("tally.hand")),
      h("div", { class: "button-row" }, hand.map((stone) =>
        actionButton(String(stone), { type: "play", stone }, { disabled: !legalHas("play", { stone }) })))),
    pub.active.includes(me()) ? h("p", { id: "tally-turn" }, t("tally.your_turn")) : waitingFor(pub, "tally.waiting"),
  ];
}

/** The host sets the goal in the lobby. */
function lobbyOptions(table) {
  return [h("p", { class: "label" }, t("tally.goal")),
    h("div", { class: "button-row" }, [12, 20].map((goal) => h("button", {
      class: table.options.goal === goal ? "chosen" : "", "data-goal": goal, disabled: ui.pending,
      onclick: () => send("set_option", { option: "goal", value: goal }) }, String(goal))))];
}

function scoreRows(score) {
  return h("p", { class: "muted" }, t(score.total ? "tally.won" : "tally.lost"));
}

export default { id: "tally", bar, screen, sheet: () => [], scoreRows, lobbyOptions };
