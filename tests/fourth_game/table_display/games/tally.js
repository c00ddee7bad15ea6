// Tally on the table display (a game of the tests only): the tally against the goal, whose turn
// it is, how many stones each player holds (never which).

import { h, t } from "/static/common.js";
import { name } from "../page.js";

function screen(pub) {
  return [h("section", { class: "panel", id: "tally" },
    h("h1", { id: "tally-count" }, t("tally.board", { tally: pub.tally, goal: pub.goal })),
    h("p", {}, pub.winner === null ? t("tally.turn", { name: name(pub.turn) }) : t("tally.winner", { name: name(pub.winner) })),
    h("ul", {}, pub.seats.map((s) => h("li", {}, t("tally.stones", { name: name(s.seat), n: s.stones })))))];
}

function scoreTable(result) {
  return h("p", { id: "tally-result" }, t("tally.winner", { name: result.seats[result.winners[0]].name }));
}

function lobbyFacts(table) {
  return h("p", { id: "tally-goal" }, t("tally.goal_is", { goal: table.options.goal }));
}

export default { id: "tally", screen, scoreTable, lobbyFacts };
