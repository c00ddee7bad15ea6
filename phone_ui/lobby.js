// The phone's lobby: the seats, this player's colour and night, and, on the host's phone, the
// lobby's controls (the game and its options, bots, the start, the earlier games and the players
// the table remembers). The shell (phone_ui/phone.js) draws it between games; the host's controls
// it shares with the host's sheet are in phone_ui/host.js.

import { gameFacts, h, seatBadge, t } from "/static/common.js";
import {
  currentGame, finalScores, forgetPhone, gameModule, me, msg, phoneIdentity, render, seats, send, ui,
} from "./page.js";
import { doorControls, endNight, tableLanguage } from "./host.js";
import { myNight, nightFacts, nightRule, nightWinners, recordLine, standingsTable } from "/static/night.js";

export function seatList(hostControls) {
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

export function lobbyScreen() {
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
  const answer = await send("history", {}, { keepError: true });
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
  // open while the host has it open, its list asked for again at each opening
  const box = h("details", { class: "panel history", ontoggle: async (event) => {
    ui.historyOpen = event.target.open;
    if (ui.historyOpen) await loadHistory();
  }, open: ui.historyOpen }, h("summary", {}, t("host.history")));
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
  // open while the player has it open: the next update's redraw would close it otherwise
  return h("details", { class: "profile", open: ui.profileOpen, ontoggle: (e) => { ui.profileOpen = e.target.open; } },
    h("summary", {}, t("lobby.change_colour")), row, forget);
}
