// The host's controls during a game (the sheet behind ⚙: pause, end, move on, take back, the seats,
// the door) and the ones the lobby shows too (ending the night, the table display's language, the
// door). Drawn by the shell (phone_ui/phone.js) and the lobby (phone_ui/lobby.js).

import { LANGUAGES, LANGUAGE_NAMES, h, seatBadge, t } from "/static/common.js";
import { currentGame, me, msg, name, render, send, ui } from "./page.js";

/** The host ends the night (the Pi stays on), after a confirmation; the next game begins another. */
export function endNight() {
  const night = msg.table.night;
  if (!night || night.ended) return [];
  return [ui.confirmNight
    ? h("button", { class: "danger wide", id: "end-night-confirm", disabled: ui.pending, onclick: () => { ui.confirmNight = false; ui.sheet = null; send("end_night"); } }, t("night.end_confirm"))
    : h("button", { class: "wide", id: "end-night", onclick: () => { ui.confirmNight = true; render(); } }, t("night.end"))];
}

/** The host picks the table display's language (it has no keyboard or mouse of its own). */
export function tableLanguage() {
  const current = msg.table.language || "";
  const choice = (lang, label) => h("button", {
    class: current === lang ? "chosen" : "", disabled: ui.pending, "data-table-lang": lang || "auto",
    onclick: () => send("set_language", { lang }) }, label);
  return [h("p", { class: "label" }, t("host.table_language")),
    h("div", { class: "button-row" }, choice("", t("host.table_language_auto")),
      LANGUAGES.map((lang) => choice(lang, LANGUAGE_NAMES[lang])))];
}

/** The host closes the table to new players, and lets a phone sent away back in. */
export function doorControls() {
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

export function hostSheet() {
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
